"""The transport: one keep-alive HTTP connection pool per service root.

`Transport.request` sends one logical request and returns an `HTTPResponse`.
On the way it authorizes every request actually sent (first try, each
retry, each redirect hop), retries 502/503 with backoff, follows redirects
itself (so that it controls authorization across origins), consults and
feeds the HTTP cache, maps error statuses to `wadlclient.errors`, and logs
one line per exchange on the ``wadlclient.http`` logger.

The transport knows nothing of WADL or entries; it asks the cache and the
authorizer, and nothing below it asks back.

Choices made here (documented because lazr/httplib2 differ or are silent):

- Timeout: ``timeout=None`` means 60 s to read and 10 s to connect rather
  than waiting forever; a number applies to every phase.
- 502/503 are retried for every method (as lazr does: the server did not act
  on the request), sleeping 0, 1, 2, 4, ... seconds (capped at 30 s), or the
  server's ``Retry-After`` (seconds or HTTP-date, capped at 30 s) when given.
- A connection dropped before an answer arrived is retried once, at once,
  for the safe methods GET, HEAD and OPTIONS only; never for POST, PATCH,
  PUT or DELETE. Refused connections and timeouts are not retried. The
  default pool (`_StdlibPools`) handles the stale keep-alive race itself
  (see there); when it has resent a request, that was the one retry.
- Cookies are neither stored nor sent: lazr.restful services do not use
  them, and a cookie jar would be shared mutable state across threads.
- Requests go to a transport below `httpx.Client` (whose redirects, auth
  and cookies this module replaces): by default `_StdlibPools`, keep-alive
  pools on the standard library's `http.client`; with ``pool="httpx"``
  httpx's own (`_Pools`, httpcore + h11). Both take an `httpx.Request` and
  give an `httpx.Response`, so nothing above them differs. What the client
  would add is added here: ``Accept-Encoding: gzip, deflate`` (answers are decoded),
  ``Connection: keep-alive``, ``Host``, the timeouts, and proxies from the
  environment (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``, ``NO_PROXY``,
  read when the transport is made, with `urllib.request`'s rules).
- Too many redirects raise `wadlclient.errors.TransportError`.
- Logging: DEBUG for each exchange (``GET <url> -> 200 (cache: stored)``;
  cache is fresh, revalidated, stored, replaced, miss, invalidated, bypass
  or none) and each redirect; INFO for each retry. Header values and bodies
  are never logged.
- Caching: only a GET answered 200/203 at the requested URL (no redirect),
  with a validator (ETag, Last-Modified) or a lifetime (max-age, Expires),
  is stored (a response with neither could never be served again); a PATCH
  answered 200/209 with JSON stores that representation; any other
  successful unsafe request invalidates the URL's cached entries.
"""

from __future__ import annotations

import base64
import email.utils
import http.client
import json
import logging
import re
import select
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import httpx

from wadlclient._version import __version__
from wadlclient.errors import (
    ResponseError,
    TransportError,
    UnexpectedResponseError,
    error_for,
)

__all__ = ["DEFAULT_TIMEOUT", "HTTPResponse", "Transport"]

logger = logging.getLogger("wadlclient.http")

#: Used when the caller passes ``timeout=None``.
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)

_RETRY_STATUSES = frozenset({502, 503})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_CACHEABLE_STATUSES = frozenset({200, 203})
_STORED_AFTER_WRITE = frozenset({200, 209})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_CONDITIONAL_HEADERS = ("if-none-match", "if-modified-since")
_BODY_HEADERS = ("content-type", "content-length", "transfer-encoding")
#: What httpx.Client would ask for: the decoders every httpx install has.
_ACCEPT_ENCODING = "gzip, deflate"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: Parsed URLs remembered per transport (httpx.URL is immutable).
_PARSED_URLS_KEPT = 256
#: ``Transport(pool=...)``: http.client underneath (default), or httpx's own (httpcore + h11).
_POOL_KINDS = ("stdlib", "httpx")


class _Authorizer(Protocol):
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


class _Cached(Protocol):
    """What the transport needs of a cached response (see cache.CachedResponse)."""

    @property
    def status(self) -> int: ...

    @property
    def headers(self) -> httpx.Headers: ...

    @property
    def body(self) -> bytes: ...

    def is_fresh(self, now: float) -> bool: ...

    def validators(self) -> dict[str, str]: ...


class _Cache(Protocol):
    """What the transport needs of the cache (see cache.HTTPCache)."""

    @property
    def clock(self) -> Callable[[], float]: ...

    def get(self, url: str, media_type: str) -> _Cached | None: ...

    def put(self, url: str, media_type: str, response: httpx.Response, body: bytes) -> None: ...

    def refresh(
        self, url: str, media_type: str, not_modified: httpx.Response
    ) -> _Cached | None: ...

    def delete(self, url: str, media_type: str | None = None) -> None: ...


