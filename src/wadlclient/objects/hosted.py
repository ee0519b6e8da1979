"""`HostedFile`: a file the service stores for an entry, read and written through a buffer."""

from __future__ import annotations

import io
import urllib.parse

from wadlclient.objects.resource import Resource, session_of, url_of
from wadlclient.schema import HOSTED_FILE_TYPE, TypeInfo

__all__ = ["HostedFile", "HostedFileBuffer", "content_disposition"]

#: The modes a hosted file opens in.
READ = "r"
WRITE = "w"


class HostedFile(Resource):
    """A file the service stores for an entry (a cookbook's cover, say)."""

    __slots__ = ()

    def _info(self) -> TypeInfo:
        return TypeInfo(id=HOSTED_FILE_TYPE)

    def open(
        self, mode: str = READ, content_type: str | None = None, filename: str | None = None
    ) -> HostedFileBuffer:
        """Read (``"r"``) the file now, or write it (``"w"``) when the buffer is closed."""
        if mode not in (READ, WRITE):
            raise ValueError("Invalid mode. Supported modes are: r, w")
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


class HostedFileBuffer(io.BytesIO):
    """The bytes of a hosted file; in ``"w"`` mode, closing it uploads them (PUT).

    A buffer belongs to the thread that opened it.
    """

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
        value = b""
        if mode == READ:
            if content_type is not None:
                raise ValueError("Files opened for read access can't specify content_type.")
            if filename is not None:
                raise ValueError("Files opened for read access can't specify filename.")
            value, content_type, filename = self._download()
        else:
            if content_type is None:
                raise ValueError("Files opened for write access must specify content_type.")
            if filename is None:
                raise ValueError("Files opened for write access must specify filename.")
            self._disposition = content_disposition(filename)
        self.content_type = content_type
        self.filename = filename
        super().__init__(value)

    def _download(self) -> tuple[bytes, str | None, str]:
        """GET the file: ``(bytes, content type, file name)``; notes its Last-Modified."""
        transport = session_of(self.hosted_file).transport
        response = transport.request("GET", self.url, accept="*/*")
        self.last_modified = response.headers.get("last-modified")
        location = response.headers.get("content-location") or response.url
        path = urllib.parse.urlsplit(location).path
        filename = urllib.parse.unquote(path.rsplit("/", 1)[-1])
        return response.content, response.headers.get("content-type"), filename

    @property
    def mode(self) -> str:
        """``"r"`` or ``"w"``."""
        return self._mode

    def close(self) -> None:
        """Upload the written bytes (write mode), then close."""
        if self.mode == WRITE and not self.closed:
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
