"""The transport's small parts: how a request uses the cache, what it needs of an
authorizer, the default sender, and the answers it gives (`HTTPResponse`).

Kept apart from `wadlclient.http.transport` so that the pipeline there reads as
its named steps only.
"""

from __future__ import annotations

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
from wadlclient.http.logs import describe
from wadlclient.http.models import HTTPResponse, Request, Response
from wadlclient.http.pool import ConnectionPool
from wadlclient.http.sender import Sender
from wadlclient.http.urls import parse_url
from wadlclient.http.wire import InvalidURL

if TYPE_CHECKING:
    import httpx

__all__ = [
    "Authorizer",
    "CacheUse",
    "check_url",
    "failure",
    "from_cached",
    "make_sender",
    "shorter",
    "wrap",
]


class CacheUse(NamedTuple):
    """How one request uses the cache: which one, under which media type, what it found."""

    cache: Cache | None
    accept: str
    cached: Cached | None
    caller_conditional: bool


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


def make_sender(pool: str, client: httpx.Client | None, max_body: int) -> Sender:
    """The default sender, or one over httpx (imported only then)."""
    if client is not None:
        from wadlclient.http.httpx_sender import ClientSender

        return ClientSender(client)
    if pool == "httpx":
        from wadlclient.http.httpx_sender import HttpxPools

        return HttpxPools()
    return ConnectionPool(max_body=max_body)


def shorter(limit: float | None, left: float) -> float:
    return left if limit is None else min(limit, left)


def check_url(method: str, url: str) -> None:
    if parse_url(url) is None:
        raise InvalidURL(f"{method} {url!r}: the URL must be absolute (http or https)")


def failure(request: Request, error: TransportError) -> TransportError:
    """The sender's error restated with the method and URL, of the same kind."""
    kinds = (TransportTimeout, ConnectError, ConnectionDropped)
    kind = next((k for k in kinds if isinstance(error, k)), TransportError)
    message = f"{request.method} {request.url}: {describe(error)}"
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
