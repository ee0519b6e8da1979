"""The pluggable sender: one request out, one answer back, nothing more."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.stream import StreamedResponse

__all__ = ["Sender", "StreamingSender"]


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
