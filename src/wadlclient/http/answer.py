"""One HTTP/1.1 answer read off a pooled connection: status line, headers, framed body.

The pool reads answers with this rather than `http.client.HTTPResponse`,
whose header parsing goes through the `email` package: that was the
largest share of the per-request cost of a request the cache revalidates
(benchmarks/PROFILES.md). The rules are RFC 9112's: 1xx answers are
skipped; a HEAD, 204 or 304 has no body; else chunked coding, then
Content-Length, then the end of the connection frame the body. Failures
raise http.client's own exception classes (`RemoteDisconnected`,
`IncompleteRead`, `BadStatusLine`, `LineTooLong`, `HTTPException`);
`read_error` names them as wadlclient's errors, and `read_body` /
`read_some` read a body within the pool's limits, closing the connection
on any failure.

Every read of the socket is given only the time left before the answer's
deadline, so a server that drips bytes cannot stretch the read timeout.
"""

from __future__ import annotations

import io
import socket
import time
from http.client import (
    BadStatusLine,
    HTTPException,
    IncompleteRead,
    LineTooLong,
    RemoteDisconnected,
)

from wadlclient.errors import ConnectionDropped, TransportError, TransportTimeout
from wadlclient.http.connection import Connection
from wadlclient.http.trace import WireTrace
from wadlclient.http.wire import BodyTooLarge

__all__ = ["Answer", "DeadlineReader", "close_answer", "read_body", "read_error", "read_some"]

#: Longest status, header or chunk-size line accepted (http.client's limit).
MAX_LINE = 65536
#: Most header lines accepted in one answer (http.client's limit).
MAX_HEADERS = 100
_NO_BODY_STATUSES = frozenset({204, 304})
_LINE_ENDS = (b"\r\n", b"\n", b"")