@dataclass(frozen=True, slots=True, repr=False)
class HTTPResponse:
    """An answer, complete and immutable: safe to share between threads.

    ``url`` is the final URL after any redirects. ``from_cache`` is true
    when the body came from the cache (fresh, or revalidated by a 304);
    ``not_modified`` when the caller's own conditional request got a 304.
    """

    status: int
    reason: str
    headers: httpx.Headers
    content: bytes
    url: str
    from_cache: bool = False
    not_modified: bool = False

    def json(self) -> Any:
        """The body parsed as JSON; `ResponseError` says where it is malformed."""
        try:
            return json.loads(self.content)
        except json.JSONDecodeError as exc:
            raise ResponseError(
                f"malformed JSON in the response from {self.url}: {exc.msg} "
                f"at line {exc.lineno} column {exc.colno} (char {exc.pos})"
            ) from exc
        except UnicodeDecodeError as exc:
            raise ResponseError(
                f"the response from {self.url} is not UTF-8 text (bad byte at position {exc.start})"
            ) from exc

    def __repr__(self) -> str:
        # Headers and body stay out: a repr ends up in logs and tracebacks.
        flags = ", from_cache" if self.from_cache else ""
        flags += ", not_modified" if self.not_modified else ""
        return f"<HTTPResponse {self.status} {self.reason} {self.url}{flags}>"


def _check_header_text(what: str, text: str) -> None:
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        raise ValueError(f"{what} must not contain control characters (such as a newline)")


def _user_agent_param(key: str, value: str) -> str:
    """One ``; key="value"`` item, RFC 2231-encoded when the value is not ASCII."""
    _check_header_text("a User-Agent parameter name", key)
    _check_header_text("a User-Agent parameter value", value)
    if not key or not key.isascii() or any(ch in key for ch in ' ;="\\'):
        raise ValueError(f"invalid User-Agent parameter name {key!r}")
    if value.isascii():
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'; {key}="{escaped}"'
    return f"; {key}*=utf-8''{urllib.parse.quote(value, safe='')}"


def build_user_agent(base_client_name: str, params: Mapping[str, str]) -> str:
    """``wadlclient/<version>``, then the application's name, then sorted params.

    lazr.restfulclient puts the application's name first and itself in a
    comment; the specification wants the client's product token first, so
    the application's token follows it.
    """
    _check_header_text("base_client_name", base_client_name)
    if not base_client_name.isascii():
        raise ValueError("base_client_name must be ASCII (it goes into the User-Agent header)")
    agent = f"wadlclient/{__version__}"
    if base_client_name.strip():
        agent += " " + base_client_name.strip()
    for key in sorted(params):
        agent += _user_agent_param(key, params[key])
    return agent


def _retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait as the server asked (delta-seconds or HTTP-date), or None."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now)


def _reusable(headers: httpx.Headers) -> bool:
    """Whether a cache could ever serve this response: it has a validator or a lifetime.

    Without ``ETag``, ``Last-Modified``, ``max-age`` or ``Expires`` a stored
    copy could neither be served fresh nor revalidated, so writing it is
    pure cost (a lazr.restful collection page is such a response).
    """
    if "etag" in headers or "last-modified" in headers or "expires" in headers:
        return True
    return any("max-age" in value.lower() for value in headers.get_list("cache-control"))


def _describe(exc: httpx.TransportError) -> str:
    if isinstance(exc, httpx.TimeoutException):
        kind = "timed out"
    elif isinstance(exc, httpx.ConnectError):
        kind = "could not connect"
    elif isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
        kind = "connection dropped"
    else:
        kind = "transport failure"
    detail = str(exc) or type(exc).__name__
    return f"{kind} ({type(exc).__name__}: {detail})"


_tls_context_lock = threading.Lock()
_tls_context: ssl.SSLContext | None = None


def _shared_tls_context() -> ssl.SSLContext:
    """One verifying TLS context per process: loading the CA bundle costs ~40 ms."""
    global _tls_context
    with _tls_context_lock:
        if _tls_context is None:
            _tls_context = httpx.create_ssl_context()
        return _tls_context


_Origin = tuple[str, str, int]


def _origin_of(url: httpx.URL) -> _Origin:
    """Scheme, host and port (default port filled in): what a redirect may not leave."""
    port = url.port
    return url.scheme, url.host, port if port is not None else _DEFAULT_PORTS[url.scheme]


