"""`HostedFile`: a file the service stores for an entry, read as it arrives, written on close."""

from __future__ import annotations

import io
import urllib.parse
from typing import Literal, overload

from wadlclient.http import StreamedResponse
from wadlclient.objects.resource import Resource, session_of, url_of
from wadlclient.schema import HOSTED_FILE_TYPE, TypeInfo

__all__ = [
    "HostedFile",
    "HostedFileBuffer",
    "HostedFileReader",
    "check_open_arguments",
    "content_disposition",
]

#: The modes a hosted file opens in.
READ = "r"
WRITE = "w"


class HostedFile(Resource):
    """A file the service stores for an entry (a cookbook's cover, say)."""

    __slots__ = ()

    def _info(self) -> TypeInfo:
        return TypeInfo(id=HOSTED_FILE_TYPE)

    @overload
    def open(
        self, mode: Literal["r"] = ..., content_type: None = None, filename: None = None
    ) -> HostedFileReader: ...

    @overload
    def open(
        self, mode: str, content_type: str | None = None, filename: str | None = None
    ) -> HostedFileReader | HostedFileBuffer: ...

    def open(
        self, mode: str = READ, content_type: str | None = None, filename: str | None = None
    ) -> HostedFileReader | HostedFileBuffer:
        """Read (``"r"``) the file as it arrives, or write it (``"w"``) when closed."""
        check_open_arguments(mode, content_type, filename)
        if mode == READ:
            transport = self._session.transport
            return HostedFileReader(self, transport.stream("GET", self._url, accept="*/*"))
        return HostedFileBuffer(self, mode, content_type, filename)

    def delete(self) -> None:
        """Remove the file from the server."""
        self._session.transport.request("DELETE", self._url)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HostedFile):
            return NotImplemented
        return self._url == other._url

    def __hash__(self) -> int:
        return hash(self._url)


def content_disposition(filename: str) -> str:
    """The ``Content-Disposition`` of an upload; RFC 6266 ``filename*`` when not ASCII."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in filename):
        raise ValueError("a file name may not contain control characters")
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    if escaped.isascii():
        return f'attachment; filename="{escaped}"'
    ascii_name = escaped.encode("ascii", "replace").decode("ascii")
    encoded = urllib.parse.quote(filename, safe="")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{encoded}"


def check_open_arguments(mode: str, content_type: str | None, filename: str | None) -> None:
    """Refuse what `HostedFile.open` cannot do: another mode, or naming a file being read."""
    if mode not in (READ, WRITE):
        raise ValueError("Invalid mode. Supported modes are: r, w")
    if mode == READ:
        if content_type is not None:
            raise ValueError("Files opened for read access can't specify content_type.")
        if filename is not None:
            raise ValueError("Files opened for read access can't specify filename.")


class HostedFileReader(io.BufferedIOBase):
    """A hosted file being read: its bytes as they arrive, never held whole.

    `HostedFile.open` sends the GET (following the redirect to the bytes)
    and raises the answer's error, if any. Read the reader to its end, or
    close it (``with``), to free the connection. It cannot seek; it belongs
    to the thread that opened it.
    """

    def __init__(self, hosted_file: HostedFile, stream: StreamedResponse) -> None:
        super().__init__()
        self.hosted_file = hosted_file
        self.url = url_of(hosted_file)
        self._stream = stream
        headers = stream.headers
        self.last_modified: str | None = headers.get("last-modified")
        self.content_type: str | None = headers.get("content-type")
        location = headers.get("content-location") or stream.url
        path = urllib.parse.urlsplit(location).path
        self.filename: str = urllib.parse.unquote(path.rsplit("/", 1)[-1])

    @property
    def mode(self) -> str:
        """``"r"``."""
        return READ

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        """Up to ``size`` bytes (all that is left when -1 or None); b"" at the end."""
        return self._stream.read(size)

    def read1(self, size: int = -1) -> bytes:
        return self._stream.read1(size)

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        return self._stream.readinto(buffer)

    def readline(self, size: int | None = -1) -> bytes:
        return self._stream.readline(size)

    def close(self) -> None:
        """Close the stream (its connection is reused only if it was read to its end)."""
        self._stream.close()
        super().close()

    def __repr__(self) -> str:
        return f"<HostedFileReader {self.url}>"


class HostedFileBuffer(io.BytesIO):
    """The bytes of a hosted file to upload: closing the buffer sends them (PUT).

    A buffer belongs to the thread that opened it.
    """

    #: Whether __init__ accepted its arguments. io's finalizer closes even a buffer
    #: whose __init__ raised (Python 3.13 does so at once): that one uploads nothing.
    _accepted = False

    def __init__(
        self,
        hosted_file: HostedFile,
        mode: str,
        content_type: str | None = None,
        filename: str | None = None,
    ) -> None:
        self.hosted_file = hosted_file
        self.url = url_of(hosted_file)
        self._mode = mode
        self.last_modified: str | None = None
        if content_type is None:
            raise ValueError("Files opened for write access must specify content_type.")
        if filename is None:
            raise ValueError("Files opened for write access must specify filename.")
        self._disposition = content_disposition(filename)
        self.content_type = content_type
        self.filename = filename
        super().__init__()
        self._accepted = True

    @property
    def mode(self) -> str:
        """``"r"`` or ``"w"``."""
        return self._mode

    def close(self) -> None:
        """Upload the written bytes (write mode), then close."""
        if not self.closed and self._accepted:
            session_of(self.hosted_file).transport.request(
                "PUT",
                self.url,
                body=self.getvalue(),
                content_type=self.content_type,
                headers={"Content-Disposition": self._disposition},
            )
        super().close()

    def __repr__(self) -> str:
        return f"<HostedFileBuffer {self.mode!r} {self.url}>"
