"""lazr.restfulclient's hosted files: read whole through the cache, written then sent on close."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from wadlclient import objects as _objects
from wadlclient.lazr import named_as_lazr
from wadlclient.lazr.restfulclient._surface import RESOURCE_MODULE, LazrSurface, WadlResource
from wadlclient.objects import session_of, url_of
from wadlclient.objects.hosted import check_open_arguments

__all__ = ["HostedFile", "HostedFileBuffer", "WadlResource"]


@named_as_lazr
class HostedFileBuffer(_objects.HostedFileBuffer):
    """A hosted file's bytes, as lazr holds them: read whole, or written then sent on close.

    As in lazr, ``write`` returns None, and a file opened for reading is
    fetched whole through the cache (so a second read revalidates it
    with a conditional GET instead of downloading it again).
    """

    __module__ = RESOURCE_MODULE

    def __init__(
        self,
        hosted_file: _objects.HostedFile,
        mode: str,
        content_type: str | None = None,
        filename: str | None = None,
        *,
        content: bytes = b"",
        last_modified: str | None = None,
    ) -> None:
        if mode != "r":
            super().__init__(hosted_file, mode, content_type, filename)
            return
        io.BytesIO.__init__(self, content)
        self.hosted_file = hosted_file
        self.url = url_of(hosted_file)
        self._mode = mode
        self.content_type = content_type  # type: ignore[assignment]
        self.filename = filename  # type: ignore[assignment]
        self.last_modified = last_modified

    def write(self, data: Any) -> None:  # type: ignore[override]
        super().write(data)

    def close(self) -> None:
        """Send the written bytes (write mode), then close."""
        if self._mode == "r":
            io.BytesIO.close(self)
        else:
            super().close()


@named_as_lazr
class HostedFile(LazrSurface, _objects.HostedFile):
    """A file the service stores, as lazr.restfulclient's ``HostedFile``."""

    __module__ = RESOURCE_MODULE
    __slots__ = ()

    def _lazr_params(self) -> dict[str, str | None]:
        """A hosted file has no JSON representation, so no parameters (as lazr)."""
        return {}

    def lp_refresh(self, new_url: str | None = None, etag: str | None = None) -> None:
        """Nothing is held to refresh: every ``open()`` reads the file anew."""

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))

    def open(
        self, mode: str = "r", content_type: str | None = None, filename: str | None = None
    ) -> Any:
        if mode == "w":
            return HostedFileBuffer(self, mode, content_type, filename)
        check_open_arguments(mode, content_type, filename)
        return self._read_whole()

    def _read_whole(self) -> HostedFileBuffer:
        """The file's bytes, through the cache, as lazr reads them.

        The service answers with a redirect to the bytes; they are asked for
        at their own URL, so the cache keeps and revalidates them there.
        """
        transport = session_of(self).transport
        response = transport.request("GET", url_of(self), accept="*/*", follow_redirects=False)
        location = response.headers.get("location")
        if 300 <= response.status < 400 and location:
            target = urljoin(url_of(self), location)
            response = transport.request("GET", target, accept="*/*")
        path = urlsplit(response.headers.get("content-location") or response.url).path
        return HostedFileBuffer(
            self,
            "r",
            response.headers.get("content-type"),
            unquote(path.rsplit("/", 1)[-1]),
            content=response.content,
            last_modified=response.headers.get("last-modified"),
        )