def _environment_proxies() -> dict[str, str]:
    """Proxies as `urllib.request.getproxies` reads them (``HTTP_PROXY``, ``ALL_PROXY``, ...)."""
    return {
        scheme: url if "://" in url else f"http://{url}"
        for scheme, url in urllib.request.getproxies().items()
        if scheme in ("http", "https", "all") and url
    }


def _proxy_for(proxies: Mapping[str, str], origin: _Origin) -> str | None:
    """The proxy URL for an origin, or None when ``NO_PROXY`` (or nothing) says direct."""
    scheme, host, port = origin
    proxy = proxies.get(scheme) or proxies.get("all")
    if proxy is None or urllib.request.proxy_bypass(f"{host}:{port}"):
        return None
    return proxy


class _Pools(httpx.BaseTransport):
    """httpx's keep-alive pools (httpcore + h11), one per scheme and proxy, made on first use.

    The alternative to `_StdlibPools` (``Transport(pool="httpx")``), and what
    `_StdlibPools` hands a proxy it cannot speak to (``https://`` or SOCKS).

    httpx builds (and loads CA certificates into) a TLS context for every
    client, which dominates the start-up of a client talking plain HTTP.
    Here a plain pool never sees an ``https`` URL, so it needs no
    certificates; a TLS pool is created on the first ``https`` request with
    the process-wide verifying context. Making the plain pool on first use
    too spares a start served from the cache the import of httpcore (~25 ms).

    Proxies come from the environment when the pools are made, as
    `urllib.request.getproxies` reads them (``HTTP_PROXY``, ``HTTPS_PROXY``,
    ``ALL_PROXY``, any case); `urllib.request.proxy_bypass` applies
    ``NO_PROXY``. The choice is made once per origin and remembered, so a
    request costs one dictionary look-up to route.
    """

    def __init__(self, proxies: Mapping[str, str] | None = None) -> None:
        self._proxies = _environment_proxies() if proxies is None else dict(proxies)
        self._routes: dict[_Origin, httpx.HTTPTransport] = {}
        self._pools: dict[tuple[bool, str | None], httpx.HTTPTransport] = {}
        self._lock = threading.Lock()

    def _route(self, origin: _Origin) -> httpx.HTTPTransport:
        """The pool for an origin (made on first use)."""
        with self._lock:
            pool = self._routes.get(origin)
            if pool is not None:
                return pool
            tls = origin[0] == "https"
            proxy = _proxy_for(self._proxies, origin)
            pool = self._pools.get((tls, proxy))
            if pool is None:
                # A plain pool is never used for TLS: only http:// requests reach it.
                verify: ssl.SSLContext | bool = _shared_tls_context() if tls else False
                pool = httpx.HTTPTransport(verify=verify, proxy=proxy)
                self._pools[tls, proxy] = pool
            self._routes[origin] = pool
            return pool

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        origin = _origin_of(request.url)
        pool = self._routes.get(origin) or self._route(origin)
        return pool.handle_request(request)

    def close(self) -> None:
        with self._lock:
            for pool in self._pools.values():
                pool.close()


#: Idle keep-alive connections kept per origin; more are closed when handed back.
_MAX_IDLE_PER_ORIGIN = 10
#: Methods a stale keep-alive connection may be retried for (urllib3's rule).
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})
_Connection = http.client.HTTPConnection


@dataclass(frozen=True, slots=True, eq=False)
class _Route:
    """How to reach one origin: where the socket goes and what the request line says.

    Made once per origin and compared by identity: it keys that origin's idle stack.
    """

    tls: bool
    host: str  # the origin, or the proxy
    port: int
    absolute_form: bool  # plain HTTP through a proxy: the request line carries the URL
    tunnel: tuple[str, int] | None  # HTTPS through a proxy: CONNECT to this
    proxy_headers: dict[str, str]


class _Stale(Exception):
    """A reused connection failed before any byte of an answer: the keep-alive race."""

    def __init__(self, error: httpx.TransportError) -> None:
        super().__init__(str(error))
        self.error = error


def _mark_retried(error: httpx.TransportError) -> httpx.TransportError:
    """Mark an error the pool already retried, so that `Transport` does not retry it again."""
    error.wadlclient_retried = True  # type: ignore[attr-defined]
    return error


def _make_route(origin: _Origin, proxy: str | None) -> _Route:
    scheme, host, port = origin
    tls = scheme == "https"
    if proxy is None:
        return _Route(tls, host, port, False, None, {})
    parsed = urllib.parse.urlsplit(proxy)
    headers: dict[str, str] = {}
    if parsed.username is not None:
        user = urllib.parse.unquote(parsed.username)
        password = urllib.parse.unquote(parsed.password or "")
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        headers["Proxy-Authorization"] = f"Basic {token}"
    proxy_host, proxy_port = parsed.hostname or "", parsed.port or 80
    if tls:
        return _Route(True, proxy_host, proxy_port, False, (host, port), headers)
    return _Route(False, proxy_host, proxy_port, True, None, headers)


