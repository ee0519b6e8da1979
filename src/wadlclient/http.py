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
  for the safe methods GET, HEAD and OPTIONS only (a stale keep-alive
  connection is the usual cause); never for POST, PATCH, PUT or DELETE.
  Refused connections and timeouts are not retried.
- Cookies are neither stored nor sent: lazr.restful services do not use
  them, and a cookie jar would be shared mutable state across threads.
- Requests go to httpx's transport layer directly, not through
  `httpx.Client` (whose redirects, auth and cookies this module replaces):
  that halves the client-side cost of a request. What the client would add
  is added here: ``Accept-Encoding: gzip, deflate`` (answers are decoded),
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

import email.utils
import json
import logging
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
                f"the response from {self.url} is not UTF-8 text "
                f"(bad byte at position {exc.start})"
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


class _Pools(httpx.BaseTransport):
    """Keep-alive pools, one per scheme and proxy, each made on first use.

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

    def __init__(self) -> None:
        self._proxies = {
            scheme: url if "://" in url else f"http://{url}"
            for scheme, url in urllib.request.getproxies().items()
            if scheme in ("http", "https", "all") and url
        }
        self._routes: dict[_Origin, httpx.HTTPTransport] = {}
        self._pools: dict[tuple[bool, str | None], httpx.HTTPTransport] = {}
        self._lock = threading.Lock()

    def _proxy_for(self, origin: _Origin) -> str | None:
        scheme, host, port = origin
        proxy = self._proxies.get(scheme) or self._proxies.get("all")
        if proxy is None or urllib.request.proxy_bypass(f"{host}:{port}"):
            return None
        return proxy

    def _route(self, origin: _Origin) -> httpx.HTTPTransport:
        """The pool for an origin (made on first use)."""
        with self._lock:
            pool = self._routes.get(origin)
            if pool is not None:
                return pool
            tls = origin[0] == "https"
            proxy = self._proxy_for(origin)
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


class Transport:
    """Sends requests for one service root over keep-alive connection pools.

    Thread-safe: every attribute is set once in ``__init__``; the pools, the
    cache and the authorizer are shared as they are.

    By default requests go straight to httpx's transport layer: this class
    already does what `httpx.Client` would add (redirects, authorization,
    retries, default headers, timeouts, proxies from the environment; no
    cookies), and skipping it halves the client-side cost of a request. A
    ``client`` passed in is used instead, with its own settings (``timeout``
    is then ignored), and is left open by `close`.
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
        sleep: Callable[[float], None] = time.sleep,
        max_redirects: int = 10,
        max_backoff: float = 30.0,
        max_retry_after: float = 30.0,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be zero or more")
        if max_redirects < 0:
            raise ValueError("max_redirects must be zero or more")
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
        self._pools = _Pools() if client is None else None
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
                if dropped and dropped_retry_left:
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
        """The parsed URL, remembered: parsing costs ~15 us and clients repeat URLs."""
        parsed = self._parsed.get(url)
        if parsed is None:
            parsed = httpx.URL(url)
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
