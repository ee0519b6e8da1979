"""The transport's small parts: how a request uses the cache, what it needs of an
authorizer, the default sender, and the answers it gives (`HTTPResponse`).

Kept apart from `wadlclient.http.transport` and `wadlclient.http.pipeline` so
that those read as their named steps only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, MutableMapping
from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple, Protocol

from wadlclient.errors import (
    ConnectError,
    ConnectionDropped,
    TransportError,
    TransportTimeout,
)
from wadlclient.headers import Headers
from wadlclient.http.cache_policy import Cache, Cached
from wadlclient.http.connection import Verify
from wadlclient.http.logs import describe
from wadlclient.http.models import HTTPResponse, Request, Response, Timeout
from wadlclient.http.pool import ConnectionPool
from wadlclient.http.sender import Sender
from wadlclient.http.urls import Origin, parse_url
from wadlclient.http.wire import ACCEPT_ENCODING, InvalidURL
from wadlclient.redact import shown_url

if TYPE_CHECKING:
    import httpx

__all__ = [
    "POOL_KINDS",
    "Authorizer",
    "CacheUse",
    "check_limits",
    "check_url",
    "failure",
    "fixed_headers",
    "from_cached",
    "is_at",
    "make_sender",
    "origin_of",
    "shorter",
    "timeout_left",
    "wrap",
]


class CacheUse(NamedTuple):
    """How one request uses the cache: which one, under which media type, what it found."""

    cache: Cache | None
    accept: str
    cached: Cached | None
    caller_conditional: bool
    #: When the call began (``time.monotonic()``), for its log line.
    began: float
    #: Whose request it is, for the cache (`cache_policy.principal_of`).
    principal: str | None = None


class Authorizer(Protocol):
    """What the transport needs of an authorizer (see auth.HttpAuthorizer)."""

    def authorizeRequest(
        self,
        absolute_uri: str,
        method: str,
        body: bytes | str | None,
        headers: MutableMapping[str, str],
    ) -> None: ...

    @property
    def user_agent_params(self) -> Mapping[str, str]: ...


def make_sender(
    pool: str, client: httpx.Client | None, max_body: int, verify: Verify = True
) -> Sender:
    """The default sender, or one over httpx (imported only then)."""
    if client is not None:
        from wadlclient.http.httpx_sender import ClientSender

        return ClientSender(client)
    if pool == "httpx":
        from wadlclient.http.httpx_sender import HttpxPools

        return HttpxPools(verify=verify)
    return ConnectionPool(max_body=max_body, verify=verify)


def shorter(limit: float | None, left: float) -> float:
    return left if limit is None else min(limit, left)


def check_url(method: str, url: str) -> None:
    if parse_url(url) is None:
        raise InvalidURL(f"{method} {url!r}: the URL must be absolute (http or https)")


def failure(request: Request, error: TransportError, note: str = "") -> TransportError:
    """The sender's error restated with the method and URL (and ``note``), of the same kind."""
    kinds = (TransportTimeout, ConnectError, ConnectionDropped)
    kind = next((k for k in kinds if isinstance(error, k)), TransportError)
    message = f"{request.method} {shown_url(request.url)}: {describe(error)}"
    if note:
        message += f"; {note}"
    return kind(message, url=request.url, method=request.method)


def wrap(response: Response, *, not_modified: bool = False) -> HTTPResponse:
    return HTTPResponse(
        status=response.status,
        reason=response.reason,
        headers=response.headers,
        content=response.content,
        url=response.url,
        not_modified=not_modified,
    )


def from_cached(cached: Cached, url: str) -> HTTPResponse:
    """A cached representation, presented as the 200 the client would have had."""
    status = 200 if cached.status == 209 else cached.status
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    return HTTPResponse(
        status=status,
        reason=reason,
        headers=Headers(cached.headers),
        content=cached.body,
        url=url,
        from_cache=True,
    )


#: ``Transport(pool=...)``: http.client underneath (default), or httpx's own (httpcore + h11).
POOL_KINDS = ("stdlib", "httpx")


def check_limits(
    max_retries: int, max_redirects: int, deadline: float | None, max_body: int, pool: str
) -> None:
    """Refuse a transport's limits that make no sense, before anything is built."""
    if max_retries < 0:
        raise ValueError("max_retries must be zero or more")
    if max_redirects < 0:
        raise ValueError("max_redirects must be zero or more")
    if deadline is not None and deadline <= 0:
        raise ValueError("deadline must be positive (or None)")
    if max_body < 0:
        raise ValueError("max_body must be zero or more")
    if pool not in POOL_KINDS:
        raise ValueError(f"pool must be 'stdlib' or 'httpx', not {pool!r}")


def origin_of(auth_origin: str | None) -> Origin | None:
    """The one origin credentials go to (None: each call's first URL's)."""
    if auth_origin is None:
        return None
    target = parse_url(auth_origin)
    if target is None:
        raise ValueError(f"auth_origin must be an absolute http(s) URL, not {auth_origin!r}")
    return target.origin


def fixed_headers(user_agent: str) -> Headers:
    """The headers every request of a transport starts from."""
    pairs = [("User-Agent", user_agent), ("Accept-Encoding", ACCEPT_ENCODING)]
    return Headers([*pairs, ("Connection", "keep-alive")])


def timeout_left(
    timeout: Timeout, deadline: float | None, end: float | None, request: Request
) -> Timeout:
    """The timeout of one exchange, shortened to what is left of the call's deadline (``end``)."""
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise TransportTimeout(
            f"no answer within the {deadline:g} s deadline of the call",
            url=request.url,
            method=request.method,
        )
    return Timeout(shorter(timeout.connect, left), shorter(timeout.read, left))


def is_at(url: str, origin: Origin | None) -> bool:
    """Whether ``url`` is on ``origin`` (scheme, host and port), where credentials may go."""
    target = parse_url(url)
    return target is not None and target.origin == origin