#: A request body shorter than this goes out in one write with the head.
_JOIN_BODY_BELOW = 65536
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_UNSAFE_IN_VALUE = re.compile(rb"[\r\n\x00]")


def _request_head(
    method: str, target: bytes, headers: list[tuple[bytes, bytes]], route: _Route
) -> bytes:
    """The request line and header block, refusing anything that could split it.

    http.client's ``putheader`` checks each header with two regular
    expressions; checking all names, then all values, at once costs a
    fraction of that and refuses the same injections (CR, LF, NUL; a name
    that is not a token).
    """
    pairs = list(headers)
    if route.absolute_form:
        pairs += [
            (name.encode("ascii"), value.encode("latin-1"))
            for name, value in route.proxy_headers.items()
        ]
    lines = [method.encode("ascii") + b" " + target + b" HTTP/1.1"]
    lines += [name + b": " + value for name, value in pairs]
    if not all(_TOKEN.fullmatch(name) for name, _ in pairs) or not _TOKEN.fullmatch(
        lines[0].partition(b" ")[0]
    ):
        raise httpx.LocalProtocolError("invalid header name or method")
    if _UNSAFE_IN_VALUE.search(b"".join(lines)) or b" " in target:
        raise httpx.LocalProtocolError("a header value or the URL contains CR, LF or NUL")
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _is_dropped(connection: _Connection) -> bool:
    """Whether an idle connection was closed by its server (readable means EOF or junk)."""
    sock = connection.sock
    if sock is None:
        return True
    try:
        if hasattr(select, "poll"):  # select() refuses descriptors above FD_SETSIZE
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class _StdlibPools(httpx.BaseTransport):
    """Keep-alive connection pools on the standard library's `http.client`: the default.

    httpx stays the model (`httpx.Request` in, `httpx.Response` out, httpx's
    exception classes), so nothing above notices which pool sends; but
    `http.client` costs about half of httpcore + h11 per request, and it is
    imported already (by `urllib.request`) where httpcore + h11 cost ~30 ms
    at the first request. `http.client.HTTPConnection` opens connections
    (TLS, CONNECT tunnels) and `http.client.HTTPResponse` reads answers; the
    request head is written here from the `httpx.Request`'s headers exactly
    (`_request_head`: one ``sendall``, no second ``Host`` or
    ``Accept-Encoding``, CR/LF/NUL and non-token names refused).

    - One LIFO stack of idle connections per origin (scheme, host, port,
      proxy), at most ``max_idle`` deep; the lock guards the stacks only,
      never network I/O. A connection serves one exchange at a time and goes
      back only when its answer was read whole and the server keeps it open
      (no ``Connection: close``; HTTP/1.0 only with keep-alive). There is no
      limit on connections in use (httpx's ``pool`` timeout is not needed).
    - An idle connection whose server has closed it is noticed before use
      (its socket is readable) and discarded. When a reused connection
      fails anyway before the first byte of an answer (the server closed it
      while the request was on its way), the request is sent once more on a
      new connection, for idempotent methods only. That retry counts as the
      `Transport`'s own single retry of a dropped safe request: an error
      after it is marked, and the transport does not retry it again.
    - Timeouts (``request.extensions["timeout"]``): ``connect`` for opening
      (and the TLS handshake, and a proxy's CONNECT), ``write`` while
      sending, ``read`` while waiting for and reading the answer.
    - Proxies as for `_Pools`; plain HTTP through an ``http://`` proxy sends
      the absolute URL to it, HTTPS tunnels with CONNECT. Any other proxy
      (``https://``, SOCKS) is handed to httpx's pool.
    """

    def __init__(self, max_idle: int = _MAX_IDLE_PER_ORIGIN) -> None:
        self._max_idle = max_idle
        self._proxies = _environment_proxies()
        self._routes: dict[_Origin, _Route | None] = {}
        self._idle: dict[_Route, list[_Connection]] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._httpx: _Pools | None = None

    def _route(self, origin: _Origin) -> _Route | None:
        """How to reach an origin, decided once; None: httpx's pool handles it."""
        with self._lock:
            if origin not in self._routes:
                proxy = _proxy_for(self._proxies, origin)
                if proxy is not None and not proxy.lower().startswith("http://"):
                    self._routes[origin] = None
                else:
                    self._routes[origin] = _make_route(origin, proxy)
            return self._routes[origin]

    def _fallback(self) -> _Pools:
        with self._lock:
            if self._httpx is None:
                self._httpx = _Pools(self._proxies)
            return self._httpx

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._closed:
            raise RuntimeError("the connection pool is closed")
        origin = _origin_of(request.url)
        route = self._routes[origin] if origin in self._routes else self._route(origin)
        if route is None:
            return self._fallback().handle_request(request)
        connection = self._checkout(route)
        reused = connection is not None
        timeouts = request.extensions.get("timeout") or {}
        if connection is None:
            connection = self._connect(route, timeouts, request)
        try:
            return self._exchange(route, connection, request, timeouts, reused)
        except _Stale as stale:
            if request.method not in _IDEMPOTENT_METHODS:
                raise stale.error from stale.__cause__
        connection = self._connect(route, timeouts, request)
        try:
            return self._exchange(route, connection, request, timeouts, False)
        except httpx.TransportError as error:
            raise _mark_retried(error) from error.__cause__

    def _checkout(self, route: _Route) -> _Connection | None:
        """The most recently used idle connection still open, or None."""
        while True:
            with self._lock:
                stack = self._idle.get(route)
                if not stack:
                    return None
                connection = stack.pop()
            if not _is_dropped(connection):
                return connection
            connection.close()

    def _checkin(self, route: _Route, connection: _Connection) -> None:
        with self._lock:
            stack = self._idle.setdefault(route, [])
            if not self._closed and len(stack) < self._max_idle:
                stack.append(connection)
                return
        connection.close()

    def _connect(
        self, route: _Route, timeouts: Mapping[str, float | None], request: httpx.Request
    ) -> _Connection:
        """A new connection, opened now so that its failures are told apart."""
        timeout = timeouts.get("connect")
        connection: _Connection
        if route.tls:
            connection = http.client.HTTPSConnection(
                route.host, route.port, timeout=timeout, context=_shared_tls_context()
            )
        else:
            connection = http.client.HTTPConnection(route.host, route.port, timeout=timeout)
        if route.tunnel is not None:
            connection.set_tunnel(*route.tunnel, headers=route.proxy_headers)
        try:
            connection.connect()
        except TimeoutError as exc:
            connection.close()
            raise httpx.ConnectTimeout(str(exc) or "timed out", request=request) from exc
        except OSError as exc:
            connection.close()
            raise httpx.ConnectError(str(exc), request=request) from exc
        return connection

    def _exchange(
        self,
        route: _Route,
        connection: _Connection,
        request: httpx.Request,
        timeouts: Mapping[str, float | None],
        reused: bool,
    ) -> httpx.Response:
        """One request and its whole answer; the connection goes back if it can."""
        url = request.url
        target = str(url).encode("ascii") if route.absolute_form else url.raw_path
        body = b"".join(request.stream) if isinstance(request.stream, httpx.ByteStream) else b""
        head = _request_head(request.method, target, request.headers.raw, route)
        sock = connection.sock
        if sock is None:
            raise RuntimeError("a pooled connection has no socket")
        try:
            sock.settimeout(timeouts.get("write"))
            sock.sendall(head + body if len(body) < _JOIN_BODY_BELOW else head)
            if len(body) >= _JOIN_BODY_BELOW:
                sock.sendall(body)
        except TimeoutError as exc:
            connection.close()
            raise httpx.WriteTimeout(str(exc) or "timed out", request=request) from exc
        except OSError as exc:
            connection.close()
            write_error = httpx.WriteError(str(exc), request=request)
            if reused:
                raise _Stale(write_error) from exc
            raise write_error from exc
        answer = http.client.HTTPResponse(sock, method=request.method)
        try:
            sock.settimeout(timeouts.get("read"))
            answer.begin()
        except BaseException as exc:
            answer.close()
            connection.close()
            error = self._read_error(exc, request)
            if error is None:
                raise
            nothing_arrived = isinstance(exc, ConnectionResetError)  # RemoteDisconnected too
            if reused and nothing_arrived:
                raise _Stale(error) from exc
            raise error from exc
        try:
            content = answer.read()
        except BaseException as exc:
            answer.close()
            connection.close()
            error = self._read_error(exc, request)
            if error is None:
                raise
            raise error from exc
        if answer.will_close:
            connection.close()
        else:
            self._checkin(route, connection)
        reason = answer.reason
        response = httpx.Response(
            answer.status,
            headers=httpx.Headers(list(answer.msg.raw_items()), encoding="latin-1"),
            stream=httpx.ByteStream(content),
            request=request,
            extensions={
                "http_version": b"HTTP/1.1" if answer.version == 11 else b"HTTP/1.0",
                "reason_phrase": reason.encode("latin-1", "replace"),
            },
        )
        if not content or "content-encoding" not in response.headers:
            # Nothing to decode: the body is final as it is. httpx's own read()
            # would pass it through its decoder and chunker (~8 us per answer).
            response._content = content
        return response

    @staticmethod
    def _read_error(exc: BaseException, request: httpx.Request) -> httpx.TransportError | None:
        """httpx's name for a failure while waiting for or reading an answer."""
        if isinstance(exc, TimeoutError):
            return httpx.ReadTimeout(str(exc) or "timed out", request=request)
        if isinstance(exc, http.client.RemoteDisconnected):
            return httpx.RemoteProtocolError(
                "Server disconnected without sending a response.", request=request
            )
        if isinstance(exc, http.client.IncompleteRead):
            return httpx.RemoteProtocolError(
                f"Server disconnected mid-answer ({len(exc.partial)} bytes read, "
                f"{exc.expected} more expected).",
                request=request,
            )
        if isinstance(exc, http.client.HTTPException):
            return httpx.RemoteProtocolError(
                f"Malformed answer ({type(exc).__name__}: {exc})", request=request
            )
        if isinstance(exc, OSError):
            return httpx.ReadError(str(exc) or type(exc).__name__, request=request)
        return None

    def close(self) -> None:
        """Close every idle connection; later requests are refused."""
        with self._lock:
            self._closed = True
            idle = [c for stack in self._idle.values() for c in stack]
            self._idle.clear()
            fallback = self._httpx
        for connection in idle:
            connection.close()
        if fallback is not None:
            fallback.close()


