"""What the transport asks of the cache, and what it does with the answer.

Only a GET answered 200/203 at the requested URL (no redirect), with a
validator (ETag, Last-Modified) or a lifetime (max-age, Expires), is
stored: a response with neither could never be served again. A PATCH
answered 200/209 with JSON stores that representation; any other
successful unsafe request invalidates the URL's cached entries.

Every cache call names who asks: the authorizer's ``principal`` (a
fingerprint of its credentials; None: anonymous), or one derived from
the credentials it sends when it does not declare one
(`wadlclient.http.principals`), and the request's headers for ``Vary``;
the cache keeps an authorized answer for that principal only, unless the
answer says it may be shared (`wadlclient.cache.sharing`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Protocol

from wadlclient.headers import Headers
from wadlclient.http import principals
from wadlclient.http.models import Request, Response
from wadlclient.http.retry import SAFE_METHODS

__all__ = [
    "Cache",
    "CacheOutcome",
    "Cached",
    "lookup",
    "principal_of",
    "reusable",
    "settle",
    "update",
]

_CACHEABLE_STATUSES = frozenset({200, 203})
_STORED_AFTER_WRITE = frozenset({200, 209})


class CacheOutcome(enum.Enum):
    """What the cache did for one exchange (the ``cache:`` part of its log line)."""

    FRESH = "fresh"  # served from the cache without asking
    REVALIDATED = "revalidated"  # a 304 confirmed the stored copy
    STORED = "stored"  # the answer was stored
    REPLACED = "replaced"  # the answer replaced a stored copy
    MISS = "miss"  # nothing usable stored, and nothing stored now
    INVALIDATED = "invalidated"  # an unsafe method made stored copies stale
    BYPASS = "bypass"  # the cache was not consulted for this request
    NONE = "none"  # there is no cache (or the answer was an error)
    UNEXPECTED = "unexpected"  # a 304 nobody asked for


class Cached(Protocol):
    """What the transport needs of a cached response (see cache.CachedResponse)."""

    @property
    def status(self) -> int: ...

    @property
    def headers(self) -> Headers: ...

    @property
    def body(self) -> bytes: ...

    def is_fresh(self, now: float) -> bool: ...

    def validators(self) -> dict[str, str]: ...


class Cache(Protocol):
    """What the transport needs of the cache (see cache.HTTPCache)."""

    @property
    def clock(self) -> Callable[[], float]: ...

    def get(
        self, url: str, media_type: str, *, principal: str | None = ..., headers: Headers = ...
    ) -> Cached | None: ...

    def put(
        self,
        url: str,
        media_type: str,
        response: Response,
        body: bytes,
        *,
        principal: str | None = ...,
        headers: Headers = ...,
    ) -> None: ...

    def refresh(
        self,
        url: str,
        media_type: str,
        not_modified: Response,
        stored: object = None,
        *,
        principal: str | None = ...,
        headers: Headers = ...,
    ) -> Cached | None: ...

    def delete(
        self, url: str, media_type: str | None = None, *, principal: str | None = ...
    ) -> None: ...

    def settle(self, url: str, media_type: str) -> None: ...


def principal_of(authorizer: object, request: Request) -> str | None:
    """Whose ``request`` this is: the principal ``authorizer`` declares, else what it sends.

    None: anonymous, no credential sent (`wadlclient.http.principals`).
    """
    return principals.principal_of(
        authorizer, request.url, request.method, request.body, request.headers
    )


def lookup(
    cache: Cache | None, request: Request, accept: str, principal: str | None
) -> Cached | None:
    """The stored copy a GET may use or revalidate, or None."""
    if cache is None or request.method != "GET":
        return None
    return cache.get(request.url, accept, principal=principal, headers=request.headers)


def settle(cache: Cache | None, url: str, accept: str) -> None:
    """Tell the cache an exchange it looked up is over (it may hold a claim on the URL)."""
    if cache is not None:
        cache.settle(url, accept)


def reusable(headers: Headers) -> bool:
    """Whether a cache could ever serve this response: it has a validator or a lifetime.

    Without ``ETag``, ``Last-Modified``, ``max-age`` or ``Expires`` a stored
    copy could neither be served fresh nor revalidated, so writing it is
    pure cost (a lazr.restful collection page is such a response).
    """
    if "etag" in headers or "last-modified" in headers or "expires" in headers:
        return True
    return any("max-age" in value.lower() for value in headers.get_list("cache-control"))


def update(
    cache: Cache,
    request: Request,
    accept: str,
    response: Response,
    had_entry: bool,
    principal: str | None,
) -> CacheOutcome:
    """Store or invalidate after a successful exchange; say what was done."""
    method, url, status = request.method, request.url, response.status
    same_url = response.url == url
    if method == "GET":
        if status in _CACHEABLE_STATUSES and same_url:
            if reusable(response.headers):
                cache.put(
                    url, accept, response, response.content,
                    principal=principal, headers=request.headers,
                )  # fmt: skip
                return CacheOutcome.REPLACED if had_entry else CacheOutcome.STORED
            if had_entry:
                cache.delete(url, accept, principal=principal)
        return CacheOutcome.MISS
    if method in SAFE_METHODS:
        return CacheOutcome.BYPASS
    # An unsafe method succeeded (2xx, or a 3xx such as a PATCH answered 301
    # after a rename): what we hold for the URL is out of date, unless the
    # answer is the new representation itself (209 after PATCH).
    media_type = response.headers.get("content-type", "").split(";")[0].strip()
    if (
        method == "PATCH"
        and status in _STORED_AFTER_WRITE
        and same_url
        and media_type == "application/json"
    ):
        cache.put(
            url, "application/json", response, response.content,
            principal=principal, headers=request.headers,
        )  # fmt: skip
        return CacheOutcome.REPLACED if had_entry else CacheOutcome.STORED
    cache.delete(url, principal=principal)
    return CacheOutcome.INVALIDATED
