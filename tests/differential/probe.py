"""The probes, run in a child process by one client: stock lazr.restfulclient, or wadlclient's.

    python tests/differential/probe.py PLAN.json OUT.json
    python -m wadlclient.lazr_compat tests/differential/probe.py PLAN.json OUT.json

It logs in with launchpadlib's ``Launchpad`` (no credentials: the fake
lets a request without ``Authorization`` through), runs every probe of
the plan (`tests.differential.seed`) and writes one JSON object to
OUT.json (a file, not stdout: a pipe read by a profiler's parent was once
cut at 64 KB): probe name -> what was observed, as `observed` describes it
(value, type name, exception class). Nothing here knows which client it
runs on.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import json
import sys
from collections.abc import Callable
from typing import Any

from launchpadlib.launchpad import Launchpad
from lazr.restfulclient import resource as lazr

#: The lazr classes an observed object is named by, most specific first.
LAZR_CLASSES = (
    "ServiceRoot", "CollectionWithKeyBasedLookup", "Collection", "HostedFile",
    "ScalarValue", "Entry", "NamedOperation", "Resource",
)  # fmt: skip


def lazr_class(value: object) -> str:
    for name in LAZR_CLASSES:
        if isinstance(value, getattr(lazr, name)):
            return name
    return type(value).__name__


def observed(value: Any, depth: int = 0) -> Any:
    """A JSON-able account of a value: its type and what can be compared of it."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return [type(value).__name__, value]
    if isinstance(value, bytes):
        return ["bytes", value.decode("latin-1")]
    if isinstance(value, (datetime.datetime, datetime.date)):
        return [type(value).__name__, value.isoformat()]
    if isinstance(value, dict):
        if depth > 0:
            digest = hashlib.sha1(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]
            return ["dict", value.get("self_link"), digest]
        return ["dict", {str(k): observed(v, depth + 1) for k, v in sorted(value.items())}]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [observed(item, depth + 1) for item in value[:5]]]
    kind = lazr_class(value)
    if kind in ("Entry", "Collection", "CollectionWithKeyBasedLookup", "HostedFile", "ScalarValue"):
        # Where it leads, without fetching it: every entry type is loaded and probed itself.
        return [kind, str(value._wadl_resource.url)]
    return [kind]


def public_dir(value: object) -> list[str]:
    return sorted(name for name in dir(value) if not name.startswith("_"))


def attribute(value: Any, name: str) -> Any:
    return getattr(value, name)


def call(value: Any, method: str, *arguments: Any, **keywords: Any) -> Any:
    return getattr(value, method)(*arguments, **keywords)


def invoke(owner: Any, operation: str, arguments: dict[str, Any]) -> Any:
    return getattr(owner, operation)(**arguments)


def type_name(value: Any, name: str) -> str:
    return type(getattr(value, name)).__name__


def last_by_total_size(collection: Any) -> Any:
    return collection[collection.total_size - 1]


def last_by_len(collection: Any) -> Any:
    return collection[len(collection) - 1]


def read_hosted(hosted: Any) -> list[Any]:
    with hosted.open() as opened:
        return [opened.read(), opened.content_type, opened.filename]


