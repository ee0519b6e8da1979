"""JSON representations of entries and pages, generated from the schema.

Every key an entry's JSON carries comes from its :class:`schema.EntryType`
fields, so the WADL and the JSON cannot drift apart. Links are absolute,
built from the root URL of the request (its scheme and Host).
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from cookbook_service.schema import REDACTED, EntryType, Field
from cookbook_service.store import Row, Store

#: Fields an anonymous caller sees as :data:`REDACTED`: (entry type, field name).
REDACTED_FOR_ANONYMOUS: frozenset[tuple[str, str]] = frozenset({("recipe", "cookbook")})


def etag_of(document: Any) -> str:
    """A strong ETag derived from a document's content (its ``repr``: fast, stable).

    Documents are built in a fixed key order, so equal content gives an
    equal tag.
    """
    return '"' + hashlib.sha1(repr(document).encode("utf-8")).hexdigest() + '"'


def _decimal_json(text: str) -> float | int:
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() and "." not in text else float(value)


class Renderer:
    """Builds URLs and representations for one request.

    ``root`` is the versioned service root URL, e.g. ``http://host:80/1.0/``.
    """

    def __init__(self, root: str, store: Store, *, anonymous: bool) -> None:
        self.root = root
        self.store = store
        self.anonymous = anonymous
        self._cookbook_urls: dict[int, str] = {}

    # -- URLs ----------------------------------------------------------------

    def recipe_url(self, recipe_id: int) -> str:
        return f"{self.root}recipes/{recipe_id}"

    def dish_url(self, dish_id: int) -> str:
        return f"{self.root}dishes/{dish_id}"

    def cookbook_url(self, name: str) -> str:
        return f"{self.root}cookbooks/{quote(name, safe='')}"

    def cookbook_url_by_id(self, cookbook_id: int) -> str:
        """A cookbook's URL from its id (looked up once per request)."""
        url = self._cookbook_urls.get(cookbook_id)
        if url is None:
            row = self.store.cookbook(cookbook_id)
            url = self.cookbook_url("" if row is None else str(row["name"]))
            self._cookbook_urls[cookbook_id] = url
        return url

    def url_of(self, entry_type: EntryType, row: Row) -> str:
        if entry_type.name == "recipe":
            return self.recipe_url(int(row["id"]))
        if entry_type.name == "dish":
            return self.dish_url(int(row["id"]))
        return self.cookbook_url(str(row["name"]))

    # -- representations -----------------------------------------------------

    def _value(self, entry_type: EntryType, field: Field, row: Row, url: str) -> Any:
        if field.kind == "collection":
            return f"{url}/{field.name}"
        if field.kind == "hosted_file":
            return f"{url}/{field.name}"
        if field.kind == "link":
            target_id = int(row[f"{field.name}_id"])
            if field.target == "dish":
                return self.dish_url(target_id)
            return self.cookbook_url_by_id(target_id)
        value = row[field.name]
        if value is None:
            return None
        if field.kind == "boolean":
            return bool(value)
        if field.kind == "decimal":
            return _decimal_json(str(value))
        return value

    def entry(self, entry_type: EntryType, row: Row) -> dict[str, Any]:
        """The entry's full JSON representation, ``http_etag`` included."""
        url = self.url_of(entry_type, row)
        document: dict[str, Any] = {
            "self_link": url,
            "resource_type_link": f"{self.root}#{entry_type.name}",
        }
        for field in entry_type.fields:
            if self.anonymous and (entry_type.name, field.name) in REDACTED_FOR_ANONYMOUS:
                document[field.json_name] = REDACTED
            else:
                document[field.json_name] = self._value(entry_type, field, row, url)
        document["http_etag"] = etag_of(document)
        return document

    def page(
        self,
        entry_type: EntryType,
        rows: list[Row],
        total: int,
        start: int,
        size: int,
        page_url: Any,
    ) -> dict[str, Any]:
        """A collection page; ``page_url(start, size)`` builds sibling page links."""
        document: dict[str, Any] = {
            "total_size": total,
            "start": start,
            "entries": [self.entry(entry_type, row) for row in rows],
            "resource_type_link": f"{self.root}#{entry_type.name}-page-resource",
        }
        if start + size < total:
            document["next_collection_link"] = page_url(start + size, size)
        if start > 0:
            document["prev_collection_link"] = page_url(max(0, start - size), size)
        return document
