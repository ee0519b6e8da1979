"""The fake's data: seeded entries, the collections that hold them, checked against the WADL.

Every value goes through the same checks whether a test seeds it or a
client PATCHes it (`Store.check_fields`), so a seed the real service could
never hold fails at once, naming the field. Where an entry lives comes
from its type's path rule (`wadlclient.testing.paths`), or ``self_link``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, NamedTuple

from wadlclient.schema import FieldKind
from wadlclient.testing.description import (
    META_FIELDS,
    Description,
    EntryType,
    check_scalar,
    did_you_mean,
)
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.links import path_of_link
from wadlclient.testing.paths import PathRule, PathSource, first_missing, path_from

__all__ = ["FakeEntry", "Layout", "Store"]


class Layout(NamedTuple):
    """Where things live: path rules (by entry type or collection), collections' paths, bases.

    ``bases`` are the versioned roots a link may be absolute under (the
    fake's own, and the WADL's published one).
    """

    rules: Mapping[str, PathRule]
    collections: Mapping[str, str]
    bases: Sequence[str]


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
    raise HTTPException(400, f"{name}: a hosted file is bytes or (media type, bytes).")


def _date_files(entry: FakeEntry, values: Mapping[str, Any]) -> None:
    """Note when each hosted file among ``values`` was stored (to the second, as HTTP dates go)."""
    now = datetime.now(timezone.utc).replace(microsecond=0)
    for name, value in values.items():
        if entry.type.info.fields[name].kind is FieldKind.HOSTED_FILE:
            if value is None:
                entry.file_dates.pop(name, None)
            else:
                entry.file_dates[name] = now


class FakeEntry:
    """One seeded entry: its type, where it lives, and its fields by name (links as entries)."""

    def __init__(self, entry_type: EntryType, path: str, values: dict[str, Any]) -> None:
        self.type = entry_type
        #: The path below the service root (``~ada``, ``bugs/1``).
        self.path = path
        self.values = values
        self.deleted = False
        #: hosted file name -> when its bytes were stored (its ``Last-Modified``)
        self.file_dates: dict[str, datetime] = {}

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

    def __init__(self, description: Description, layout: Layout) -> None:
        self.description = description
        self.layout = layout
        self.lock = threading.RLock()
        self.entries: dict[str, FakeEntry] = {}
        #: collection path ("people", "~ada/members") -> its entries, in order
        self.collections: dict[str, list[FakeEntry]] = {}
        #: collection path -> its top-level collection's name
        self.top_level = {layout.collections.get(n, n): n for n in description.collections}
        #: paths that redirect to an entry (Launchpad's ``people/+me``): a link to one
        #: names the entry, as Launchpad's ``RedirectionView.context`` makes it
        self.redirects: dict[str, FakeEntry] = {}
        self._counters: dict[str, int] = {}
        #: Called as ``observer(entry, old, new)`` after each change, outside the lock
        #: (the kit's webhooks, `wadlclient.testing.webhooks`, deliver from one).
        self.observers: list[Callable[[FakeEntry, dict[str, Any], dict[str, Any]], None]] = []

    def collection_path(self, name: str) -> str:
        """Where the top-level collection ``name`` is served (Launchpad's ``snaps``: ``+snaps``)."""
        return self.layout.collections.get(name, name)

    # -- checks --------------------------------------------------------------

    def check_fields(self, entry_type: EntryType, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Field name -> value, each checked against the WADL; a 400 names the first bad one."""
        checked: dict[str, Any] = {}
        known = entry_type.info.fields
        for name, value in fields.items():
            field = known.get(name)
            if field is None or field.key in META_FIELDS:
                raise HTTPException(
                    400, f"{name}: You tried to modify a nonexistent attribute"
                    f" of {entry_type.id}" + did_you_mean(name, entry_type.field_names()) + ".",
                )  # fmt: skip
            if field.kind is FieldKind.ENTRY:
                checked[name] = self.check_link(name, field.link_type, value)
            elif field.kind is FieldKind.HOSTED_FILE:
                checked[name] = _hosted_file(name, value)
            elif field.kind is FieldKind.COLLECTION:
                raise HTTPException(
                    400, f"{name}: a collection; fill it with add_to(), not a value."
                )
            else:
                checked[name] = check_scalar(name, entry_type.params.get(field.key), value)
        return checked

    def check_link(self, where: str, link_type: str | None, value: Any) -> FakeEntry | None:
        """The entry a link names: an entry, an absolute URL, ``/path``; 400 as lazr.restful's."""
        if value is None:
            return None
        if isinstance(value, FakeEntry):
            target: FakeEntry | None = value
        elif not isinstance(value, str):
            raise HTTPException(
                400, f"{where}: got '{type(value).__name__}', expected string: {value!r}"
            )
        else:
            path = path_of_link(value, self.layout.bases)
            target = None
            if path is not None:
                target = self.entries.get(path) or self.redirects.get(path)
        if target is None or target.deleted:
            raise HTTPException(400, f'{where}: No such object "{value}".')
        if link_type and not self.description.conforms(target.type_id, link_type):
            raise HTTPException(
                400, f"{where}: expected a link to a {link_type}, not a {target.type_id}."
            )
        return target

    # -- seeding -------------------------------------------------------------

    def add(
        self, collection: str, fields: Mapping[str, Any], self_link: str | None = None
    ) -> FakeEntry:
        """A new entry of a top-level collection, or of an entry type no collection lists."""
        described = self.description
        if collection not in described.collections and described.has_entry_type(collection):
            return self._create(described.entry_type(collection), None, None, fields, self_link)
        entry_type = described.entry_type_of(described.collection_type(collection))
        where = self.collection_path(collection)
        return self._create(entry_type, (collection, where), None, fields, self_link)

    def add_to(
        self,
        parent: FakeEntry,
        name: str,
        entry: FakeEntry | None,
        fields: Mapping[str, Any],
        self_link: str | None = None,
    ) -> FakeEntry:
        """An entry in a scoped collection (``bug.bug_tasks``): an existing one, or a new one."""
        field = parent.type.info.fields.get(name)
        if field is None or field.kind is not FieldKind.COLLECTION or field.link_type is None:
            raise HTTPException(
                400, f"{parent.type_id} has no collection {name!r}"
                + did_you_mean(name, parent.type.info.names(FieldKind.COLLECTION)),
            )  # fmt: skip
        entry_type = self.description.entry_type_of(field.link_type)
        where = f"{parent.path}/{name}"
        with self.lock:
            if entry is None:
                entry = self._create(entry_type, None, (parent, name), fields, self_link)
            elif entry.type_id != entry_type.id:
                raise HTTPException(
                    400, f"{where} holds {entry_type.id} entries, not {entry.type_id}."
                )
            self.collections.setdefault(where, []).append(entry)
        return entry

    def _create(
        self,
        entry_type: EntryType,
        listed_in: tuple[str, str] | None,
        scope: tuple[FakeEntry, str] | None,
        fields: Mapping[str, Any],
        self_link: str | None,
    ) -> FakeEntry:
        """Checked values, an id if the type has one, a path; listed in its collection."""
        with self.lock:
            values = self.check_fields(entry_type, fields)
            number = self._counters.get(entry_type.id, 0) + 1
            if "id" in entry_type.info.fields and values.get("id") is None:
                values["id"] = number
            source = PathSource(values, scope[0] if scope else None, number)
            if self_link is not None:
                path = self._explicit_path(self_link)
            else:
                path = self._path_for(entry_type, listed_in, scope, source)
            if path in self.entries or path in self.top_level:
                raise HTTPException(
                    409, f"An entry already lives at {path!r}: give it another key or self_link."
                )
            self._counters[entry_type.id] = number
            entry = FakeEntry(entry_type, path, values)
            _date_files(entry, values)
            self.entries[path] = entry
            if listed_in is not None:
                self.collections.setdefault(listed_in[1], []).append(entry)
        return entry

    def _explicit_path(self, self_link: str) -> str:
        path = path_of_link(self_link, self.layout.bases)
        if path is None and "://" not in self_link:
            path = self_link.strip("/")
        if not path:
            raise HTTPException(
                400, f"self_link {self_link!r} is not a path or URL below the service root."
            )
        return path

    def _path_for(
        self,
        entry_type: EntryType,
        listed_in: tuple[str, str] | None,
        scope: tuple[FakeEntry, str] | None,
        source: PathSource,
    ) -> str:
        """The path the layout's rule gives (by collection name, then type), else a default."""
        rules = self.layout.rules
        rule = rules.get(listed_in[0]) if listed_in is not None else None
        if rule is None:
            rule = rules.get(entry_type.id)
        if rule is not None:
            path = path_from(rule, source)
            if path is not None:
                return path
            if scope is None:
                raise HTTPException(
                    400, f"{entry_type.id} entries need {first_missing(rule, source)} to make "
                    "their URL (or give self_link=)",
                )  # fmt: skip
        values = source.values
        key = next((values[k] for k in ("name", "id") if values.get(k) is not None), source.number)
        if scope is not None:
            return f"{scope[0].path}/{scope[1]}/{key}"
        if listed_in is not None:
            return f"{listed_in[1]}/{key}"
        return f"{entry_type.id}/{source.number}"

    # -- changes -------------------------------------------------------------

    def change(self, entry: FakeEntry, changes: Mapping[str, Any]) -> None:
        """Checked values written; the entry's ETag changes with them; observers told."""
        with self.lock:
            new = self.check_fields(entry.type, changes)
            old = {name: entry.values.get(name) for name in new}
            entry.values.update(new)
            _date_files(entry, new)
        for observer in list(self.observers):
            observer(entry, old, new)

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

    def entries_of(self, collection: str | FakeEntry, name: str | None = None) -> list[FakeEntry]:
        """A top-level collection's entries (by its name), or an entry's scoped collection's."""
        if isinstance(collection, FakeEntry):
            field = collection.type.info.fields.get(name or "")
            if field is None or field.kind is not FieldKind.COLLECTION:
                raise HTTPException(
                    400, f"{collection.type_id} has no collection {name!r}"
                    + did_you_mean(name or "", collection.type.info.names(FieldKind.COLLECTION)),
                )  # fmt: skip
            return self.members(f"{collection.path}/{name}")
        if name is not None or collection not in self.description.collections:
            raise HTTPException(
                400, f"the service has no top-level collection {collection!r}"
                + did_you_mean(collection, list(self.description.collections)),
            )  # fmt: skip
        return self.members(self.collection_path(collection))

    def entry_at(self, link: str) -> FakeEntry | None:
        """The live entry a path or a URL below one of the roots names, or None."""
        path = path_of_link(link, self.layout.bases)
        if path is None and "://" not in link:
            path = link.strip("/")
        with self.lock:
            entry = self.entries.get(path or "") or self.redirects.get(path or "")
        return entry if entry is not None and not entry.deleted else None
