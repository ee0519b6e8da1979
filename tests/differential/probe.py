"""The probes, run in a child process by one client: stock lazr.restfulclient, or wadlclient's.

    python tests/differential/probe.py PLAN.json
    python -m wadlclient.lazr_compat tests/differential/probe.py PLAN.json

It logs in with launchpadlib's ``Launchpad`` (no credentials: the fake
lets a request without ``Authorization`` through), runs every probe of
the plan (`tests.differential.seed`) and prints one JSON object: probe
name -> what was observed, as `observed` describes it (value, type name,
exception class). Nothing here knows which client it runs on.
"""

from __future__ import annotations

import datetime
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
        if depth > 1:
            digest = hashlib.sha1(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]
            return ["dict", value.get("self_link"), digest]
        return ["dict", {str(k): observed(v, depth + 1) for k, v in sorted(value.items())}]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [observed(item, depth + 1) for item in value[:5]]]
    kind = lazr_class(value)
    if kind == "Entry":
        return [kind, str(value.self_link)]
    if kind in ("Collection", "CollectionWithKeyBasedLookup", "HostedFile", "ScalarValue"):
        return [kind, str(value._wadl_resource.url)]
    return [kind]


def public_dir(value: object) -> list[str]:
    return sorted(name for name in dir(value) if not name.startswith("_"))


