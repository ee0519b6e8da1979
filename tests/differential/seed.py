"""A fake service with every entry type of a WADL seeded, and the plan of probes to run on it.

Every entry type gets `COPIES` entries, each with every field set: a
value of the field's WADL type (the first option, a date, a number...),
links to seeded entries of the linked type, a hosted file's bytes, and
every scoped collection filled with the seeded entries of its type.
Every named operation of every resource type gets a handler that
answers what its WADL declares, from the seeded entries, and changes
nothing: both clients' runs see the same service.

The plan (`Plan`) is plain JSON, so a child process of either client
reads it: the entries to probe (one per type), the top-level
collections, and for each owner the operations with their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wadlclient.facts.launchpad import ARGUMENTS
from wadlclient.schema import FieldKind
from wadlclient.testing import FakeEntry, FakeService
from wadlclient.testing.description import META_FIELDS
from wadlclient.wadl import Method, Param

__all__ = ["COPIES", "Plan", "seeded"]

#: Entries per type: enough for slices and ``total_size`` to mean something.
COPIES = 3

_NUMBERS = frozenset({"int", "integer", "long", "short"})


@dataclass
class Plan:
    """What the probes run: JSON-able, read by the child (`tests.differential.probe`)."""

    #: entry type -> the URL of its first seeded entry
    entries: dict[str, str] = field(default_factory=dict)
    #: top-level collection names
    collections: list[str] = field(default_factory=list)
    #: top-level collection name -> its resource type
    collection_types: dict[str, str] = field(default_factory=dict)
    #: resource type (an entry's, a collection's, the root's) -> operation -> arguments
    operations: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: top-level collection name -> the URL of its first page of one entry (another page type)
    pages: dict[str, str] = field(default_factory=dict)
    #: resource type -> a probe that exercises it (the test checks each was observed)
    covered: dict[str, str] = field(default_factory=dict)
    root_type: str = ""
    service_root: str = ""
    version: str = ""

    def as_json(self) -> dict[str, Any]:
        return dict(vars(self))


def scalar(param: Param | None, name: str) -> Any:
    """A value of the param's WADL type, the same on every run."""
    if param is None:
        return f"{name} value"
    if param.options:
        return param.options[0]
    kind = param.type or ""
    if kind == "dateTime":
        return "2024-01-02T03:04:05.678901+00:00"
    if kind == "date":
        return "2024-01-02"
    if kind in _NUMBERS:
        return 7
    if kind == "boolean":
        return True
    if kind in ("decimal", "float", "double"):
        return 1.5
    return f"{name} value"


