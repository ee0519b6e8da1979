"""`StreamedResponse`: an answer whose body is read as the caller asks, never held whole.

A sender that streams hands over a ``read(n)`` over the body as sent and
two callbacks: ``release`` when the body was read to its end (the
connection may be reused) and ``discard`` when it is closed before (the
connection must not be). gzip and deflate are undone a piece at a time;
the body cap counts both the bytes sent and the bytes decoded.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Sequence

from wadlclient.errors import ResponseError
from wadlclient.headers import Headers
from wadlclient.http.models import DEFAULT_MAX_BODY, Response
from wadlclient.http.wire import BodyTooLarge

__all__ = ["StreamedResponse", "whole_stream"]

#: Bytes asked of the wire (or of a decoder) at a time.
_PIECE = 64 * 1024

Read = Callable[[int], bytes]


class _Inflate:
    """One zlib stream (gzip, or deflate zlib-wrapped or raw) decoded from ``upstream``."""

    def __init__(self, upstream: Read, coding: str) -> None:
        self._upstream = upstream
        self._coding = coding
        self._decoder: zlib._Decompress | None = None
        self._input = b""

    def read(self, size: int) -> bytes:
        """Up to ``size`` decoded bytes; b"" at the end of the stream."""
        while True:
            if self._decoder is not None and self._decoder.eof:
                return b""
            if not self._input:
                self._input = self._upstream(_PIECE)
                if not self._input:
                    raise zlib.error("incomplete or truncated stream")
            decoder = self._decoder or self._start()
            out = decoder.decompress(self._input, size)
            self._input = decoder.unconsumed_tail
            if out:
                return out

    def _start(self) -> zlib._Decompress:
        """The decoder, chosen by the first bytes for deflate (servers send both kinds)."""
        if self._coding == "deflate":
            while len(self._input) < 2:
                more = self._upstream(_PIECE)
                if not more:
                    break
                self._input += more
            wrapped = len(self._input) >= 2 and _is_zlib_header(self._input[:2])
            wbits = zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS
        else:
            wbits = zlib.MAX_WBITS | 16
        self._decoder = zlib.decompressobj(wbits)
        return self._decoder


def _is_zlib_header(head: bytes) -> bool:
    """RFC 1950: compression method 8, and the two bytes a multiple of 31."""
    return head[0] & 0x0F == 8 and (head[0] * 256 + head[1]) % 31 == 0


class _Body(io.RawIOBase):
    """The decoded body, counted against the cap; tells the sender how it ended."""

    def __init__(
        self,
        read: Read,
        codings: Sequence[str],
        *,
        url: str,
        max_body: int,
        release: Callable[[], None],
        discard: Callable[[], None],
    ) -> None:
        super().__init__()
        self._url = url
        self._max_body = max_body
        self._sent = 0
        self._decoded = 0
        self._wire = read
        self._read = self._counted_wire
        for coding in reversed(codings):
            self._read = _Inflate(self._read, coding).read
        self._release: Callable[[], None] | None = release
        self._discard = discard

    def readable(self) -> bool:
        return True

    def _counted_wire(self, size: int) -> bytes:
        data = self._wire(size)
        self._sent += len(data)
        if self._sent > self._max_body:
            raise BodyTooLarge(f"{self._url}: the answer's body is over {self._max_body} bytes")
        return data

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        """Fill ``buffer`` from the body; 0 at its end (and the connection is released)."""
        if self.closed:
            raise ValueError("read from a closed answer")
        try:
            data = self._read(len(buffer))
        except zlib.error as error:
            self._abandon()
            raise ResponseError(f"{self._url}: the answer's body does not decode") from error
        except BaseException:
            self._abandon()
            raise
        if not data:
            self._finish()
            return 0
        self._decoded += len(data)
        if self._decoded > self._max_body:
            self._abandon()
            raise BodyTooLarge(
                f"{self._url}: the answer's body decodes to more than {self._max_body} bytes"
            )
        buffer[: len(data)] = data
        return len(data)

    def _finish(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def _abandon(self) -> None:
        if self._release is not None:
            self._release = None
            self._discard()

    def close(self) -> None:
        """Give the connection up unless the body was read to its end."""
        if not self.closed:
            self._abandon()
        super().close()


class StreamedResponse(io.BufferedReader):
    """An answer being read: ``status``, ``reason``, ``headers``, ``url``, and a binary file.

    ``read(n)``, ``readinto``, ``readline`` and iteration read the decoded
    body as it arrives; ``close`` (or leaving a ``with`` block) hands the
    connection back when the body was read whole, and drops it otherwise.
    It cannot seek. One thread reads it.
    """

    def __init__(
        self,
        response_head: tuple[int, str, Headers, str],
        read: Read,
        *,
        codings: Sequence[str] = (),
        max_body: int = DEFAULT_MAX_BODY,
        release: Callable[[], None] = lambda: None,
        discard: Callable[[], None] = lambda: None,
    ) -> None:
        self.status, self.reason, self.headers, self.url = response_head
        body = _Body(
            read, codings, url=self.url, max_body=max_body, release=release, discard=discard
        )
        super().__init__(body, _PIECE)

    def __repr__(self) -> str:
        return f"<StreamedResponse {self.status} {self.reason} {self.url}>"


def whole_stream(response: Response) -> StreamedResponse:
    """An answer already read whole and decoded (by a sender that cannot stream), as a stream."""
    head = (response.status, response.reason, response.headers, response.url)
    return StreamedResponse(head, io.BytesIO(response.content).read, max_body=len(response.content))
