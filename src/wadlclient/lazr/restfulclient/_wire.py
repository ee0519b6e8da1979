"""How the compatibility root's requests reach the network.

`LazrTransport` is wadlclient's transport raising lazr's errors.
`HttpFactorySender` sends one exchange through the object a service
root's ``httpFactory`` made, so that its ``_request`` override (token
refresh, say) takes part in every request.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Mapping
from typing import Any

import httpx

from wadlclient import errors as _engine
from wadlclient.http import HTTPResponse, Transport
from wadlclient.lazr.restfulclient.errors import ResponseError, from_engine

__all__ = ["HttpFactorySender", "LazrTransport", "UserAgentOnly"]

# Headers httplib2 writes itself, or that describe a body it already decoded.
_HOP_HEADERS = frozenset({"host", "content-length", "connection"})
_DECODED_HEADERS = frozenset({"status", "content-encoding", "content-length", "transfer-encoding"})


class LazrTransport(Transport):
    """wadlclient's transport; an error answer raises lazr's error class."""

    def request(self, method: str, url: str, **options: Any) -> HTTPResponse:
        try:
            return super().request(method, url, **options)
        except _engine.HTTPError as error:
            if isinstance(error, ResponseError):
                raise
            raise from_engine(error) from None


class UserAgentOnly:
    """Gives the transport the credentials' User-Agent details; the HTTP object signs."""

    def __init__(self, credentials: Any) -> None:
        self._credentials = credentials

    @property
    def user_agent_params(self) -> Mapping[str, str]:
        params = getattr(self._credentials, "user_agent_params", None)
        return params if params is not None else {}

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: Any, headers: Any
    ) -> None:
        """Nothing: the ``httpFactory`` object signs each request it sends."""


class HttpFactorySender(httpx.BaseTransport):
    """One exchange through an httplib2-style ``request()``; redirects are left to the transport.

    httplib2.Http is not thread-safe, so exchanges are serialised.
    """

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read() or None
        headers = {
            name: value for name, value in request.headers.items() if name not in _HOP_HEADERS
        }
        status, reason, answer_headers, content = self._exchange(
            str(request.url), request.method, body, headers
        )
        response = httpx.Response(status, headers=answer_headers, content=content, request=request)
        response.extensions["reason_phrase"] = reason.encode("latin-1", "replace")
        return response

    def _exchange(
        self, url: str, method: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        import httplib2

        try:
            with self._lock:
                response, content = self.connection.request(
                    url, method=method, body=body, headers=headers, redirections=0
                )
        except httplib2.RedirectLimit as limit:
            response, content = limit.response, limit.content
        except (httplib2.HttpLib2Error, http.client.HTTPException, OSError) as error:
            raise httpx.ConnectError(str(error) or type(error).__name__) from error
        return _status_of(response), _reason_of(response), _headers_of(response), _bytes(content)


def _status_of(response: Any) -> int:
    return int(response.status)


def _reason_of(response: Any) -> str:
    return str(getattr(response, "reason", "") or "")


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


def _bytes(content: Any) -> bytes:
    if isinstance(content, bytes):
        return content
    return str(content or "").encode("utf-8")
