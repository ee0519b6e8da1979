"""HTTP header fields: a case-insensitive, order-keeping, multi-valued mapping.

Both the transport and the cache speak in `Headers`, and both read dates
with `parse_http_date`; nothing here does I/O or imports another library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import Any

__all__ = ["Headers", "HeadersInput", "format_http_date", "parse_http_date"]

#: What `Headers` is made from: another mapping (repeats kept when it has
#: ``multi_items``, as httpx's does) or ``(name, value)`` pairs, str or bytes.
HeadersInput = Mapping[str, str] | Iterable[tuple[str | bytes, str | bytes]]


def _pairs_of(headers: Any) -> Iterable[tuple[str | bytes, str | bytes]]:
    """The ``(name, value)`` pairs of a mapping or pair iterable, repeats included."""
    multi_items = getattr(headers, "multi_items", None)
    if callable(multi_items):
        return multi_items()  # type: ignore[no-any-return]
    if isinstance(headers, Mapping):
        return headers.items()
    return headers  # type: ignore[no-any-return]


class Headers(MutableMapping[str, str]):
    """Header fields in the order given, looked up whatever their case.

    A name given more than once keeps every value: ``headers[name]`` joins
    them with ``", "`` (RFC 9110 5.3), `get_list` returns them apart.
    Setting a name replaces all its values where the first one stood.
    Iteration yields each name once, lower-cased.
    """

    __slots__ = ("_items",)

    def __init__(self, headers: HeadersInput | None = None) -> None:
        # (lower-cased name, name as given, value)
        self._items: list[tuple[str, str, str]] = []
        if isinstance(headers, Headers):
            self._items = list(headers._items)
        elif headers is not None:
            # Latin-1 text, inline: a response's headers are built several times a request.
            append = self._items.append
            for name, value in _pairs_of(headers):
                text = name.decode("latin-1") if isinstance(name, bytes) else name
                append(
                    (
                        text.lower(),
                        text,
                        value.decode("latin-1") if isinstance(value, bytes) else value,
                    )
                )

    def __getitem__(self, name: str) -> str:
        wanted = name.lower()
        values = [value for key, _, value in self._items if key == wanted]
        if not values:
            raise KeyError(name)
        return values[0] if len(values) == 1 else ", ".join(values)

    def get(self, name: str, default: Any = None) -> Any:
        """The (joined) value of ``name``, or ``default`` (no KeyError raised and caught)."""
        wanted = name.lower()
        values = [value for key, _, value in self._items if key == wanted]
        if not values:
            return default
        return values[0] if len(values) == 1 else ", ".join(values)

    def __setitem__(self, name: str, value: str) -> None:
        wanted = name.lower()
        position = next((i for i, item in enumerate(self._items) if item[0] == wanted), None)
        if position is None:
            self._items.append((wanted, name, value))
            return
        self._items[position] = (wanted, name, value)
        self._items[position + 1 :] = [i for i in self._items[position + 1 :] if i[0] != wanted]

    def __delitem__(self, name: str) -> None:
        wanted = name.lower()
        kept = [item for item in self._items if item[0] != wanted]
        if len(kept) == len(self._items):
            raise KeyError(name)
        self._items = kept

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        wanted = name.lower()
        return any(key == wanted for key, _, _ in self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(key for key, _, _ in self._items))

    def __len__(self) -> int:
        return len({key for key, _, _ in self._items})

    def add(self, name: str, value: str) -> None:
        """Append one more value for ``name``, keeping those already there."""
        self._items.append((name.lower(), name, value))

    def get_list(self, name: str) -> list[str]:
        """Every value of ``name``, in order (empty when absent)."""
        wanted = name.lower()
        return [value for key, _, value in self._items if key == wanted]

    def multi_items(self) -> list[tuple[str, str]]:
        """Every ``(lower-cased name, value)`` pair, repeats included, in order."""
        return [(key, value) for key, _, value in self._items]

    def pairs(self) -> list[tuple[str, str]]:
        """Every ``(name, value)`` pair with the names as given: what goes on the wire."""
        return [(name, value) for _, name, value in self._items]

    @property
    def raw(self) -> list[tuple[bytes, bytes]]:
        """The pairs as Latin-1 bytes (HTTP's historical header encoding)."""
        return [(name.encode("latin-1"), value.encode("latin-1")) for _, name, value in self._items]

    def copy(self) -> Headers:
        """An independent copy."""
        copied = Headers()
        copied._items = list(self._items)
        return copied

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Headers):
            return sorted(self.multi_items()) == sorted(other.multi_items())
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        # Names only: values may be credentials, and a repr ends up in logs.
        return f"Headers({[name for _, name, _ in self._items]!r})"


def parse_http_date(value: str | None) -> float | None:
    """Seconds since the epoch for an HTTP-date (any RFC 9110 form), or None if unreadable."""
    if not value:
        return None
    import email.utils  # only a cache entry or a Retry-After needs it

    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    try:
        return float(email.utils.mktime_tz(parsed))
    except (OverflowError, ValueError):
        return None


def format_http_date(seconds: float) -> str:
    """The IMF-fixdate form of a moment (``Sun, 06 Nov 1994 08:49:37 GMT``)."""
    import email.utils

    return email.utils.formatdate(seconds, usegmt=True)
