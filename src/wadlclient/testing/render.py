"""The fake's JSON, in lazr.restful's shapes: the root, entries, pages, ETags.

Every key an entry carries is a param of its WADL representation, in the
WADL's order: a client that reads a field the WADL lists finds it (null
when not seeded), and finds nothing the WADL does not list.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from wadlclient.schema import FieldKind
from wadlclient.testing.description import Description
from wadlclient.testing.store import FakeEntry

__all__ = ["DEFAULT_PAGE_SIZE", "MAX_PAGE_SIZE", "Renderer", "etag_of"]

#: Launchpad's batch sizes: 75 unless ``ws.size`` asks, at most 300.
DEFAULT_PAGE_SIZE = 75
MAX_PAGE_SIZE = 300


def etag_of(document: dict[str, Any]) -> str:
    """A strong ETag from the content: a change to any field changes it."""
    text = json.dumps(document, sort_keys=True, default=str)
    return '"' + hashlib.sha1(text.encode("utf-8")).hexdigest() + '"'


class Renderer:
    """Builds documents with absolute links under ``base`` (``http://127.0.0.1:N/1.0/``)."""

    def __init__(self, description: Description, base: str) -> None:
        self.description = description
        self.base = base
        #: root entry links set by the test (``me``): name -> entry
        self.root_links: dict[str, FakeEntry] = {}

    def url(self, entry: FakeEntry) -> str:
        return self.base + entry.path

    def root(self) -> dict[str, Any]:
        """Every link of the root's representation: collections by name, entry links if set."""
        document: dict[str, Any] = {
            "resource_type_link": f"{self.base}#{self.description.root_type}"
        }
        for field in self.description.root.fields.values():
            if field.kind is FieldKind.COLLECTION:
                document[field.key] = self.base + field.name
            elif field.kind is FieldKind.ENTRY:
                target = self.root_links.get(field.name)
                document[field.key] = self.url(target) if target else self.base + field.name
        return document

    def entry(self, entry: FakeEntry) -> dict[str, Any]:
        """The entry's JSON, ``http_etag`` included."""
        url = self.url(entry)
        document: dict[str, Any] = {}
        for field in entry.type.info.fields.values():
            key = field.key
            if key == "self_link" or key == "web_link":
                document[key] = url
            elif key == "resource_type_link":
                document[key] = f"{self.base}#{entry.type_id}"
            elif key == "http_etag":
                continue
            elif field.kind in (FieldKind.COLLECTION, FieldKind.HOSTED_FILE):
                document[key] = f"{url}/{field.name}"
            elif field.kind is FieldKind.ENTRY:
                target = entry.values.get(field.name)
                document[key] = self.url(target) if target is not None else None
            else:
                document[key] = entry.values.get(field.name)
        document["http_etag"] = etag_of(document)
        return document

    def page(
        self,
        entries: list[FakeEntry],
        start: int,
        size: int,
        type_id: str,
        page_url: Callable[[int, int], str],
    ) -> dict[str, Any]:
        """One page: ``total_size``, ``start``, its entries, links to the pages beside it."""
        total = len(entries)
        document: dict[str, Any] = {
            "total_size": total,
            "start": start,
            "entries": [self.entry(entry) for entry in entries[start : start + size]],
            "resource_type_link": f"{self.base}#{type_id}-page-resource",
        }
        if start + size < total:
            document["next_collection_link"] = page_url(start + size, size)
        if start > 0:
            document["prev_collection_link"] = page_url(max(0, start - size), size)
        return document
