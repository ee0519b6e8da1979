"""Senders over httpx, for ``Transport(pool="httpx")`` and ``Transport(client=httpx.Client)``.

Imported only when one of those is asked for: httpx is not a dependency of
wadlclient. Requests and answers are converted at this border, and httpx's
exceptions become wadlclient's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import httpx

from wadlclient.errors import ConnectError, ConnectionDropped, TransportError, TransportTimeout
from wadlclient.headers import Headers
from wadlclient.http.connection import Verify, tls_context
from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.proxies import environment_proxies, proxy_for
from wadlclient.http.urls import Origin, parse_url
from wadlclient.http.wire import framed_headers

__all__ = ["ClientSender", "HttpxPools"]


@contextmanager
def _translated_errors() -> Iterator[None]:
    """httpx's transport errors as wadlclient's, the httpx one kept as the cause."""
    try:
        yield
    except httpx.TimeoutException as error:
        raise TransportTimeout(_detail(error)) from error
    except httpx.ConnectError as error:
        raise ConnectError(_detail(error)) from error
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as error:
        raise ConnectionDropped(_detail(error)) from error
    except httpx.TransportError as error:
        raise TransportError(_detail(error)) from error


def _detail(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _response(answer: httpx.Response, url: str) -> Response:
    return Response(
        answer.status_code,
        answer.reason_phrase,
        Headers(answer.headers),
        answer.content,
        url,
    )


class HttpxPools:
    """httpx's keep-alive pools (httpcore + h11), one per scheme and proxy, made on first use.

    A plain pool never sees an ``https`` URL, so it loads no certificates; a
    TLS pool is made on the first ``https`` request with the process-wide
    verifying context. Proxies are routed as `ConnectionPool` routes them.
    """

    def __init__(self, proxies: Mapping[str, str] | None = None, *, verify: Verify = True) -> None:
        self._proxies = environment_proxies() if proxies is None else dict(proxies)
        self._verify = verify
        self._routes: dict[Origin, httpx.HTTPTransport] = {}
        self._pools: dict[tuple[bool, str | None], httpx.HTTPTransport] = {}
        self._lock = threading.Lock()

    def _route(self, origin: Origin) -> httpx.HTTPTransport:
        """The pool for an origin (made on first use)."""
        with self._lock:
            pool = self._routes.get(origin)
            if pool is not None:
                return pool
            tls = origin[0] == "https"
            proxy = proxy_for(self._proxies, origin)
            pool = self._pools.get((tls, proxy))
            if pool is None:
                verify = tls_context(self._verify) if tls else False
                pool = httpx.HTTPTransport(verify=verify, proxy=proxy)
                self._pools[tls, proxy] = pool
            self._routes[origin] = pool
            return pool

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        """One exchange through the origin's pool."""
        target = parse_url(request.url)
        if target is None:
            raise ValueError(f"{request.url!r} is not an absolute http(s) URL")
        pool = self._routes.get(target.origin) or self._route(target.origin)
        with _translated_errors():
            outgoing = httpx.Request(
                request.method,
                request.url,
                headers=framed_headers(request, target),
                stream=httpx.ByteStream(request.body or b""),
                extensions={
                    "timeout": {
                        "connect": timeout.connect,
                        "read": timeout.read,
                        "write": timeout.read,
                        "pool": timeout.read,
                    }
                },
            )
            answer = pool.handle_request(outgoing)
            try:
                answer.read()
            finally:
                answer.close()
        return _response(answer, request.url)

    def close(self) -> None:
        with self._lock:
            for pool in self._pools.values():
                pool.close()


class ClientSender:
    """A caller's ``httpx.Client``, with its own settings; `close` leaves it open."""

    def __init__(self, client: httpx.Client) -> None:
        self._client = client

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        """One exchange through the client (its redirects off; its timeout, not ours)."""
        with _translated_errors():
            answer = self._client.request(
                request.method,
                request.url,
                content=request.body,
                headers=request.headers.pairs(),
                follow_redirects=False,
            )
        return _response(answer, request.url)

    def close(self) -> None:
        """The client belongs to the caller."""