class Probes:
    def __init__(self, plan: dict[str, Any], lp: Any) -> None:
        self.plan = plan
        self.lp = lp
        self.seen: dict[str, Any] = {}
        #: entries loaded as arguments, by URL: one GET each
        self.loaded: dict[str, Any] = {}

    def probe(self, name: str, action: Callable[..., Any], /, *arguments: Any) -> Any:
        """Run one probe, ``action(*arguments)``; its value (or what it raised) is recorded."""
        try:
            value = action(*arguments)
            self.seen[name] = observed(value)
        except Exception as error:
            self.seen[name] = ["raised", type(error).__name__]
            return None
        return value

    def surface(self, at: str, value: Any) -> None:
        """What every resource shows: its class, dir(), the lp_* lists, the constants."""
        self.seen[f"{at} class"] = lazr_class(value)
        self.seen[f"{at} type name"] = type(value).__name__
        self.seen[f"{at} type module"] = type(value).__module__
        for name in public_dir(value):
            self.seen[f"{at} dir() has {name}"] = True
        for name in ("lp_attributes", "lp_entries", "lp_collections", "lp_operations"):
            self.probe(f"{at} .{name}", attribute, value, name)
        for name in ("JSON_MEDIA_TYPE", "FIND_ATTRIBUTES", "FIND_COLLECTIONS", "FIND_ENTRIES"):
            self.probe(f"{at} .{name} type", type_name, value, name)
        self.probe(f"{at} .no_such_name", attribute, value, "no_such_name")
        for method in ("lp_get_parameter", "lp_get_named_operation"):
            self.probe(f"{at} .{method}(no_such_name)", call, value, method, "no_such_name")

    def fields(self, at: str, value: Any) -> None:
        """Every attribute, link and scoped collection, read both ways."""
        for name in value.lp_attributes:
            self.probe(f"{at}.{name}", attribute, value, name)
            for method in ("lp_get_parameter", "lp_has_parameter", "lp_values_for"):
                self.probe(f"{at}.{method}({name})", call, value, method, name)
        for name in value.lp_entries:
            target = self.probe(f"{at}.{name}", attribute, value, name)
            self.probe(f"{at}.lp_get_parameter({name})", call, value, "lp_get_parameter", name)
            self.probe(f"{at}.{name}_link", attribute, value, f"{name}_link")
            if lazr_class(target) == "HostedFile":
                self.hosted(f"{at}.{name}", target)
        for name in value.lp_collections:
            self.collection(f"{at}.{name}", value, name)
            self.probe(f"{at}.lp_get_parameter({name})", call, value, "lp_get_parameter", name)

    def hosted(self, at: str, hosted: Any) -> None:
        for name in public_dir(hosted):
            self.seen[f"{at} dir() has {name}"] = True
        self.probe(f"{at}.open() read", read_hosted, hosted)

    def collection(
        self, at: str, owner: Any, name: str | None, made: Any = None, unread: bool = False
    ) -> None:
        """A collection paged every way a script does: its first page read, then sliced.

        ``owner.name`` is the collection (read again for a slice before any
        read when ``unread``); ``made`` a collection an operation answered.
        """
        collection = made if name is None else self.probe(at, attribute, owner, name)
        if collection is None:
            return
        self.surface(at, collection)
        for field in ("total_size", "start", "entries", "next_collection_link"):
            self.probe(f"{at}.{field}", attribute, collection, field)
        self.probe(f"{at}.lp_get_parameter(total_size)",
                   call, collection, "lp_get_parameter", "total_size")  # fmt: skip
        self.probe(f"len({at})", len, collection)
        self.probe(f"{at}[total_size - 1]", last_by_total_size, collection)
        self.probe(f"{at}[len - 1]", last_by_len, collection)
        self.probe(f"{at}[0:2]", call, collection, "__getitem__", slice(0, 2))
        self.probe(f"{at}[-1]", call, collection, "__getitem__", -1)
        self.probe(f"list({at})", list, collection)
        if name is not None and unread:
            fresh = getattr(owner, name)
            self.probe(f"{at}[1:3] unread", call, fresh, "__getitem__", slice(1, 3))

    def operations(self, at: str, owner_type: str, owner: Any) -> None:
        """Every named operation of the owner, called with an argument for each param."""
        for name, arguments in self.plan["operations"].get(owner_type, {}).items():
            self.probe(f"{at}.lp_get_named_operation({name})",
                       call, owner, "lp_get_named_operation", name)  # fmt: skip
            kwargs = self.probe(f"{at}.{name}() arguments", self.arguments, arguments)
            if kwargs is None:
                continue
            result = self.probe(f"{at}.{name}()", invoke, owner, name, kwargs)
            if lazr_class(result) in ("Collection", "CollectionWithKeyBasedLookup"):
                self.collection(f"{at}.{name}()", None, None, made=result)

    def arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return {key: self.argument(value) for key, value in arguments.items()}

    def argument(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.argument(item) for item in value]
        if isinstance(value, dict) and "link" in value:
            if value["link"] not in self.loaded:
                self.loaded[value["link"]] = self.lp.load(value["link"])
            return self.loaded[value["link"]]
        if isinstance(value, dict) and "bytes" in value:
            return value["bytes"].encode()
        if isinstance(value, dict) and "dateTime" in value:
            return datetime.datetime.fromisoformat(value["dateTime"])
        return value

    def root(self) -> None:
        lp = self.lp
        self.surface("root", lp)
        uri = lp._root_uri
        self.probe("root._root_uri type", type_name, lp, "_root_uri")
        for name in ("host", "scheme", "path"):
            self.probe(f"root._root_uri.{name}", attribute, uri, name)
        for method in ("append", "resolve"):
            self.probe(f"root._root_uri.{method}(people)", call, uri, method, "people")
        self.probe("root._root_uri.ensureSlash()", call, uri, "ensureSlash")
        self.probe("root.lp_refresh()", call, lp, "lp_refresh")
        first = next(iter(self.plan["entries"].values()))
        entry = lp.load(first)
        self.probe("entry == load again", call, entry, "__eq__", lp.load(first))
        self.probe("entry.lp_refresh()", call, entry, "lp_refresh")
        for name in lp.lp_attributes:
            self.probe(f"root.{name}", attribute, lp, name)
        for name in self.plan["collections"]:
            self.collection(f"root.{name}", lp, name, unread=True)
            self.probe(f"root.{name}.lp_refresh()", call, getattr(lp, name), "lp_refresh")
            owner = getattr(lp, name)
            self.operations(f"root.{name}", self.plan["collection_types"][name], owner)
        self.operations("root", self.plan["root_type"], lp)
        for name, url in self.plan["pages"].items():
            at = f"load({name} page)"
            page = self.probe(at, lp.load, url)
            if page is not None:
                self.surface(at, page)
                for field in ("total_size", "start", "next_collection_link", "entries"):
                    self.probe(f"{at}.{field}", attribute, page, field)

    def entries(self) -> None:
        for type_id, url in self.plan["entries"].items():
            entry = self.probe(f"{type_id} load", self.lp.load, url)
            if entry is None:
                continue
            self.surface(type_id, entry)
            self.probe(f"str({type_id})", str, entry)
            self.probe(f"repr({type_id})", repr, entry)
            self.probe(f"{type_id}.no_such_name = 1", setattr, entry, "no_such_name", 1)
            self.fields(type_id, entry)
            self.operations(type_id, type_id, entry)


#: The suite's rule for the cyclic collector (tests/conftest.py), in the child too: stock
#: parses the devel WADL at login (some 400,000 objects), and at Python's thresholds
#: every full pass walked them again, for nothing.
GC_THRESHOLDS = (50_000, 20, 10)


class MemoryCache:
    """httplib2's cache interface in memory: no file written per answer, on either client."""

    def __init__(self) -> None:
        self.held: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.held.get(key)

    def set(self, key: str, value: bytes) -> None:
        self.held[key] = value

    def delete(self, key: str) -> None:
        self.held.pop(key, None)


def main() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    with open(sys.argv[1], encoding="utf-8") as file:
        plan = json.load(file)
    lp = Launchpad(
        None, None, None, service_root=plan["service_root"], version=plan["version"],
        cache=MemoryCache(),
    )  # fmt: skip
    gc.freeze()
    probes = Probes(plan, lp)
    probes.root()
    probes.entries()
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(json.dumps(probes.seen, sort_keys=True))


if __name__ == "__main__":
    main()
