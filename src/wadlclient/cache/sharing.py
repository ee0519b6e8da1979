"""Whose answers a cache holds: the principal that asked, ``Vary``, and where an entry goes.

One store may serve many principals (a Redis for a fleet, one directory).
Each principal has a partition of its own, a private cache in RFC 9111's
sense; the rest of the store is shared, and follows the rules of a shared
cache, as Apache HttpClient's and hishel's shared modes do:

- an anonymous answer goes to the shared part (unless it says ``private``:
  a shared cache never stores those, 5.2.2.7);
- an authorized answer goes to its principal's partition, unless it says
  ``public``, ``s-maxage`` or ``must-revalidate`` (3.5) and neither
  ``private`` nor ``Vary: Authorization``; then it is shared. The WADL is
  shared too, unless it says otherwise (`SHARED_MEDIA_TYPES`);
- ``Vary`` (4.1): the request's value of each header it names is kept with
  the entry (httplib2's ``-varied-<name>`` lines) and must match at reuse.
  For ``Authorization`` the value kept is the principal, never the header;
  a header whose name looks like a credential's is never kept, so such an
  answer is not stored; ``Vary: *`` is never stored;
- ``no-store`` is never stored;
- an entry's validators go only with the credentials of the principal
  whose request stored it: another principal's stale entry is a miss.

A principal is `wadlclient.auth.principal`'s fingerprint (None: anonymous;
`UNIDENTIFIED`: credentials the cache cannot tell apart, which get no
partition).
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from wadlclient.cache.freshness import CachedResponse, Meta, cache_directives
from wadlclient.headers import Headers

__all__ = [
    "OWNER",
    "SHARED_MEDIA_TYPES",
    "UNIDENTIFIED",
    "Asker",
    "Place",
    "has_partition",
    "partition_key",
    "placement",
    "record",
    "usable",
]

#: The principal of an authorizer that cannot say whose credentials it holds.
UNIDENTIFIED = "?"
#: The metadata line naming whose request stored an entry.
OWNER = b"-wadlclient-principal"
#: Answers every principal may read unless they say otherwise: the WADL, a
#: description of the service that lazr.restful makes from its interfaces,
#: the same for every caller, with no caller's data in it.
SHARED_MEDIA_TYPES = frozenset(
    {"application/vnd.sun.wadl+xml", "application/vnd.example.wadl+xml"}
)

_VARIED = b"-varied-"
_SHARING_DIRECTIVES = frozenset({"public", "s-maxage", "must-revalidate"})
# Request headers whose values a cache file must never hold.
_CREDENTIAL_NAME = re.compile(r"auth|cookie|token|secret|key|pass|session|signature", re.I)
_NEVER_KEPT = object()


class Asker(NamedTuple):
    """Who asks (a principal; None: anonymous) and the request's headers (for ``Vary``)."""

    principal: str | None
    headers: Headers | None


class Place(enum.Enum):
    """Where an answer is stored."""

    SHARED = "shared"
    PARTITION = "partition"


def has_partition(principal: str | None) -> bool:
    """Whether ``principal`` has a partition of its own (it is a fingerprint)."""
    return principal is not None and principal != UNIDENTIFIED


def partition_key(key: str, principal: str) -> str:
    """The key of ``key`` in ``principal``'s partition.

    No cache key holds ``#`` (a URL's fragment is dropped), so it never
    names a shared entry, nor one httplib2 would write.
    """
    return f"{key}#principal={principal}"


def _vary(headers: Headers) -> list[str]:
    return [
        name.strip().lower()
        for value in headers.get_list("vary")
        for name in value.split(",")
        if name.strip()
    ]


def _shareable(directives: dict[str, str | None], media_type: str) -> bool:
    """Whether an authorized answer may serve every principal (RFC 9111 3.5, and the WADL)."""
    if "private" in directives:
        return False
    return not _SHARING_DIRECTIVES.isdisjoint(directives) or media_type in SHARED_MEDIA_TYPES


def placement(headers: Headers, asker: Asker, media_type: str) -> Place | None:
    """Where the answer with ``headers`` to ``asker`` is stored; None: nowhere."""
    directives = cache_directives(headers)
    if "no-store" in directives:
        return None
    if asker.principal is None:
        return None if "private" in directives else Place.SHARED
    if "authorization" not in _vary(headers) and _shareable(directives, media_type):
        return Place.SHARED
    return Place.PARTITION if has_partition(asker.principal) else None


def _asked(name: str, asker: Asker, media_type: str) -> object:
    """The value of request header ``name`` an entry records and compares; None: absent."""
    if name == "accept":
        return media_type
    if name == "authorization":
        return None if asker.principal is None else f"wadlclient-principal={asker.principal}"
    value = asker.headers.get(name) if asker.headers is not None else None
    if value is None:
        return None
    if _CREDENTIAL_NAME.search(name):
        return _NEVER_KEPT
    return " ".join(value.split())


def record(headers: Headers, asker: Asker, media_type: str) -> Meta | None:
    """The metadata lines of ``asker``'s entry: its owner, its ``Vary`` values; None: unstorable."""
    meta: list[tuple[bytes, bytes]] = []
    if asker.principal is not None:
        meta.append((OWNER, asker.principal.encode("ascii", "replace")))
    for name in _vary(headers):
        value = _asked(name, asker, media_type)
        if name == "*" or value is _NEVER_KEPT:
            return None
        if isinstance(value, str):
            meta.append((_VARIED + name.encode("latin-1", "replace"), value.encode("utf-8")))
    return tuple(meta)


def _owner(meta: Meta) -> str | None:
    for name, value in meta:
        if name == OWNER:
            return value.decode("ascii", "replace")
    return None


def _varies_alike(entry: CachedResponse, asker: Asker, media_type: str) -> bool:
    """Whether the request matches the one that stored ``entry`` on every header its Vary names."""
    names = _vary(entry.headers)
    if not names:
        return True
    kept = {name: value for name, value in entry.meta if name.startswith(_VARIED)}
    for name in names:
        value = _asked(name, asker, media_type)
        if name == "*" or value is _NEVER_KEPT:
            return False
        if _normal(kept.get(_VARIED + name.encode("latin-1", "replace"))) != value:
            return False
    return True


def _normal(stored: bytes | None) -> str | None:
    """A kept value as `_asked` gives it: whitespace runs as one space (RFC 9111 4.1)."""
    return None if stored is None else " ".join(stored.decode("utf-8", "replace").split())


def usable(
    entry: CachedResponse, asker: Asker, media_type: str, place: Place, now: float
) -> CachedResponse | None:
    """``entry`` as ``asker`` may use it (read from ``place``), or None when it may not.

    An entry of another principal is used only while fresh, and never
    revalidated with its validators.
    """
    if not _varies_alike(entry, asker, media_type):
        return None
    owner = _owner(entry.meta)
    shared = place is Place.SHARED
    mine = owner == asker.principal and asker.principal != UNIDENTIFIED
    if shared and not mine and not _shareable(cache_directives(entry.headers), media_type):
        return None
    if not shared and (not mine or owner is None):
        return None
    found = CachedResponse(entry.status, entry.headers, entry.body, entry.meta, shared, mine)
    if not mine and not found.is_fresh(now):
        return None
    return found
