"""Keep-alive connection pools on the standard library's `http.client`: the default sender.

- One LIFO stack of idle connections per route (origin, or proxy and
  origin), at most ``max_idle`` deep; the lock guards the stacks only,
  never network I/O. A connection serves one exchange at a time and goes
  back only when its answer was read whole and the server keeps it open
  (no ``Connection: close``; HTTP/1.0 only with keep-alive).
- An idle connection whose server has closed it is noticed before use (its
  socket is readable) and discarded. When a reused connection fails anyway
  before the first byte of an answer (the server closed it while the
  request was on its way), the request is sent once more on a new
  connection, for idempotent methods only; an error after that is a
  `ConnectionDropped` with ``retried`` set, so the transport does not
  resend it again.
- Timeouts: ``connect`` for opening (and the TLS handshake, and a proxy's
  CONNECT), ``read`` for sending the request and receiving the whole
  answer: a deadline, checked before every read of the socket, so a server
  that drips bytes cannot stretch it.
- Bodies: at most ``max_body`` bytes as sent and once decoded; a bigger
  one stops being read (or decoded) there and is a `BodyTooLarge`.
- At most ``max_in_flight`` requests in flight per origin (`limits`): a
  request waits for a slot before it is written and gives it back once its
  answer is read whole; `start` sends at once only when a slot is free
  (else when the answer is asked for); a streamed answer (`open`) takes none.
- Plain HTTP through an ``http://`` proxy sends the absolute URL to it;
  HTTPS tunnels with CONNECT. Any other proxy (``https://``, SOCKS) goes
  to httpx's pool when httpx is installed.
"""

from __future__ import annotations

import functools
import http.client
import ssl
import threading
import time
from typing import NamedTuple

from wadlclient.errors import (
    ConnectError,
    ConnectionDropped,
    TransportError,
    TransportTimeout,
)
from wadlclient.headers import Headers
from wadlclient.http.answer import Answer, close_answer, read_body, read_error, read_some
from wadlclient.http.connection import (
    Connection,
    PlainConnection,
    Route,
    Verify,
    is_dropped,
    make_route,
    request_head,
    tls_context,
)
from wadlclient.http.forks import reset_after_fork
from wadlclient.http.limits import InFlight, max_in_flight_from_env
from wadlclient.http.models import DEFAULT_MAX_BODY, Request, Response, Timeout
from wadlclient.http.proxies import environment_proxies, proxy_for
from wadlclient.http.sender import Exchange, Sender, finished
from wadlclient.http.stream import StreamedResponse, whole_stream
from wadlclient.http.trace import WireTrace
from wadlclient.http.urls import Origin, Target, parse_url
from wadlclient.http.wire import BodyTooLarge, content_codings, decode_body, framed_headers
from wadlclient.redact import shown_url

__all__ = ["MAX_IDLE_PER_ORIGIN", "ConnectionPool"]

#: Idle keep-alive connections kept per origin; more are closed when handed back.
#: As many as a raised ``max_in_flight`` may keep busy, so that a batch of
#: requests finds the connections of the last (far away, each new one costs
#: round trips before its request).
MAX_IDLE_PER_ORIGIN = 32
#: Methods a stale keep-alive connection may be resent for (urllib3's rule).
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})
#: A request body shorter than this goes out in one write with the head.
_JOIN_BODY_BELOW = 65536


class _Stale(Exception):
    """A reused connection failed before any byte of an answer: the keep-alive race."""

    def __init__(self, error: TransportError) -> None:
        super().__init__(str(error))
        self.error = error


class _Sent(NamedTuple):
    """A request written to a connection, its answer not read yet."""

    route: Route
    connection: Connection
    target: Target
    reused: bool