class DeadlineReader(io.RawIOBase):
    """A socket's bytes, each read given only the time left before a deadline."""

    def __init__(self, sock: socket.socket, deadline: float | None) -> None:
        super().__init__()
        self._sock = sock
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._deadline is not None:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the whole answer did not arrive within the read timeout")
            self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class Answer:
    """The answer to one request; `begin` reads its head, `read` its body.

    ``length`` is what is left of a body framed by Content-Length (None
    for chunked or close-delimited ones); ``will_close`` says the
    connection cannot carry another exchange.
    """

    def __init__(
        self,
        sock: socket.socket,
        method: str,
        deadline: float | None,
        trace: WireTrace | None = None,
    ) -> None:
        self._file = io.BufferedReader(DeadlineReader(sock, deadline))
        self._trace = trace
        self._method = method
        self.status = 0
        self.reason = ""
        self.headers: list[tuple[str, str]] = []
        self.length: int | None = None
        self.will_close = False
        self._chunked = False
        self._chunk_left = 0
        self._done = False

    def begin(self) -> None:
        """Read the status line and headers (skipping 1xx answers); decide the framing."""
        version, self.status, self.reason = self._status_line()
        while 100 <= self.status < 200:
            self._header_lines()
            version, self.status, self.reason = self._status_line()
        self.headers = self._header_lines()
        if self._trace is not None:
            for name, value in self.headers:
                self._trace.header(name, value)
        self._frame(version)

    def read(self, amount: int | None = None) -> bytes:
        """Up to ``amount`` bytes of the body (None: all of it); b"" once it has ended."""
        if self._done or amount == 0:
            return b""
        if self._chunked:
            return self._read_chunked(amount)
        if self.length is None:
            data = self._file.read(amount) if amount is not None else self._file.read()
            if amount is None or not data:
                self._done = True
            return data
        wanted = self.length if amount is None else min(amount, self.length)
        data = self._file.read(wanted)
        self.length -= len(data)
        if len(data) < wanted and amount is None:
            raise IncompleteRead(data, self.length)
        if self.length == 0:
            self._done = True
        return data

    def close(self) -> None:
        self._file.close()

    def _line(self, what: str) -> bytes:
        line = self._file.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise LineTooLong(what)
        return line

    def _status_line(self) -> tuple[str, int, str]:
        line = self._line("status line")
        if self._trace is not None:
            self._trace.status_line(line)
        if not line:
            raise RemoteDisconnected("Remote end closed connection without response")
        parts = line.decode("iso-8859-1").split(None, 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/"):
            raise BadStatusLine(repr(line))
        try:
            status = int(parts[1])
        except ValueError:
            raise BadStatusLine(repr(line)) from None
        if not 100 <= status <= 999:
            raise BadStatusLine(repr(line))
        return parts[0], status, parts[2].strip() if len(parts) > 2 else ""

    def _header_lines(self) -> list[tuple[str, str]]:
        """Header lines up to the empty one; a folded line continues the one before."""
        headers: list[tuple[str, str]] = []
        while True:
            line = self._line("header line")
            if line in _LINE_ENDS:
                return headers
            text = line.decode("iso-8859-1")
            if text[0] in " \t" and headers:
                name, value = headers[-1]
                headers[-1] = (name, f"{value} {text.strip()}".strip())
                continue
            name, colon, value = text.partition(":")
            if not colon or not name.strip():
                raise HTTPException(f"malformed header line {line!r}")
            if len(headers) >= MAX_HEADERS:
                raise HTTPException(f"got more than {MAX_HEADERS} headers")
            headers.append((name.strip(), value.strip()))

    def _values(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name]

    def _tokens(self, name: str) -> list[str]:
        """The comma-separated tokens of every ``name`` header, lower-cased."""
        return [t.strip().lower() for value in self._values(name) for t in value.split(",")]

    def _frame(self, version: str) -> None:
        """How the body ends, and whether the connection stays open after it."""
        connection = self._tokens("connection")
        if version == "HTTP/1.0":
            self.will_close = "keep-alive" not in connection and not self._values("keep-alive")
        else:
            self.will_close = "close" in connection
        if self._method == "HEAD" or self.status in _NO_BODY_STATUSES:
            self.length = 0
            self._done = True
            return
        codings = self._tokens("transfer-encoding")
        if codings:
            self._chunked = codings[-1] == "chunked"
            self.will_close = self.will_close or not self._chunked
            return
        lengths = {v.strip() for v in self._values("content-length")}
        if not lengths:
            self.will_close = True
            return
        text = lengths.pop()
        if lengths or not (text.isascii() and text.isdigit()):
            raise HTTPException(f"invalid Content-Length {sorted({text, *lengths})!r}")
        self.length = int(text)
        self._done = self.length == 0

    def _read_chunked(self, amount: int | None) -> bytes:
        parts: list[bytes] = []
        wanted = amount
        while wanted is None or wanted > 0:
            if self._chunk_left == 0:
                size = self._chunk_size()
                if size == 0:
                    self._trailers()
                    break
                self._chunk_left = size
            take = self._chunk_left if wanted is None else min(wanted, self._chunk_left)
            data = self._file.read(take)
            if len(data) < take:
                raise IncompleteRead(b"".join(parts) + data, take - len(data))
            parts.append(data)
            self._chunk_left -= take
            if wanted is not None:
                wanted -= take
            if self._chunk_left == 0 and self._line("chunk end") not in (b"\r\n", b"\n"):
                raise HTTPException("a chunk does not end with CRLF")
        return b"".join(parts)

    def _chunk_size(self) -> int:
        line = self._line("chunk size")
        if not line:
            raise IncompleteRead(b"")
        text = line.split(b";", 1)[0].strip()
        try:
            return int(text, 16)
        except ValueError:
            raise HTTPException(f"bad chunk size {line!r}") from None

    def _trailers(self) -> None:
        """Skip the trailer section; the body has ended."""
        while self._line("trailer line") not in _LINE_ENDS:
            pass
        self._done = True


def read_body(answer: Answer, connection: Connection, url: str, limit: int) -> bytes:
    """The body as sent, refused once it passes ``limit`` bytes (the rest is never read)."""
    if answer.length is not None and answer.length > limit:
        close_answer(answer, connection)
        raise BodyTooLarge(f"{url}: the answer's body is {answer.length} bytes (limit {limit})")
    # With a Content-Length (within the limit), read() notices an answer cut short.
    amount = None if answer.length is not None else limit + 1
    content = read_some(answer, connection, amount)
    if len(content) > limit:
        close_answer(answer, connection)
        raise BodyTooLarge(f"{url}: the answer's body is over {limit} bytes")
    return content


def close_answer(answer: Answer, connection: Connection) -> None:
    """Give up an answer and its connection (never reused after a failure)."""
    answer.close()
    connection.close()


def read_some(answer: Answer, connection: Connection, amount: int | None) -> bytes:
    """Up to ``amount`` bytes of the body (None: all); a failure closes the connection."""
    try:
        data = answer.read(amount)
    except BaseException as exc:
        close_answer(answer, connection)
        error = read_error(exc)
        if error is None:
            raise
        raise error from exc
    if not data and amount and answer.length:
        close_answer(answer, connection)  # read(n) returns b"" for a body cut short
        raise ConnectionDropped(
            f"Server disconnected mid-answer ({answer.length} more bytes expected)."
        )
    return data


def read_error(exc: BaseException) -> TransportError | None:
    """Our name for a failure while waiting for or reading an answer (None: not ours to name)."""
    if isinstance(exc, TimeoutError):
        return TransportTimeout(str(exc) or "timed out")
    if isinstance(exc, RemoteDisconnected):
        return ConnectionDropped("Server disconnected without sending a response.")
    if isinstance(exc, IncompleteRead):
        return ConnectionDropped(
            f"Server disconnected mid-answer ({len(exc.partial)} bytes read, "
            f"{exc.expected} more expected)."
        )
    if isinstance(exc, HTTPException):
        return ConnectionDropped(f"Malformed answer ({type(exc).__name__}: {exc})")
    if isinstance(exc, OSError):
        return ConnectionDropped(str(exc) or type(exc).__name__)
    return None
