"""The fake's JSON, in lazr.restful's shapes: the root, entries, pages, ETags.

Every key an entry carries is a param of its WADL representation, in the
WADL's order: a client that reads a field the WADL lists finds it (null
when not seeded), and finds nothing the WADL does not list.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from wadlclient.schema import FieldKind
from wadlclient.testing.description import Description
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.paths import quote_path
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

    def __init__(
        self,
        description: Description,
        base: str,
        collections: Mapping[str, str],
        root_paths: Mapping[str, str],
        web_link: Callable[[str, str], str] | None = None,
    ) -> None:
        self.description = description
        self.base = base
        #: ``web_link(type_id, path)``: an entry's web page (else its API URL)
        self.web_link = web_link
        #: top-level collection name -> its path; root entry link -> its fixed path (``me``)
        self.collections = collections
        self.root_paths = root_paths
        #: root entry links set by the test (``me``): name -> entry
        self.root_links: dict[str, FakeEntry] = {}

    def url(self, entry: FakeEntry) -> str:
        return self.url_of(entry.path)

    def url_of(self, path: str) -> str:
        """The absolute URL of a path below the root, quoted as Launchpad's are."""
        return self.base + quote_path(path)

    def root(self) -> dict[str, Any]:
        """Every link of the root's representation: collections, and entry links where set."""
        document: dict[str, Any] = {
            "resource_type_link": f"{self.base}#{self.description.root_type}"
        }
        for field in self.description.root.fields.values():
            if field.kind is FieldKind.COLLECTION:
                document[field.key] = self.url_of(self.collections.get(field.name, field.name))
            elif field.kind is FieldKind.ENTRY:
                document[field.key] = self.url_of(self.root_link_path(field.name))
        return document

    def root_link_path(self, name: str) -> str:
        """Where a root entry link leads: its fixed path (Launchpad's ``people/+me``), else
        the entry the test set, else its own name (answered 404 until it is set)."""
        fixed = self.root_paths.get(name)
        if fixed is not None:
            return fixed
        target = self.root_links.get(name)
        return target.path if target is not None else name

    def entry(self, entry: FakeEntry) -> dict[str, Any]:
        """The entry's JSON, ``http_etag`` included."""
        url = self.url(entry)
        document: dict[str, Any] = {}
        for field in entry.type.info.fields.values():
            key = field.key
            if key == "self_link":
                document[key] = url
            elif key == "web_link":
                document[key] = self.web_link(entry.type_id, entry.path) if self.web_link else url
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

    def json_value(self, value: Any) -> Any:
        """A handler's plain value as JSON: entries as their representation (as lazr.restful's
        encoder does), dates in ISO 8601; a value JSON cannot carry is a 500 naming it."""
        if isinstance(value, FakeEntry):
            return self.entry(value)
        if isinstance(value, (list, tuple)):
            return [self.json_value(item) for item in value]
        if isinstance(value, dict):
            return {str(key): self.json_value(item) for key, item in value.items()}
        if isinstance(value, date):
            return value.isoformat()
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        raise HTTPException(
            500, f"A handler returned {type(value).__name__} {value!r}, which JSON cannot carry."
        )