class _PoolExchange:
    """`ConnectionPool.start`'s exchange: the answer is read when asked for."""

    def __init__(
        self, pool: ConnectionPool, request: Request, timeout: Timeout, sent: _Sent, starter: int
    ) -> None:
        self._pool = pool
        self._request = request
        self._timeout = timeout
        self._sent: _Sent | None = sent
        self._starter = starter

    def result(self) -> Response:
        sent, self._sent = self._sent, None
        if sent is None:
            raise RuntimeError("the answer of this exchange was already taken or discarded")
        try:
            return self._pool.finish(self._request, self._timeout, sent)
        finally:
            self._pool._in_flight.give_started(sent.target.origin, self._starter)

    def discard(self) -> None:
        sent, self._sent = self._sent, None
        if sent is not None:
            sent.connection.close()
            self._pool._in_flight.give_started(sent.target.origin, self._starter)


class ConnectionPool:
    """The default `Sender`: keep-alive connections per origin over `http.client`.

    Also a `StartingSender`: `start` writes a request and leaves its answer
    on the wire until asked for. ``max_in_flight``: requests in flight per
    origin at most (None: ``WADLCLIENT_MAX_IN_FLIGHT``, else 8; `limits`).
    """

    def __init__(
        self,
        max_idle: int = MAX_IDLE_PER_ORIGIN,
        *,
        max_body: int = DEFAULT_MAX_BODY,
        trace: WireTrace | None = None,
        verify: Verify = True,
        max_in_flight: int | None = None,
    ) -> None:
        self._in_flight = InFlight(
            max_in_flight_from_env() if max_in_flight is None else max_in_flight
        )
        self._max_idle = max_idle
        self._max_body = max_body
        self._trace = trace
        self._verify = verify
        self._tls: ssl.SSLContext | None = None
        self._proxies = environment_proxies()
        self._routes: dict[Origin, Route | None] = {}
        self._idle: dict[Route, list[Connection]] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._fallback_sender: Sender | None = None
        reset_after_fork(self)

    def _after_fork(self) -> None:
        """In a forked child: none of the parent's connections, slots or locks (`forks`)."""
        self._idle, self._lock = {}, threading.Lock()
        self._in_flight = InFlight(self._in_flight.limit)

    @property
    def max_in_flight(self) -> int:
        """Requests this pool keeps in flight per origin at most."""
        return self._in_flight.limit

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        """One exchange on an idle connection or a new one, its answer read whole and decoded.

        It waits for a slot of its origin first (`limits`).
        """
        origin = _target(request).origin
        took = self._in_flight.take(origin)
        try:
            started = self._start(request, timeout)
            if started is None:
                return self._fallback().send(request, timeout=timeout)
            return self._whole(request, *started)
        finally:
            if took:
                self._in_flight.give(origin)

    def start(self, request: Request, *, timeout: Timeout) -> Exchange:
        """Write the request now; `Exchange.result` reads its answer (`StartingSender`).

        With no slot of its origin free, it is sent when its answer is asked
        for: a thread starting several requests never waits for itself.
        """
        origin = _target(request).origin
        starter = self._in_flight.try_start(origin)
        if starter is None:
            return finished(functools.partial(self.send, request, timeout=timeout))
        try:
            sent = self._send_request(request, timeout)
        except BaseException:
            self._in_flight.give_started(origin, starter)
            raise
        if sent is None:
            self._in_flight.give_started(origin, starter)
            return finished(functools.partial(self.send, request, timeout=timeout))
        return _PoolExchange(self, request, timeout, sent, starter)

    def finish(self, request: Request, timeout: Timeout, sent: _Sent) -> Response:
        """The whole answer to a request `start` wrote."""
        return self._whole(request, *self._receive(request, timeout, sent))

    def open(self, request: Request, *, timeout: Timeout) -> StreamedResponse:
        """One exchange whose body is read as the caller reads it (`Sender.open`).

        The connection goes back to the pool when the body was read to its
        end, and is closed when the stream is closed before.
        """
        started = self._start(request, timeout)
        if started is None:
            return whole_stream(self._fallback().send(request, timeout=timeout))
        route, connection, answer = started
        limit = self._max_body
        if answer.length is not None and answer.length > limit:
            close_answer(answer, connection)
            raise BodyTooLarge(
                f"{shown_url(request.url)}: the answer's body is {answer.length} bytes "
                f"(limit {limit})"
            )
        headers = Headers(answer.headers)
        return StreamedResponse(
            (answer.status, answer.reason, headers, request.url),
            functools.partial(read_some, answer, connection),
            codings=content_codings(headers),
            max_body=limit,
            release=functools.partial(self._release, route, connection, answer),
            discard=functools.partial(close_answer, answer, connection),
        )

    def _start(self, request: Request, timeout: Timeout) -> tuple[Route, Connection, Answer] | None:
        """Send the request and read the answer's head; None: the route is httpx's."""
        sent = self._send_request(request, timeout)
        return None if sent is None else self._receive(request, timeout, sent)

    def _send_request(self, request: Request, timeout: Timeout) -> _Sent | None:
        """Write the request on an idle connection or a new one; None: the route is httpx's.

        A stale reused connection is replaced and the request resent (idempotent ones).
        """
        if self._closed:
            raise RuntimeError("the connection pool is closed")
        target = _target(request)
        origin = target.origin
        route = self._routes[origin] if origin in self._routes else self._route(origin)
        if route is None:
            return None
        connection = self._checkout(route)
        reused = connection is not None
        if connection is None:
            connection = self._connect(route, timeout)
        sent = _Sent(route, connection, target, reused)
        try:
            self._write(sent, request, timeout)
            return sent
        except _Stale as stale:
            if request.method not in _IDEMPOTENT_METHODS:
                raise stale.error from stale.__cause__
        return self._resend(request, timeout, route, target)

    def _receive(
        self, request: Request, timeout: Timeout, sent: _Sent
    ) -> tuple[Route, Connection, Answer]:
        """Read the head of a written request's answer; resend once if the connection was stale."""
        try:
            return sent.route, sent.connection, self._read_head(sent, request, timeout)
        except _Stale as stale:
            if request.method not in _IDEMPOTENT_METHODS:
                raise stale.error from stale.__cause__
        again = self._resend(request, timeout, sent.route, sent.target)
        try:
            return again.route, again.connection, self._read_head(again, request, timeout)
        except ConnectionDropped as error:
            error.retried = True
            raise

    def _resend(self, request: Request, timeout: Timeout, route: Route, target: Target) -> _Sent:
        """The request written again, on a new connection (after a stale one)."""
        sent = _Sent(route, self._connect(route, timeout), target, False)
        try:
            self._write(sent, request, timeout)
        except ConnectionDropped as error:
            error.retried = True
            raise
        return sent

    def _whole(
        self, request: Request, route: Route, connection: Connection, answer: Answer
    ) -> Response:
        """An answer whose head was read: its body read and decoded, the connection released."""
        content = read_body(answer, connection, request.url, self._max_body)
        self._release(route, connection, answer)
        headers = Headers(answer.headers)
        try:
            decoded = decode_body(content, headers, self._max_body)
        except BodyTooLarge as error:
            raise BodyTooLarge(f"{request.method} {shown_url(request.url)}: {error}") from None
        return Response(answer.status, answer.reason, headers, decoded, request.url)

    def _release(self, route: Route, connection: Connection, answer: Answer) -> None:
        """After an answer read whole: the connection back to the pool, unless it closes."""
        if answer.will_close:
            connection.close()
        else:
            self._checkin(route, connection)

    def close(self) -> None:
        """Close every idle connection; later requests are refused."""
        with self._lock:
            self._closed = True
            idle = [c for stack in self._idle.values() for c in stack]
            self._idle.clear()
            fallback = self._fallback_sender
        for connection in idle:
            connection.close()
        if fallback is not None:
            fallback.close()

    def _route(self, origin: Origin) -> Route | None:
        """How to reach an origin, decided once; None: a proxy only httpx speaks to."""
        with self._lock:
            if origin not in self._routes:
                proxy = proxy_for(self._proxies, origin)
                if proxy is not None and not proxy.lower().startswith("http://"):
                    self._routes[origin] = None
                else:
                    self._routes[origin] = make_route(origin, proxy)
            return self._routes[origin]

    def _fallback(self) -> Sender:
        with self._lock:
            if self._fallback_sender is None:
                try:
                    from wadlclient.http.httpx_sender import HttpxPools
                except ImportError as error:
                    raise TransportError(
                        "an https:// or SOCKS proxy needs httpx installed"
                    ) from error
                self._fallback_sender = HttpxPools(self._proxies, verify=self._verify)
            return self._fallback_sender

    def _checkout(self, route: Route) -> Connection | None:
        """The most recently used idle connection still open, or None."""
        while True:
            with self._lock:
                stack = self._idle.get(route)
                if not stack:
                    return None
                connection = stack.pop()
            if not is_dropped(connection):
                return connection
            connection.close()

    def _checkin(self, route: Route, connection: Connection) -> None:
        with self._lock:
            stack = self._idle.setdefault(route, [])
            if not self._closed and len(stack) < self._max_idle:
                stack.append(connection)
                return
        connection.close()

    def _connect(self, route: Route, timeout: Timeout) -> Connection:
        """A new connection, opened now so that its failures are told apart."""
        connection: Connection
        if route.tls:
            if self._tls is None:
                self._tls = tls_context(self._verify)
            connection = http.client.HTTPSConnection(
                route.host, route.port, timeout=timeout.connect, context=self._tls
            )
        elif route.tunnel is None:
            connection = PlainConnection(route.host, route.port, timeout=timeout.connect)
        else:
            connection = http.client.HTTPConnection(route.host, route.port, timeout=timeout.connect)
        if route.tunnel is not None:
            connection.set_tunnel(*route.tunnel, headers=route.proxy_headers)
        try:
            connection.connect()
        except TimeoutError as exc:
            connection.close()
            raise TransportTimeout(str(exc) or "timed out") from exc
        except OSError as exc:
            connection.close()
            raise ConnectError(str(exc) or type(exc).__name__) from exc
        return connection

    def _write(self, sent: _Sent, request: Request, timeout: Timeout) -> None:
        """Put one request on the wire (a stale reused connection raises `_Stale`)."""
        route, connection, target, reused = sent
        path = target.absolute if route.absolute_form else target.path
        body = request.body or b""
        head = request_head(request.method, path, framed_headers(request, target), route)
        sock = connection.sock
        if sock is None:
            raise RuntimeError("a pooled connection has no socket")
        if self._trace is not None:
            self._trace.sent(head)
            if body:
                self._trace.sent(body)
        try:
            sock.settimeout(timeout.read)
            sock.sendall(head + body if len(body) < _JOIN_BODY_BELOW else head)
            if len(body) >= _JOIN_BODY_BELOW:
                sock.sendall(body)
        except TimeoutError as exc:
            connection.close()
            raise TransportTimeout(str(exc) or "timed out") from exc
        except OSError as exc:
            connection.close()
            write_error = ConnectionDropped(str(exc) or type(exc).__name__)
            if reused:
                raise _Stale(write_error) from exc
            raise write_error from exc

    def _read_head(self, sent: _Sent, request: Request, timeout: Timeout) -> Answer:
        """The status and headers of a written request's answer, within the read timeout."""
        connection = sent.connection
        sock = connection.sock
        if sock is None:
            raise RuntimeError("a pooled connection has no socket")
        deadline = None if timeout.read is None else time.monotonic() + timeout.read
        answer = Answer(sock, request.method, deadline, self._trace)
        try:
            answer.begin()
        except BaseException as exc:
            close_answer(answer, connection)
            error = read_error(exc)
            if error is None:
                raise
            nothing_arrived = isinstance(exc, ConnectionResetError)  # RemoteDisconnected too
            if sent.reused and nothing_arrived:
                raise _Stale(error) from exc
            raise error from exc
        return answer


def _target(request: Request) -> Target:
    """Where ``request`` goes; a URL that is not absolute http(s) is a ValueError."""
    target = parse_url(request.url)
    if target is None:
        raise ValueError(f"{request.url!r} is not an absolute http(s) URL")
    return target
