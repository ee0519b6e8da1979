"""lazr.restfulclient's ``Collection``: wadlclient's paged collection, with lazr's surface."""

from __future__ import annotations

from typing import Any

from wadlclient import objects as _objects
from wadlclient.errors import ResponseError
from wadlclient.lazr import named_as_lazr
from wadlclient.lazr.restfulclient._surface import RESOURCE_MODULE, LazrSurface, WadlResource
from wadlclient.objects import url_of
from wadlclient.objects.collection import first_page_of, forget_pages

__all__ = ["Collection"]


@named_as_lazr
class Collection(LazrSurface, _objects.Collection[_objects.Entry]):
    """A collection of the service, as lazr.restfulclient's ``Collection``.

    Its parameters are those of its first page (``total_size``, ``start``,
    ``entries``), read from that page as lazr reads them.
    """

    __module__ = RESOURCE_MODULE
    __slots__ = ()

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))

    def _lazr_type(self) -> str | None:
        info = self._state.info
        if info is not None and info.id is not None:
            return info.id
        return f"{self._entry_type}-page-resource" if self._entry_type else None

    def _lazr_document(self) -> dict[str, Any]:
        page = first_page_of(self)
        document: dict[str, Any] = {"entries": page.entries}
        for key, value in (
            ("total_size", page.total), ("start", page.start),
            ("next_collection_link", page.next), ("total_size_link", page.total_link),
        ):  # fmt: skip
            if value is not None:
                document[key] = value
        return document

    def _lookup(self, name: str) -> Any:
        """A named operation, else a parameter of the page (lazr's order)."""
        try:
            return super()._lookup(name)
        except AttributeError:
            try:
                return self.lp_get_parameter(name)
            except KeyError:
                raise self._no_attribute(name) from None

    def lp_refresh(self, new_url: str | None = None, etag: str | None = None) -> None:
        """Fetch the first page again at the next read."""
        forget_pages(self)

    def __len__(self) -> int:
        """As lazr: a size the service does not give as a whole number is a ``TypeError``.

        (So ``list(collection)``, which asks for the length first and
        ignores only a TypeError, still lists the entries.)
        """
        try:
            return super().__len__()
        except ResponseError as error:
            raise TypeError(f"collection size is not available: {error}") from error
