"""A stored response and the rules for using it: its lifetime, its age, its validators.

Besides its status, headers and body, an entry keeps metadata lines in
httplib2's manner (``-varied-<header>``: the request's value of each header
its ``Vary`` names; ``-wadlclient-principal``: whose request stored it), and
two facts about the read that found it: whether it came from the part of
the cache every principal shares (then ``s-maxage`` is its lifetime, RFC
9111 5.2.2.10) and whether the asker may send its validators.
"""

from __future__ import annotations

from typing import NamedTuple

from wadlclient.headers import Headers, HeadersInput, parse_http_date

__all__ = ["CachedResponse", "cache_directives", "same_use"]


def cache_directives(headers: Headers) -> dict[str, str | None]:
    """The ``Cache-Control`` directives, lower-cased names to (unquoted) arguments."""
    directives: dict[str, str | None] = {}
    for value in headers.get_list("cache-control"):
        for part in value.split(","):
            name, has_argument, argument = part.partition("=")
            name = name.strip().lower()
            if name:
                directives[name] = argument.strip().strip('"') if has_argument else None
    return directives


def _seconds(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return max(0, int(value.strip()))
    except ValueError:
        return None


#: Metadata lines of an entry: ``(b"-varied-accept", b"application/json")``, ...
Meta = tuple[tuple[bytes, bytes], ...]


class _Stored(NamedTuple):
    status: int
    headers: Headers
    body: bytes
    meta: Meta
    shared: bool
    revalidate: bool


class CachedResponse(_Stored):
    """A response as stored: status, headers (never a credential) and body; immutable.

    ``headers`` may be given as any mapping or ``(name, value)`` pairs; it is
    kept as `Headers`. ``meta``: the entry's metadata lines; ``shared``: it
    is (or goes) where every principal may read it; ``revalidate``: whoever
    asked may send its validators (False for another principal's entry).
    """

    __slots__ = ()

    def __new__(
        cls,
        status: int,
        headers: HeadersInput,
        body: bytes,
        meta: Meta = (),
        shared: bool = False,
        revalidate: bool = True,
    ) -> CachedResponse:
        kept = headers if isinstance(headers, Headers) else Headers(headers)
        return super().__new__(cls, status, kept, body, meta, shared, revalidate)

    def __repr__(self) -> str:
        return f"CachedResponse(status={self.status!r}, headers={self.headers!r})"

    def freshness_lifetime(self) -> float:
        """Seconds the response stays fresh after its Date (0 when unsaid).

        ``s-maxage`` counts only where every principal reads the entry (a
        shared cache's lifetime); ``max-age``, then ``Expires``, elsewhere.
        """
        directives = cache_directives(self.headers)
        if self.shared and "s-maxage" in directives:
            return float(_seconds(directives["s-maxage"]) or 0)
        if "max-age" in directives:
            return float(_seconds(directives["max-age"]) or 0)
        if "expires" in self.headers:
            date = parse_http_date(self.headers.get("date"))
            expires = parse_http_date(self.headers.get("expires"))
            if date is None or expires is None:
                return 0.0
            return max(0.0, expires - date)
        return 0.0

    def is_fresh(self, now: float) -> bool:
        """Whether it may be used without asking the server.

        Age is the time since ``Date`` plus any ``Age`` the response came
        with: without the moment it was received this may count a proxy's
        time twice, which errs towards asking again, never towards serving
        a stale response. ``no-cache`` makes every use ask.
        """
        directives = cache_directives(self.headers)
        if "no-cache" in directives or "no-store" in directives:
            return False
        date = parse_http_date(self.headers.get("date"))
        if date is None:
            return False
        age = max(0.0, now - date) + (_seconds(self.headers.get("age")) or 0)
        return self.freshness_lifetime() > age

    def validators(self) -> dict[str, str]:
        """The conditional-request headers this response allows (none: not the asker's)."""
        conditions: dict[str, str] = {}
        if not self.revalidate:
            return conditions
        etag = self.headers.get("etag")
        if etag:
            conditions["If-None-Match"] = etag
        last_modified = self.headers.get("last-modified")
        if last_modified:
            conditions["If-Modified-Since"] = last_modified
        return conditions


def same_use(stored: CachedResponse, refreshed: CachedResponse) -> bool:
    """Whether a later request would use ``refreshed`` as it uses ``stored``.

    True when neither can ever be fresh and both carry the same validators:
    the rewrite would change only the Date, which nothing then reads, so a
    304 for an entry served without a lifetime costs no file write.
    """
    return (
        stored.freshness_lifetime() == 0
        and refreshed.freshness_lifetime() == 0
        and stored.validators() == refreshed.validators()
    )
