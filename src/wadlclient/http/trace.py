"""`WireTrace`: what sees each exchange's bytes as the connection pool writes and reads them.

For a wire-level trace (the lazr.restfulclient compatibility layer's
``httplib2.debuglevel``); wadlclient's own record of exchanges is the
``wadlclient.http`` log (`wadlclient.http.logs`), which never shows
header values.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["WireTrace"]


class WireTrace(Protocol):
    """Told of the request bytes written, then the answer's status line and each header."""

    def sent(self, data: bytes) -> None:
        """A write of the request: its head, then its body (if any) in a second call."""

    def status_line(self, line: bytes) -> None:
        """The answer's status line, as read (line ending included)."""

    def header(self, name: str, value: str) -> None:
        """One header of the answer."""