class Transport:
    """Sends requests for one service root over keep-alive connection pools.

    Thread-safe: every attribute is set once in ``__init__``; the pools, the
    cache and the authorizer are shared as they are.

    Requests go to a connection pool below `httpx.Client`: this class
    already does what the client would add (redirects, authorization,
    retries, default headers, timeouts, proxies from the environment; no
    cookies). ``pool="stdlib"`` (the default) sends over `http.client`
    (`_StdlibPools`: about a third less CPU per request than httpcore + h11,
    and no import of them); ``pool="httpx"`` uses httpx's own transport
    (`_Pools`). A ``client`` passed in is used instead of either, with its
    own settings (``timeout`` and ``pool`` are then ignored), and is left
    open by `close`.
    """

    def __init__(
        self,
        *,
        authorizer: _Authorizer | None = None,
        cache: _Cache | None = None,
        timeout: float | httpx.Timeout | None = None,
        max_retries: int = 6,
        base_client_name: str = "",
        client: httpx.Client | None = None,
        pool: str = "stdlib",
        sleep: Callable[[float], None] = time.sleep,
        max_redirects: int = 10,
        max_backoff: float = 30.0,
        max_retry_after: float = 30.0,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be zero or more")
        if max_redirects < 0:
            raise ValueError("max_redirects must be zero or more")
        if pool not in _POOL_KINDS:
            raise ValueError(f"pool must be 'stdlib' or 'httpx', not {pool!r}")
        self._authorizer = authorizer
        self._cache = cache
        self._max_retries = max_retries
        self._max_redirects = max_redirects
        self._max_backoff = max_backoff
        self._max_retry_after = max_retry_after
        self._sleep = sleep
        params = authorizer.user_agent_params if authorizer is not None else {}
        self._user_agent = build_user_agent(base_client_name, params)
        self._fixed_headers = {
            "user-agent": ("User-Agent", self._user_agent),
            "accept-encoding": ("Accept-Encoding", _ACCEPT_ENCODING),
            "connection": ("Connection", "keep-alive"),
        }
        if not isinstance(timeout, httpx.Timeout):
            timeout = DEFAULT_TIMEOUT if timeout is None else httpx.Timeout(timeout)
        self._extensions = {"timeout": timeout.as_dict()}
        self._client = client
        self._pools: httpx.BaseTransport | None = None
        if client is None:
            self._pools = _StdlibPools() if pool == "stdlib" else _Pools()
        self._closed = False
        self._parsed: dict[str, httpx.URL] = {}

    @property
    def user_agent(self) -> str:
        """The User-Agent header sent with every request."""
        return self._user_agent

    @property
    def authorizer(self) -> _Authorizer | None:
        """The authorizer consulted for every request (or None)."""
        return self._authorizer

    def close(self) -> None:
        """Close the connection pools (not a client supplied by the caller)."""
        if self._pools is not None:
            self._closed = True
            self._pools.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def request(
        self,
        method: str,
        url: str,
        *,
        accept: str = "application/json",
        body: bytes | str | None = None,
        content_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
        use_cache: bool = True,
    ) -> HTTPResponse:
        """Send one logical request; return the answer or raise its error.

        Non-2xx answers raise `wadlclient.errors.error_for(...)`, except a 304
        for the caller's own ``If-None-Match``/``If-Modified-Since`` (returned
        with ``not_modified=True``) and, with ``follow_redirects=False``, a
        3xx (returned for the caller to handle).
        """
        method = method.upper()
        target = self._parse(url)
        if target.scheme not in _DEFAULT_PORTS or not target.host:
            raise ValueError(f"{method} {url!r}: the URL must be absolute (http or https)")
        if isinstance(body, str):
            body = body.encode("utf-8")
        wanted = self._fixed_headers.copy()
        wanted["accept"] = ("Accept", accept)
        if content_type is not None:
            wanted["content-type"] = ("Content-Type", content_type)
        caller_conditional = False
        if headers:
            for name, value in headers.items():
                lowered = name.lower()
                wanted[lowered] = (name, value)
                caller_conditional = caller_conditional or lowered in _CONDITIONAL_HEADERS

        cache = self._cache if use_cache else None
        cached: _Cached | None = None
        if cache is not None and method == "GET" and not caller_conditional:
            cached = cache.get(url, accept)
            if cached is not None and cached.is_fresh(cache.clock()):
                self._log_exchange(method, url, cached.status, "fresh")
                return self._from_cached(cached, url)
            if cached is not None:
                for name, value in cached.validators().items():
                    wanted[name.lower()] = (name, value)

        sent = httpx.Headers(list(wanted.values()))
        response, final_url = self._exchange(method, url, target, body, sent, follow_redirects)
        status = response.status_code
        content = response.content

        if status == 304:
            if caller_conditional:
                self._log_exchange(method, url, status, "bypass")
                return self._wrap(response, final_url, not_modified=True)
            if cached is not None and cache is not None:
                refreshed = cache.refresh(url, accept, response)
                self._log_exchange(method, url, status, "revalidated")
                return self._from_cached(refreshed if refreshed is not None else cached, url)
            self._log_exchange(method, url, status, "unexpected")
            raise UnexpectedResponseError(response, content)

        error = error_for(response, content)
        if error is not None:
            self._log_exchange(method, final_url, status, "none")
            raise error
        if 300 <= status < 400 and follow_redirects:
            # A redirect without a Location, or a 300/305: nothing to follow.
            self._log_exchange(method, final_url, status, "none")
            raise UnexpectedResponseError(response, content)

        disposition = self._update_cache(
            cache, method, url, final_url, accept, response, cached is not None
        )
        if disposition == "stored" and cached is not None:
            disposition = "replaced"
        self._log_exchange(method, final_url, status, disposition)
        return self._wrap(response, final_url)

    def _update_cache(
        self,
        cache: _Cache | None,
        method: str,
        url: str,
        final_url: str,
        accept: str,
        response: httpx.Response,
        had_entry: bool,
    ) -> str:
        """Store or invalidate after a successful exchange; say what was done."""
        if cache is None:
            return "bypass" if self._cache is not None else "none"
        status = response.status_code
        same_url = final_url == url
        if method == "GET":
            if status in _CACHEABLE_STATUSES and same_url:
                if _reusable(response.headers):
                    cache.put(url, accept, response, response.content)
                    return "stored"
                if had_entry:
                    cache.delete(url, accept)
            return "miss"
        if method in _SAFE_METHODS:
            return "bypass"
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
            cache.put(url, "application/json", response, response.content)
            return "stored"
        cache.delete(url)
        return "invalidated"

    def _exchange(
        self,
        method: str,
        url: str,
        target: httpx.URL,
        body: bytes | None,
        headers: httpx.Headers,
        follow_redirects: bool,
    ) -> tuple[httpx.Response, str]:
        """Send, retrying and following redirects; return the last answer and URL.

        URLs travel as parsed `httpx.URL` objects; the text form is made only
        for an authorizer, a log line or a redirect.
        """
        origin = _origin_of(target)
        current_url, current_method, current_body = url, method, body
        current_target, current_headers = target, headers
        for _hop in range(self._max_redirects + 1):
            same_origin = current_target is target or _origin_of(current_target) == origin
            response = self._send_with_retries(
                current_method,
                current_url,
                current_target,
                current_body,
                current_headers,
                same_origin,
            )
            location = response.headers.get("location")
            if (
                not follow_redirects
                or response.status_code not in _REDIRECT_STATUSES
                or not location
            ):
                return response, current_url
            current_target = current_target.join(location)
            next_url = str(current_target)
            logger.debug(
                "%s %s -> %d redirect to %s",
                current_method,
                current_url,
                response.status_code,
                next_url,
            )
            if (response.status_code == 303 and current_method != "HEAD") or (
                response.status_code in (301, 302) and current_method == "POST"
            ):
                current_method, current_body = "GET", None
                current_headers = current_headers.copy()
                for name in _BODY_HEADERS:
                    current_headers.pop(name, None)
            current_url = next_url
        raise TransportError(
            f"{method} {url}: more than {self._max_redirects} redirects", url=url, method=method
        )

    def _send_with_retries(
        self,
        method: str,
        url: str,
        target: httpx.URL,
        body: bytes | None,
        headers: httpx.Headers,
        authorize: bool,
    ) -> httpx.Response:
        """Send one hop; retry 502/503 and (for safe methods) one dropped connection."""
        attempt = 0
        dropped_retry_left = method in _SAFE_METHODS
        while True:
            sent = headers
            if authorize and self._authorizer is not None:
                sent = headers.copy()
                sent.pop("authorization", None)
                self._authorizer.authorizeRequest(url, method, body, sent)
            elif not authorize and "authorization" in headers:
                sent = headers.copy()
                del sent["authorization"]
            try:
                response = self._send(method, target, body, sent)
            except httpx.TransportError as exc:
                dropped = isinstance(
                    exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError
                )
                if dropped and dropped_retry_left and not getattr(exc, "wadlclient_retried", False):
                    dropped_retry_left = False
                    logger.info("%s %s: %s; retrying once", method, url, _describe(exc))
                    continue
                raise TransportError(
                    f"{method} {url}: {_describe(exc)}", url=url, method=method
                ) from exc
            if response.status_code in _RETRY_STATUSES and attempt < self._max_retries:
                delay = self._retry_delay(attempt, response)
                logger.info(
                    "%s %s -> %d; retry %d of %d in %.1f s",
                    method,
                    url,
                    response.status_code,
                    attempt + 1,
                    self._max_retries,
                    delay,
                )
                self._sleep(delay)
                attempt += 1
                continue
            return response

    def _send(
        self, method: str, target: httpx.URL, body: bytes | None, headers: httpx.Headers
    ) -> httpx.Response:
        """One request on the wire, its body read; httpx errors pass through."""
        if self._closed:
            raise RuntimeError("the transport is closed; make a new one")
        if self._pools is None:
            assert self._client is not None
            return self._client.request(
                method, target, content=body, headers=headers, follow_redirects=False
            )
        # Given a stream, httpx.Request skips encoding and re-normalising the
        # headers (~10 us); Host and Content-Length are then ours to add.
        request = httpx.Request(
            method,
            target,
            headers=headers,
            stream=httpx.ByteStream(body or b""),
            extensions=self._extensions,
        )
        request.headers["Host"] = target.netloc.decode("ascii")
        if body is not None:
            request.headers["Content-Length"] = str(len(body))
        elif method in _BODY_METHODS:
            request.headers["Content-Length"] = "0"
        response = self._pools.handle_request(request)
        response.request = request
        try:
            response.read()
        finally:
            response.close()
        return response

    def _parse(self, url: str) -> httpx.URL:
        """The parsed URL, remembered: parsing costs ~15 us and clients repeat URLs.

        URLs with a query (collection pages, named operations) rarely repeat:
        they are parsed each time rather than crowding out the ones that do.
        """
        parsed = self._parsed.get(url)
        if parsed is None:
            parsed = httpx.URL(url)
            if "?" in url:
                return parsed
            if len(self._parsed) >= _PARSED_URLS_KEPT:
                self._parsed.clear()
            self._parsed[url] = parsed
        return parsed

    def _retry_delay(self, attempt: int, response: httpx.Response) -> float:
        """0, 1, 2, 4, ... seconds (capped), or the server's Retry-After (capped)."""
        asked = _retry_after(response.headers.get("retry-after"), time.time())
        if asked is not None:
            return min(asked, self._max_retry_after)
        return min(float(int(2 ** (attempt - 1))), self._max_backoff)

    @staticmethod
    def _wrap(response: httpx.Response, url: str, *, not_modified: bool = False) -> HTTPResponse:
        return HTTPResponse(
            status=response.status_code,
            reason=response.reason_phrase,
            headers=response.headers,
            content=response.content,
            url=url,
            not_modified=not_modified,
        )

    @staticmethod
    def _from_cached(cached: _Cached, url: str) -> HTTPResponse:
        """A cached representation, presented as the 200 the client would have had."""
        status = 200 if cached.status == 209 else cached.status
        return HTTPResponse(
            status=status,
            reason=httpx.codes.get_reason_phrase(status),
            headers=httpx.Headers(cached.headers),
            content=cached.body,
            url=url,
            from_cache=True,
        )

    @staticmethod
    def _log_exchange(method: str, url: str, status: int, disposition: str) -> None:
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("%s %s -> %d (cache: %s)", method, url, status, disposition)
