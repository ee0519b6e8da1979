"""The fake's data: seeded entries, the collections that hold them, checked against the WADL.

Every value goes through the same checks whether a test seeds it or a
client PATCHes it (`Store.check_fields`), so a seed the real service could
never hold fails at once, naming the field.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from wadlclient.schema import FieldKind
from wadlclient.testing.description import (
    META_FIELDS,
    Description,
    EntryType,
    Refused,
    check_scalar,
    did_you_mean,
)

__all__ = ["FakeEntry", "Store"]

#: Where Launchpad keeps the entries of its key-addressed collections
#: (what launchpadlib's ``lp.people["ada"]`` and ``lp.bugs[1]`` ask for).
LAUNCHPAD_PATHS: Mapping[str, str] = {
    "people": "~{name}",
    "bugs": "bugs/{id}",
    "distributions": "{name}",
    "projects": "{name}",
    "project_groups": "{name}",
}


def _hosted_file(name: str, value: Any) -> tuple[str, bytes] | None:
    """A hosted file's (media type, bytes): given as bytes, or as the pair."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return "application/octet-stream", value
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], bytes)
    ):
        return value[0], value[1]
    raise Refused(400, f"{name}: a hosted file is bytes or (media type, bytes).")


class FakeEntry:
    """One seeded entry: its type, where it lives, and its fields by name (links as entries)."""

    def __init__(self, entry_type: EntryType, path: str, values: dict[str, Any]) -> None:
        self.type = entry_type
        #: The path below the service root (``~ada``, ``bugs/1``).
        self.path = path
        self.values = values
        self.deleted = False

    @property
    def type_id(self) -> str:
        return self.type.id

    def __getitem__(self, name: str) -> Any:
        if name not in self.type.info.fields:
            raise KeyError(
                f"{self.type.id} has no field {name!r}" + did_you_mean(name, self.type.info.fields)
            )
        return self.values.get(name)

    def __repr__(self) -> str:
        return f"<FakeEntry {self.type.id} {self.path}>"


class Store:
    """Entries by path, top-level and scoped collections; one lock for all of it."""

    def __init__(self, description: Description, paths: Mapping[str, str]) -> None:
        self.description = description
        self.paths = dict(paths)
        self.lock = threading.RLock()
        self.entries: dict[str, FakeEntry] = {}
        #: collection path ("people", "~ada/members") -> its entries, in order
        self.collections: dict[str, list[FakeEntry]] = {}
        self._counters: dict[str, int] = {}

    # -- checks --------------------------------------------------------------

    def check_fields(self, entry_type: EntryType, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Field name -> value, each checked against the WADL; Refused naming the first bad one."""
        checked: dict[str, Any] = {}
        known = entry_type.info.fields
        for name, value in fields.items():
            field = known.get(name)
            if field is None or field.key in META_FIELDS:
                raise Refused(
                    400, f"{name}: You tried to modify a nonexistent attribute"
                    f" of {entry_type.id}" + did_you_mean(name, entry_type.field_names()) + ".",
                )  # fmt: skip
            if field.kind is FieldKind.ENTRY:
                checked[name] = self.check_link(name, field.link_type, value)
            elif field.kind is FieldKind.HOSTED_FILE:
                checked[name] = _hosted_file(name, value)
            elif field.kind is FieldKind.COLLECTION:
                raise Refused(400, f"{name}: a collection; fill it with add_to(), not a value.")
            else:
                checked[name] = check_scalar(name, entry_type.params.get(field.key), value)
        return checked

    def check_link(self, where: str, link_type: str | None, value: Any) -> FakeEntry | None:
        """The entry a link names (an entry, or its URL path); Refused for another type."""
        if value is None:
            return None
        target = value if isinstance(value, FakeEntry) else self.entries.get(str(value))
        if target is None or target.deleted:
            raise Refused(400, f"{where}: {value!r} is not an entry of this service.")
        if link_type and not self.description.conforms(target.type_id, link_type):
            raise Refused(
                400, f"{where}: expected a link to a {link_type}, not a {target.type_id}."
            )
        return target

    # -- seeding -------------------------------------------------------------

    def add(self, collection: str, fields: Mapping[str, Any]) -> FakeEntry:
        """A new entry of a top-level collection."""
        entry_type = self.description.entry_type_of(self.description.collection_type(collection))
        return self._create(entry_type, collection, self.paths.get(collection), fields)

    def add_to(
        self, parent: FakeEntry, name: str, entry: FakeEntry | None, fields: Mapping[str, Any]
    ) -> FakeEntry:
        """An entry in a scoped collection (``bug.bug_tasks``): an existing one, or a new one."""
        field = parent.type.info.fields.get(name)
        if field is None or field.kind is not FieldKind.COLLECTION or field.link_type is None:
            raise Refused(
                400, f"{parent.type_id} has no collection {name!r}"
                + did_you_mean(name, parent.type.info.names(FieldKind.COLLECTION)),
            )  # fmt: skip
        entry_type = self.description.entry_type_of(field.link_type)
        where = f"{parent.path}/{name}"
        with self.lock:
            if entry is None:
                entry = self._create(entry_type, where, None, fields, listed=False)
            elif entry.type_id != entry_type.id:
                raise Refused(400, f"{where} holds {entry_type.id} entries, not {entry.type_id}.")
            self.collections.setdefault(where, []).append(entry)
        return entry

    def _create(
        self,
        entry_type: EntryType,
        collection: str,
        template: str | None,
        fields: Mapping[str, Any],
        *,
        listed: bool = True,
    ) -> FakeEntry:
        with self.lock:
            values = self.check_fields(entry_type, fields)
            number = self._counters.get(collection, 0) + 1
            self._counters[collection] = number
            if "id" in entry_type.info.fields and values.get("id") is None:
                values["id"] = number
            key_values = {k: quote(str(v), safe="") for k, v in values.items()}
            if template is None:
                template = f"{collection}/" + self._default_template(values)
            try:
                path = template.format(n=number, **key_values)
            except KeyError as missing:
                raise Refused(
                    400, f"{collection} entries need {missing} (their URL is {template!r})."
                ) from None
            if path in self.entries:
                raise Refused(409, f"An entry already lives at {path!r}: give it another key.")
            entry = FakeEntry(entry_type, path, values)
            self.entries[path] = entry
            if listed:
                self.collections.setdefault(collection, []).append(entry)
        return entry

    @staticmethod
    def _default_template(values: Mapping[str, Any]) -> str:
        """``{name}`` when the entry has a name, else ``{id}``, else its number."""
        for key in ("name", "id"):
            if values.get(key) is not None:
                return "{" + key + "}"
        return "{n}"

    # -- changes -------------------------------------------------------------

    def change(self, entry: FakeEntry, changes: Mapping[str, Any]) -> None:
        """Checked values written; the entry's ETag changes with them."""
        with self.lock:
            entry.values.update(self.check_fields(entry.type, changes))

    def delete(self, entry: FakeEntry) -> None:
        """The entry gone from its path and from every collection."""
        with self.lock:
            entry.deleted = True
            self.entries.pop(entry.path, None)
            for members in self.collections.values():
                if entry in members:
                    members.remove(entry)

    def members(self, path: str) -> list[FakeEntry]:
        with self.lock:
            return list(self.collections.get(path, ()))
