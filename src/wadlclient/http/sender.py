"""The pluggable sender: one request out, one answer back, nothing more."""

from __future__ import annotations

from typing import Protocol

from wadlclient.http.models import Request, Response, Timeout

__all__ = ["Sender"]


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
