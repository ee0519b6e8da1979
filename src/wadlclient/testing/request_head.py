"""A request's head read leanly: the fake's request line and header fields.

The standard library's handler hands the header block to the ``email``
package's parser, built for mail (MIME defects, folding, policies): it
cost some 40 % of the fake's CPU per request. HTTP's header fields need
far less: one ``name: value`` per line. `LeanHeadHandler` reads them
strictly and refuses what the standard library refuses, with the same
statuses: a malformed request line (and HTTP/0.9's, with no version) or
a line that is not a field (no colon, a name that is not a token, a
folded continuation line) is a 400, a line over 64 KiB or more than 100
fields a 431. Names are looked
up case-insensitively (`LeanHeadHandler.fields` keys them in lower case);
a field sent twice keeps its last value.
"""

from __future__ import annotations

import re
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol

from wadlclient.errors import reduce_error

__all__ = ["MAX_FIELDS", "MAX_LINE", "BadHead", "LeanHeadHandler", "read_fields"]

#: The standard library's limits: a longer line, or more fields, is a 431.
MAX_LINE = 65536
MAX_FIELDS = 100

_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VERSION = re.compile(r"HTTP/(\d{1,10})\.(\d{1,10})")
_END = (b"\r\n", b"\n", b"")


class _Lines(Protocol):
    """What the head is read from: the handler's ``rfile``."""

    def readline(self, size: int | None = -1, /) -> bytes: ...


class BadHead(Exception):
    """A head the server refuses: the status to answer and why."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)  # its __init__ takes what its args do not hold


def read_fields(rfile: _Lines) -> dict[str, str]:
    """The header fields up to the blank line, by lower-case name; `BadHead` if malformed."""
    fields: dict[str, str] = {}
    for _ in range(MAX_FIELDS + 1):
        line = rfile.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise BadHead(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Line too long")
        if line in _END:
            return fields
        name, colon, value = line.partition(b":")
        if not colon or _TOKEN.fullmatch(name) is None:
            raise BadHead(HTTPStatus.BAD_REQUEST, f"Bad header line ({line[:80]!r})")
        fields[name.decode("ascii").lower()] = value.strip(b" \t\r\n").decode("iso-8859-1")
    raise BadHead(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Too many headers")


class LeanHeadHandler(BaseHTTPRequestHandler):
    """The standard library's handler, reading the head with `read_fields`.

    ``fields`` replaces ``headers``: a dict by lower-case name. The ``Date``
    of the answers is formatted once a second, not once an answer.
    """

    fields: dict[str, str]
    raw_requestline: bytes
    _date: tuple[int, str] = (0, "")

    def parse_request(self) -> bool:
        """Read the request line and fields; on a refusal, answer it and return False."""
        self.command = ""
        self.request_version = self.default_request_version
        self.close_connection = True
        self.fields = {}
        line = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        self.requestline = line
        words = line.split()
        if not words:
            return False
        if len(words) != 3:
            self.send_error(HTTPStatus.BAD_REQUEST, f"Bad request syntax ({line!r})")
            return False
        command, path, version = words
        number = _VERSION.fullmatch(version)
        if number is None:
            self.send_error(HTTPStatus.BAD_REQUEST, f"Bad request version ({version!r})")
            return False
        major, minor = int(number.group(1)), int(number.group(2))
        if major >= 2:
            self.send_error(
                HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, f"Invalid HTTP version ({major}.{minor})"
            )
            return False
        self.request_version = version
        persistent = (major, minor) >= (1, 1) and self.protocol_version >= "HTTP/1.1"
        self.close_connection = not persistent
        self.command = command
        # As the standard library does: '//x' would read as a scheme-less absolute URL.
        self.path = "/" + path.lstrip("/") if path.startswith("//") else path
        try:
            self.fields = read_fields(self.rfile)
        except BadHead as bad:
            self.send_error(bad.status, bad.message)
            return False
        connection = self.fields.get("connection", "").lower()
        if connection == "close":
            self.close_connection = True
        elif connection == "keep-alive" and self.protocol_version >= "HTTP/1.1":
            self.close_connection = False
        expect = self.fields.get("expect", "").lower()
        if expect == "100-continue" and persistent:
            return self.handle_expect_100()
        return True

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The ``Date`` of now (formatted once a second), or of ``timestamp``."""
        if timestamp is not None:
            return super().date_time_string(timestamp)
        now = int(time.time())
        second, text = self._date
        if second != now:
            text = super().date_time_string(now)
            type(self)._date = (now, text)
        return text
