"""The pluggable sender: one request out, one answer back, nothing more."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.stream import StreamedResponse

__all__ = ["Exchange", "Sender", "StartingSender", "StreamingSender", "finished"]


class Sender(Protocol):
    """What `Transport` sends through (`wadlclient.http.pool.ConnectionPool` by default).

    The transport does redirects, authorization, retries and caching; a
    sender does none of these.
    """

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        """One exchange: no redirects, no auth, no retries, no cache; the body decoded.

        Raises `wadlclient.errors.TransportError` (`ConnectError`,
        `TransportTimeout`, `ConnectionDropped`) when no whole answer came.
        """
        ...

    def close(self) -> None:
        """Release connections; later sends may be refused."""
        ...


@runtime_checkable
class StreamingSender(Sender, Protocol):
    """A `Sender` that can also hand an answer over before its body is read.

    Optional: `Transport.stream` reads a whole answer from any other sender
    (`send`) and wraps it in the same `StreamedResponse`.
    """

    def open(self, request: Request, *, timeout: Timeout) -> StreamedResponse:
        """One exchange as `send`, the body left on the wire for the caller to read.

        The stream is read (and decoded) within ``timeout.read``; closing it
        before its end must not let the connection be reused.
        """
        ...


class Exchange(Protocol):
    """A request on the wire whose answer has not been read yet."""

    def result(self) -> Response:
        """The answer, read whole and decoded, as `Sender.send` returns it; at most once."""
        ...

    def discard(self) -> None:
        """Give the answer up: its connection is closed, never reused."""
        ...


@runtime_checkable
class StartingSender(Sender, Protocol):
    """A `Sender` that can put a request on the wire and read its answer later.

    Optional: the caller does other work (parsing a WADL) while the server
    answers. `Transport.begin` sends through `send` when the sender cannot.
    """

    def start(self, request: Request, *, timeout: Timeout) -> Exchange:
        """Send ``request`` now; the read timeout counts from `Exchange.result`."""
        ...


class _Finished:
    """An exchange whose answer ``read`` gives when asked (nothing is on the wire)."""

    def __init__(self, read: Callable[[], Response]) -> None:
        self._read = read

    def result(self) -> Response:
        return self._read()

    def discard(self) -> None:
        pass


def finished(read: Callable[[], Response]) -> Exchange:
    """An `Exchange` answered by ``read`` (for a sender that cannot start early)."""
    return _Finished(read)