class _Seeder:
    def __init__(self, fake: FakeService) -> None:
        self.fake = fake
        self.description = fake.description
        self.schema = fake.description.schema
        self.by_type: dict[str, list[FakeEntry]] = {}
        # Not entries, though the WADL gives them JSON: the root, and the size of a page.
        others = {self.description.root_type, "ScalarValue"}
        self.types = sorted(
            t for t in self.schema.app.resource_types if t not in others and self._is_entry(t)
        )
        self.listed = {}
        for name, collection_type in sorted(self.description.collections.items()):
            entry_type = self.schema.type_info(collection_type).entry_type
            if entry_type is not None:
                self.listed.setdefault(entry_type, name)

    def pages_link_their_size(self) -> bool:
        """Whether the WADL's pages may give ``total_size_link`` (a param of their JSON)."""
        for type_id in self.schema.app.resource_types:
            if type_id.endswith("-page-resource"):
                representation = self.schema.app.json_representation(type_id)
                return representation is not None and any(
                    param.name == "total_size_link" for param in representation.params
                )
        return False

    def _is_entry(self, type_id: str) -> bool:
        return self.description.has_entry_type(type_id)

    def conforming(self, link_type: str | None) -> FakeEntry | None:
        """A seeded entry that may stand where the WADL links a ``link_type``."""
        if link_type is None:
            return None
        link_type = link_type.rpartition("#")[2]
        exact = self.by_type.get(link_type)
        if exact:
            return exact[0]
        for type_id in self.types:
            if self.description.conforms(type_id, link_type):
                return self.by_type[type_id][0]
        return None

    def seed(self) -> None:
        for type_id in self.types:
            entry_type = self.description.entry_type(type_id)
            values = {
                name: scalar(entry_type.params.get(descriptor.key), name)
                for name, descriptor in entry_type.info.fields.items()
                if descriptor.kind is FieldKind.ATTRIBUTE and descriptor.key not in META_FIELDS
            }
            owner = self.listed.get(type_id, type_id)
            self.by_type[type_id] = [
                self.fake.add(owner, self_link=f"probe/{type_id}/{n}", **values)
                for n in range(1, COPIES + 1)
            ]
        for type_id in self.types:
            info = self.description.entry_type(type_id).info
            links: dict[str, Any] = {}
            for name, descriptor in info.fields.items():
                if descriptor.kind is FieldKind.ENTRY:
                    links[name] = self.conforming(descriptor.link_type)
                elif descriptor.kind is FieldKind.HOSTED_FILE:
                    links[name] = ("text/plain", f"{type_id} {name}\n".encode())
            for entry in self.by_type[type_id]:
                self.fake.change(entry, **links)
                for name, descriptor in info.fields.items():
                    if descriptor.kind is FieldKind.COLLECTION and descriptor.link_type:
                        members = self.by_type.get(
                            self.schema.type_info(descriptor.link_type).entry_type or "", []
                        )
                        for member in members:
                            self.fake.add_to(entry, name, member)

    def argument(self, operation: str, param: Param) -> Any:
        """An argument as the plan carries it: a link as ``{"link": url}``.

        A list of links the WADL does not say (Launchpad's facts) is a list of one
        link as text, as scripts pass them: stock cannot send a list of entries.
        """
        fact = ARGUMENTS.get((operation, param.name))
        if fact is not None and fact.is_list and fact.links:
            target = self.conforming(fact.link_type)
            return [] if target is None else [self.fake.url_of(target)]
        if param.type == "binary":
            return {"bytes": "probe bytes"}
        if param.link is not None:
            target = self.conforming(param.link.resource_type)
            return None if target is None else {"link": self.fake.url_of(target)}
        value = scalar(param, param.name)
        if param.type == "dateTime":
            return {param.type: value}
        return value

    def created_type(self, owner_type: str, method: Method) -> str:
        """The type a factory makes: its ``Location``'s link, else its collection's entries."""
        location = method.response_header("Location")
        if location is not None and location.link is not None and location.link.resource_type:
            return location.link.resource_type
        info = self.schema.type_info(owner_type)
        return (info.entry_type if info.is_collection else None) or owner_type

    def handler(self, owner_type: str, method: Method) -> Any:
        """What the operation answers, as its WADL declares, from the seeded entries."""
        kind, entry_type = self.fake._operations.result_shape(method)
        if kind.value == "page":
            found = self.by_type.get(entry_type or "")
            if found is None:
                found = [self.conforming(entry_type)] if self.conforming(entry_type) else []
            result: Any = list(found)
        elif kind.value == "entry":
            result = self.conforming(entry_type)
        elif kind.value == "created":
            result = self.conforming(self.created_type(owner_type, method))
        else:
            # No declared answer: Launchpad sends an entry's JSON from some
            # (``bug.subscribe``), a plain value from others.
            mine = self.by_type.get(owner_type)
            result = mine[0] if mine else ["a", 1, None]

        def answer(_owner: Any, /, **_arguments: Any) -> Any:
            return result

        return answer

    def _owner_probe(self, owner: str, plan: Plan) -> str:
        """How the probes name the resource an operation is called on."""
        if owner == plan.root_type:
            return "root"
        for name, collection_type in plan.collection_types.items():
            if collection_type == owner:
                return f"root.{name}"
        return owner

    def plan(self) -> Plan:
        plan = Plan(
            collections=sorted(self.description.collections),
            collection_types=dict(self.description.collections),
            root_type=self.description.root_type,
            service_root=self.fake.service_root,
            version=self.fake.version,
        )
        for type_id in self.types:
            plan.entries[type_id] = self.fake.url_of(self.by_type[type_id][0])
        plan.covered[plan.root_type] = "root class"
        for name, collection_type in plan.collection_types.items():
            plan.covered.setdefault(collection_type, f"root.{name} class")
            entry_type = self.schema.type_info(collection_type).entry_type
            url = self.fake.base + self.fake.store.collection_path(name)
            plan.pages[name] = f"{url}?ws.size=1"
            plan.covered.setdefault(f"{entry_type}-page-resource", f"load({name} page) class")
        for type_id in self.types:
            plan.covered[type_id] = f"{type_id} class"
            for name, descriptor in self.description.entry_type(type_id).info.fields.items():
                probe = {
                    FieldKind.COLLECTION: f"{type_id}.{name} class",
                    FieldKind.HOSTED_FILE: f"{type_id}.{name}.open() read",
                }.get(descriptor.kind)
                if probe is not None:
                    plan.covered.setdefault(descriptor.link_type or "HostedFile", probe)
        owners = [*self.types, *sorted(set(self.description.collections.values()))]
        owners.append(self.description.root_type)
        for owner in owners:
            operations = self.schema.type_info(owner).operations
            if not operations:
                continue
            calls = plan.operations.setdefault(owner, {})
            at = self._owner_probe(owner, plan)
            for name, method in sorted(operations.items()):
                self.fake.operation(owner, name)(self.handler(owner, method))
                result = self.schema.result_info(method)
                if result is not None and result.is_collection and result.entry_type:
                    plan.covered.setdefault(f"{result.entry_type}-page-resource", f"{at}.{name}()")
                    if self.fake.total_size_link:
                        plan.covered.setdefault("ScalarValue", f"{at}.{name}().total_size")
                calls[name] = {param.name: self.argument(name, param) for param in method.params}
        return plan


def seeded(fake: FakeService) -> Plan:
    """Seed ``fake`` with every entry type and a handler for every operation; the plan.

    Operations' pages give ``total_size_link`` (a ``ScalarValue``), as
    Launchpad's searches do, where the WADL's pages have one (devel has,
    1.0 has not); other pages give ``total_size``.
    """
    seeder = _Seeder(fake)
    fake.total_size_link = seeder.pages_link_their_size()
    seeder.seed()
    return seeder.plan()
