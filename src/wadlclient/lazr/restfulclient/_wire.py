"""How the compatibility root's requests reach the network.

`LazrTransport` is wadlclient's transport raising lazr's errors.
`HttpFactorySender` is a `wadlclient.http.Sender` that sends each
exchange through the object a service root's ``httpFactory`` made, so
that its ``_request`` override (token renewal, say) takes part in every
request.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from wadlclient import errors as _engine
from wadlclient.headers import Headers
from wadlclient.http import (
    HTTPResponse,
    Request,
    Response,
    Sender,
    StreamedResponse,
    Timeout,
    Transport,
)
from wadlclient.http.principals import declared_principal
from wadlclient.lazr.restfulclient._browser import (
    PoolConnection,
    Renewals,
    restful_http_class,
)
from wadlclient.lazr.restfulclient.errors import ResponseError, from_engine

__all__ = ["HttpFactorySender", "LazrTransport", "UserAgentOnly"]

# Headers httplib2 writes itself.
_HOP_HEADERS = frozenset({"host", "content-length", "connection"})
# Entries of an httplib2 response that are not headers of the (decoded) body.
_DECODED_HEADERS = frozenset({"status", "content-encoding", "content-length", "transfer-encoding"})


class LazrTransport(Transport):
    """wadlclient's transport; an error answer raises lazr's error class."""

    def request(self, method: str, url: str, **options: Any) -> HTTPResponse:
        try:
            return super().request(method, url, **options)
        except _engine.HTTPError as error:
            raise _lazr_error(error) from None

    def stream(self, method: str, url: str, **options: Any) -> StreamedResponse:
        try:
            return super().stream(method, url, **options)
        except _engine.HTTPError as error:
            raise _lazr_error(error) from None


def _lazr_error(error: _engine.HTTPError) -> Exception:
    """lazr's error class for an error answer (the error itself when it already is one)."""
    return error if isinstance(error, ResponseError) else from_engine(error)


class UserAgentOnly:
    """Gives the transport the credentials' User-Agent details; the HTTP object signs."""

    def __init__(self, credentials: Any) -> None:
        self._credentials = credentials

    @property
    def user_agent_params(self) -> Mapping[str, str]:
        params = getattr(self._credentials, "user_agent_params", None)
        return params if params is not None else {}

    @property
    def principal(self) -> str | None:
        """The credentials' principal, for the cache (see `wadlclient.cache.sharing`)."""
        if self._credentials is None:
            return None
        return declared_principal(self._credentials)

    def credential_secrets(self) -> tuple[str, ...]:
        """The credentials' secrets: the transport hides them wherever a server quotes them."""
        named = getattr(self._credentials, "credential_secrets", None)
        return tuple(named()) if callable(named) else ()

    def authorizeRequest(self, absolute_uri: str, method: str, body: Any, headers: Any) -> None:
        """Nothing: the ``httpFactory`` object signs each request it sends."""


class HttpFactorySender:
    """One exchange through the ``httpFactory`` object; redirects are left to the transport.

    When the object is a `RestfulHttp` whose ``request`` is httplib2's
    (launchpadlib's classes override only ``_request``), its ``_request``
    is called with a `PoolConnection`: the overrides run and wadlclient's
    pool sends, several at once (prefetch, the look-ahead), a token renewal
    alone (`Renewals`). Any other object is driven through its public
    ``request(..., redirections=0)``, one exchange at a time: httplib2's
    objects are not thread-safe.
    """

    def __init__(self, connection: Any, *, pool: Sender | None = None) -> None:
        self.connection = connection
        self._pool = pool if pool is not None and _drives_request(connection) else None
        self._lock = threading.Lock()
        self._renewals = Renewals()

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        # Lower-cased, as httplib2.Http.request hands them to _request.
        headers = {
            name.lower(): value
            for name, value in request.headers.items()
            if name.lower() not in _HOP_HEADERS
        }
        if self._pool is not None:
            answer, content = self._through_request_hook(request, headers, timeout)
        else:
            answer, content = self._exchange(request, headers)
        return Response(
            status=int(answer.status),
            reason=str(getattr(answer, "reason", "") or ""),
            headers=Headers(_headers_of(answer)),
            content=content if isinstance(content, bytes) else str(content or "").encode(),
            url=request.url,
        )

    def _through_request_hook(
        self, request: Request, headers: dict[str, str], timeout: Timeout
    ) -> tuple[Any, Any]:
        """(response, content) from the object's ``_request``, sent by wadlclient's pool."""
        assert self._pool is not None
        split = urlsplit(request.url)
        target = split.path + (f"?{split.query}" if split.query else "")
        authorizer = getattr(self.connection, "authorizer", None)
        sign = authorizer.authorizeRequest if authorizer is not None else None
        connection = PoolConnection(self._pool, timeout, self._renewals, sign)
        try:
            return self.connection._request(  # type: ignore[no-any-return]
                connection, split.netloc, request.url, target,
                request.method, request.body, headers, 0, request.url,
            )  # fmt: skip
        finally:
            connection.close()

    def _exchange(self, request: Request, headers: dict[str, str]) -> tuple[Any, Any]:
        """(response, content) from the object; a redirect limit is an answer, not an error."""
        import httplib2

        try:
            with self._lock:
                return self.connection.request(  # type: ignore[no-any-return]
                    request.url,
                    method=request.method,
                    body=request.body,
                    headers=headers,
                    redirections=0,
                )
        except httplib2.RedirectLimit as limit:
            return limit.response, limit.content
        except (httplib2.HttpLib2Error, http.client.HTTPException, OSError) as error:
            message = f"{request.method} {request.url}: {error or type(error).__name__}"
            raise _engine.ConnectError(message, url=request.url, method=request.method) from error

    def close(self) -> None:
        """Close the pool; the ``httpFactory`` object is left as it is."""
        if self._pool is not None:
            self._pool.close()


def _drives_request(connection: Any) -> bool:
    """Whether ``connection`` is a RestfulHttp whose public ``request`` is httplib2's own."""
    http_class = restful_http_class()
    return isinstance(connection, http_class) and type(connection).request is http_class.request


def _headers_of(response: Any) -> list[tuple[str, str]]:
    """An httplib2 response's real headers (not its ``status`` or decoded-body entries)."""
    items = getattr(response, "items", None)
    if items is None:
        return []
    return [
        (str(name), str(value))
        for name, value in items()
        if not str(name).startswith("-") and str(name).lower() not in _DECODED_HEADERS
    ]
