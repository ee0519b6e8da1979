"""Bounds on each Redis operation: the time it takes in all, and the bytes of its reply.

redis-py bounds each socket read by ``socket_timeout``, never a whole
command: a Redis whose replies trickle in (64 bytes every 0.3 s, say)
answers every read in time and stalls the caller for minutes. Here each
connection's socket is wrapped (`BoundedSocket`) so that, inside
`operation`, every read waits only for what is left of the operation's
time: ``seconds``, plus one second for each `MIN_RATE` bytes already
sent or received (a large value on a healthy link gets the time its size
needs, a trickle does not); and the reply stops at ``max_bytes``, before
it is read whole. Outside an operation (closing, say) the socket is as redis-py set it.

Replies that each come in time can still add up: `SlowReplies` judges a
server by the time its operations spent waiting for bytes (not their
whole time, which a starved CPU stretches too), over a window of them.
"""

from __future__ import annotations

import errno
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "MIN_RATE",
    "BoundedSocket",
    "Operation",
    "SlowReplies",
    "bound_connections",
    "operation",
]

#: Bytes per second a reply must keep arriving at to earn more time than the bound.
MIN_RATE = 8 * 1024 * 1024
_SEND_PIECE = 256 * 1024


class Operation(threading.local):
    """This thread's operation under way: when it began, its bounds, what it received."""

    began: float | None = None
    seconds: float = 0.0
    max_bytes: int = 0
    received: int = 0
    sent: int = 0
    #: Seconds spent in the socket's reads, waiting for the server.
    waited: float = 0.0

    def due(self) -> float:
        """Seconds its bytes so far may take beyond the bound: one per `MIN_RATE` bytes."""
        return (self.received + self.sent) / MIN_RATE

    def taken(self) -> float:
        """Seconds since it began."""
        return 0.0 if self.began is None else time.monotonic() - self.began

    def time_left(self) -> float | None:
        """Seconds left (None: no operation under way); 0 or less: its time is up."""
        if self.began is None:
            return None
        return self.seconds + self.due() - self.taken()


_CURRENT = Operation()


@contextmanager
def operation(seconds: float, max_bytes: int) -> Iterator[Operation]:
    """Bound the Redis commands run inside to ``seconds`` in all and ``max_bytes`` of replies."""
    current = _CURRENT
    current.began, current.seconds = time.monotonic(), seconds
    current.max_bytes, current.received, current.sent, current.waited = max_bytes, 0, 0, 0.0
    try:
        yield current
    finally:
        current.began = None


class BoundedSocket:
    """A connected socket whose reads and writes keep within this thread's `operation`."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._timeout: float | None = sock.gettimeout()

    def __repr__(self) -> str:
        return f"BoundedSocket({self._sock!r})"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def settimeout(self, value: float | None) -> None:
        self._timeout = value
        self._sock.settimeout(value)

    def gettimeout(self) -> float | None:
        return self._timeout

    def recv(self, size: int, *flags: int) -> bytes:
        began = self._bound()
        data: bytes = self._sock.recv(size, *flags)
        self._count(len(data), began)
        return data

    def recv_into(self, buffer: Any, nbytes: int = 0, *flags: int) -> int:
        began = self._bound()
        count: int = self._sock.recv_into(buffer, nbytes, *flags)
        self._count(count, began)
        return count

    def sendall(self, data: Any, *flags: int) -> None:
        """Send in pieces, so that each piece sent earns the next one its time."""
        view = memoryview(data).cast("B")
        for start in range(0, max(len(view), 1), _SEND_PIECE):
            piece = view[start : start + _SEND_PIECE]
            self._bound()
            self._sock.sendall(piece, *flags)
            if _CURRENT.began is not None:
                _CURRENT.sent += len(piece)

    def _bound(self) -> float:
        """Let the next call wait only as long as the operation has left; when it starts."""
        left = _CURRENT.time_left()
        if left is None:
            self._sock.settimeout(self._timeout)
            return 0.0
        if left <= 0:
            # socket.timeout, which redis-py reads as a timeout, is TimeoutError.
            raise TimeoutError("the Redis operation's time is up")
        self._sock.settimeout(left if self._timeout is None else min(self._timeout, left))
        return time.monotonic()

    def _count(self, received: int, began: float) -> None:
        current = _CURRENT
        if current.began is None:
            return
        current.waited += time.monotonic() - began
        current.received += received
        if current.received > current.max_bytes:
            raise OSError(errno.EMSGSIZE, f"a Redis reply over {current.max_bytes} bytes")


def bound_connections(client: Any) -> None:
    """Make every connection ``client``'s pool opens from now on a bounded one."""
    pool = client.connection_pool
    base = pool.connection_class
    if getattr(base, "bounded_by_wadlclient", False):
        return

    class Bounded(base):  # type: ignore[misc, valid-type]
        bounded_by_wadlclient = True

        def _connect(self) -> Any:
            return BoundedSocket(super()._connect())

    Bounded.__name__ = Bounded.__qualname__ = f"Bounded{base.__name__}"
    pool.connection_class = Bounded


class SlowReplies:
    """Whether a server is too slow to be worth asking, from its recent operations.

    An operation is slow when it waited for bytes more than ``slow``
    seconds beyond what its size earns (`Operation.due`). The server is
    too slow when, within ``window`` seconds, slow operations waited more
    than ``too_slow`` seconds in all and were at least half of all
    operations: a trickling server makes every one slow, a busy machine
    only some.
    """

    def __init__(self, slow: float, too_slow: float, window: float) -> None:
        self.slow, self.too_slow, self.window = slow, too_slow, window
        self._lock = threading.Lock()
        self._began = 0.0
        self._operations = self._slow_ones = 0
        self._waited = 0.0

    def __repr__(self) -> str:
        return f"SlowReplies({self._slow_ones} of {self._operations} slow, {self._waited:.2f} s)"

    def too_slow_after(self, done: Operation) -> float:
        """Count ``done``; the seconds slow operations waited when that is too slow, else 0."""
        waited = done.waited - done.due()
        now = time.monotonic()
        with self._lock:
            if now - self._began > self.window:
                self._began, self._operations, self._slow_ones, self._waited = now, 0, 0, 0.0
            self._operations += 1
            if waited > self.slow:
                self._slow_ones += 1
                self._waited += waited
            if self._waited > self.too_slow and 2 * self._slow_ones >= self._operations:
                total, self._began = self._waited, 0.0
                return total
            return 0.0