class Probes:
    def __init__(self, plan: dict[str, Any], lp: Any) -> None:
        self.plan = plan
        self.lp = lp
        self.seen: dict[str, Any] = {}
        #: entries loaded as arguments, by URL: one GET each
        self.loaded: dict[str, Any] = {}

    def probe(self, name: str, action: Callable[[], Any]) -> Any:
        """Run one probe; its value (or the class of what it raised) is recorded."""
        try:
            value = action()
            self.seen[name] = observed(value)
        except Exception as error:  # noqa: BLE001 (what each client raises is the observation)
            self.seen[name] = ["raised", type(error).__name__]
            return None
        return value

    def surface(self, at: str, value: Any) -> None:
        """What every resource shows: its class, dir(), the lp_* lists, the constants."""
        self.seen[f"{at} class"] = lazr_class(value)
        self.seen[f"{at} dir()"] = public_dir(value)
        for name in ("lp_attributes", "lp_entries", "lp_collections", "lp_operations"):
            self.probe(f"{at} .{name}", lambda: getattr(value, name))
        for name in ("JSON_MEDIA_TYPE", "FIND_ATTRIBUTES", "FIND_COLLECTIONS", "FIND_ENTRIES"):
            self.probe(f"{at} .{name} type", lambda: type(getattr(value, name)).__name__)
        self.probe(f"{at} .no_such_name", lambda: value.no_such_name)
        self.probe(f"{at} .lp_get_parameter(no_such_name)",
                   lambda: value.lp_get_parameter("no_such_name"))  # fmt: skip
        self.probe(f"{at} .lp_get_named_operation(no_such_name)",
                   lambda: value.lp_get_named_operation("no_such_name"))  # fmt: skip

    def fields(self, at: str, value: Any, follow: bool) -> None:
        """Every attribute, link and scoped collection, read both ways."""
        attributes = getattr(value, "lp_attributes", [])
        for name in attributes:
            self.probe(f"{at}.{name}", lambda: getattr(value, name))
            self.probe(f"{at}.lp_get_parameter({name})", lambda: value.lp_get_parameter(name))
            self.probe(f"{at}.lp_has_parameter({name})", lambda: value.lp_has_parameter(name))
            self.probe(f"{at}.lp_values_for({name})", lambda: value.lp_values_for(name))
        for name in getattr(value, "lp_entries", []):
            target = self.probe(f"{at}.{name}", lambda: getattr(value, name))
            self.probe(f"{at}.lp_get_parameter({name})", lambda: value.lp_get_parameter(name))
            self.probe(f"{at}.{name}_link", lambda: getattr(value, f"{name}_link"))
            if lazr_class(target) == "HostedFile":
                self.hosted(f"{at}.{name}", target)
            elif follow and target is not None:
                self.probe(f"{at}.{name} class", lambda: lazr_class(target))
        for name in getattr(value, "lp_collections", []):
            self.collection(f"{at}.{name}", lambda: getattr(value, name))
            self.probe(f"{at}.lp_get_parameter({name})", lambda: value.lp_get_parameter(name))

    def hosted(self, at: str, hosted: Any) -> None:
        self.probe(f"{at} dir()", lambda: public_dir(hosted))

        def read() -> list[Any]:
            with hosted.open() as opened:
                return [opened.read(), opened.content_type, opened.filename]

        self.probe(f"{at}.open() read", read)

    def collection(self, at: str, make: Callable[[], Any], made: Any = None) -> None:
        """A collection paged every way a script does: read first, then sliced unread."""
        collection = made if made is not None else self.probe(at, make)
        if collection is None:
            return
        if made is None:
            self.surface(at, collection)
        for name in ("total_size", "start", "entries", "next_collection_link"):
            self.probe(f"{at}.{name}", lambda: getattr(collection, name))
        self.probe(f"{at}.lp_get_parameter(total_size)",
                   lambda: collection.lp_get_parameter("total_size"))  # fmt: skip
        self.probe(f"len({at})", lambda: len(collection))
        self.probe(f"{at}[total_size - 1]", lambda: collection[collection.total_size - 1])
        self.probe(f"{at}[0:2]", lambda: collection[0:2])
        self.probe(f"{at}[-1]", lambda: collection[-1])
        if made is not None:
            self.probe(f"list({at})", lambda: list(collection))
            return
        unread = make()
        self.probe(f"{at}[1:3] unread", lambda: unread[1:3])
        self.probe(f"list({at}) unread", lambda: list(make()))

    def operations(self, at: str, owner_type: str, owner: Any) -> None:
        """Every named operation of the owner, called with an argument for each param."""
        for name, arguments in self.plan["operations"].get(owner_type, {}).items():
            call = f"{at}.{name}()"
            self.probe(f"{at}.lp_get_named_operation({name})",
                       lambda: owner.lp_get_named_operation(name))  # fmt: skip
            kwargs = self.probe(f"{call} arguments", lambda: {
                key: self.argument(value) for key, value in arguments.items()
            })  # fmt: skip
            if kwargs is None:
                continue
            result = self.probe(call, lambda: getattr(owner, name)(**kwargs))
            if lazr_class(result) in ("Collection", "CollectionWithKeyBasedLookup"):
                self.collection(call, lambda: None, made=result)

    def argument(self, value: Any) -> Any:
        if isinstance(value, dict) and "link" in value:
            if value["link"] not in self.loaded:
                self.loaded[value["link"]] = self.lp.load(value["link"])
            return self.loaded[value["link"]]
        if isinstance(value, dict) and "bytes" in value:
            return value["bytes"].encode()
        if isinstance(value, dict) and "dateTime" in value:
            return datetime.datetime.fromisoformat(value["dateTime"])
        if isinstance(value, dict) and "date" in value:
            return datetime.date.fromisoformat(value["date"])
        return value

    def root(self) -> None:
        lp = self.lp
        self.surface("root", lp)
        self.probe("root._root_uri type", lambda: type(lp._root_uri).__name__)
        for name in ("host", "scheme", "path"):
            self.probe(f"root._root_uri.{name}", lambda: getattr(lp._root_uri, name))
        self.probe("root._root_uri.append(people)", lambda: str(lp._root_uri.append("people")))
        self.probe("root._root_uri.resolve(people)", lambda: str(lp._root_uri.resolve("people")))
        self.probe("root._root_uri.ensureSlash()", lambda: str(lp._root_uri.ensureSlash()))
        self.probe("root.lp_refresh()", lambda: lp.lp_refresh())
        for name in lp.lp_attributes:
            self.probe(f"root.{name}", lambda: getattr(lp, name))
        for name in self.plan["collections"]:
            self.collection(f"root.{name}", lambda: getattr(lp, name))
            self.probe(f"root.{name}.lp_refresh()", lambda: getattr(lp, name).lp_refresh())
            owner = getattr(lp, name)
            self.operations(f"root.{name}", self.plan["collection_types"][name], owner)
        self.operations("root", self.plan["root_type"], lp)

    def entries(self) -> None:
        for type_id, url in self.plan["entries"].items():
            at = f"{type_id}"
            entry = self.probe(f"{at} load", lambda: self.lp.load(url))
            if entry is None:
                continue
            self.surface(at, entry)
            self.probe(f"str({at})", lambda: str(entry))
            self.probe(f"{at} == load again", lambda: entry == self.lp.load(url))
            self.probe(f"{at}.no_such_name = 1", lambda: setattr(entry, "no_such_name", 1))
            self.probe(f"{at}.lp_refresh()", lambda: entry.lp_refresh())
            self.fields(at, entry, follow=True)
            self.operations(at, type_id, entry)


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
    with open(sys.argv[1], encoding="utf-8") as file:
        plan = json.load(file)
    lp = Launchpad(
        None, None, None, service_root=plan["service_root"], version=plan["version"],
        cache=MemoryCache(),
    )  # fmt: skip
    probes = Probes(plan, lp)
    probes.root()
    probes.entries()
    json.dump(probes.seen, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
