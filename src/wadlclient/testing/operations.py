"""Named operations: the handlers a test registers, their arguments checked against the WADL.

A handler is called as ``handler(owner, **arguments)``: ``owner`` is the
entry the operation was invoked on, or the collection's name for an
operation of a top-level collection (declare it positional-only,
``def handler(owner, /, **arguments)``, since a param may be called
``target`` or ``owner``). An `HTTPException` it raises is answered with
its status and message; anything else it raises is answered 500, naming it.

Its arguments are the WADL's params, decoded (JSON, as
lazr.restfulclient, launchpadlib and wadlclient send them), options and
dates checked, and links (absolute, or ``/~ada`` from the root, as
lazr.restful reads them) turned back into the seeded entries they name.
A parameter Launchpad's table (`wadlclient.facts.launchpad`) says takes a
list or a dict is marshalled as lazr.restful does (`wadlclient.testing.marshal`):
``store_channels=edge`` reaches the handler as ``["edge"]``, a list of
links as a list of entries.
An argument the WADL does not list, or of the wrong type, is a 400
before the handler runs. What it returns is served as the WADL declares
the operation's answer (`wadlclient.testing.results`).

Default handlers, where the WADL makes their meaning plain: a
collection's ``getBy<Something>`` whose every param names a field of its
entries (``builders.getByName(name)``, ``snaps.getByName(owner, name)``)
answers the first entry with those values, or null; ``getByPath(path)``, the
entry at that path (``git_repositories.getByPath(path="~ada/frob/+git/frob")``).
A lookup Launchpad answers 404 for nothing found (the table's
``FOUND_OR_404``: ``snaps.getByName``, ``person.getPPAByName``,
``distribution.getSeries``...) answers 404 with Launchpad's message
(``No such ppa: 'frob'.``) when its handler, default or registered, returns None.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from wadlclient.facts.launchpad import Argument, Lookup
from wadlclient.testing.description import Description, check_scalar, did_you_mean
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.marshal import marshal
from wadlclient.testing.results import ResultKind
from wadlclient.testing.store import FakeEntry, Store
from wadlclient.wadl import Method, Param

__all__ = ["Handler", "Operations"]

Handler = Callable[..., Any]
#: Query params the paging of an operation's result takes, besides the WADL's own.
PAGING_PARAMS = frozenset({"ws.op", "ws.start", "ws.size", "ws.show"})


class Operations:
    """Handlers by (resource type, ``ws.op``), and how one call's arguments are read."""

    def __init__(
        self,
        description: Description,
        store: Store,
        shapes: Mapping[tuple[str, str], Argument] | None = None,
        lookups: Mapping[tuple[str, str], Lookup] | None = None,
    ) -> None:
        self.description = description
        self.store = store
        #: (operation, param) -> its list or dict shape (Launchpad's ``ARGUMENTS``)
        self.shapes = shapes or {}
        #: (resource type, operation) -> its 404 for nothing found (Launchpad's ``FOUND_OR_404``)
        self.lookups = lookups or {}
        self._handlers: dict[tuple[str, str], Handler] = {}

    def resolve(self, owner: str, name: str) -> tuple[str, Method]:
        """The resource type and method ``owner`` (a collection or a type) and ``name`` name."""
        described = self.description
        type_id = described.collections.get(owner, owner)
        if type_id not in described.schema.app.resource_types:
            raise ValueError(
                f"The WADL has no collection or resource type {owner!r}"
                + did_you_mean(
                    owner, [*described.collections, *described.schema.app.resource_types]
                )
            )
        operations = described.schema.type_info(type_id).operations
        method = operations.get(name)
        if method is None:
            raise ValueError(
                f"{owner} has no named operation {name!r} in the WADL"
                + did_you_mean(name, operations)
            )
        return type_id, method

    def register(self, owner: str, name: str, handler: Handler) -> None:
        type_id, _method = self.resolve(owner, name)
        self._handlers[(type_id, name)] = handler

    def handler_for(self, type_id: str, name: str, method: Method) -> Handler:
        """The registered handler, else the default one, else a 501 naming the operation."""
        handler = self._handlers.get((type_id, name))
        if handler is not None:
            return handler
        default = self._default(type_id, name, method)
        if default is not None:
            return default
        raise HTTPException(
            501, f"{type_id}.{name} has no handler in this fake: register one with "
            f"@fake.operation({type_id!r}, {name!r}).",
        )  # fmt: skip

    def _default(self, type_id: str, name: str, method: Method) -> Handler | None:
        """``getBy<Something>``: a look-up by the fields the operation takes, or by path."""
        info = self.description.schema.type_info(type_id)
        if not (info.is_collection and name.startswith("getBy") and method.params):
            return None
        fields = [param.name for param in method.params]
        entry_type = self.description.entry_type_of(type_id)
        if fields == ["path"] and "path" not in entry_type.info.fields:
            return self._by_path(entry_type.id)
        if any(field not in entry_type.info.fields for field in fields):
            return None

        def look_up(target: Any, **arguments: Any) -> FakeEntry | None:
            collection = self.store.collection_path(str(target))
            for entry in self.store.members(collection):
                if all(entry.values.get(f) == arguments.get(f) for f in fields):
                    return entry
            return None

        return look_up

    def _by_path(self, type_id: str) -> Handler:
        """``getByPath(path)`` (Launchpad's repositories): the entry at that path, or null."""

        def look_up(target: Any, path: Any) -> FakeEntry | None:
            entry = self.store.entries.get(str(path).strip("/"))
            return entry if entry is not None and entry.type_id == type_id else None

        return look_up

    def not_found(
        self, type_id: str, name: str, arguments: Mapping[str, Any]
    ) -> HTTPException | None:
        """The 404 a found-or-404 lookup answers for nothing found; None for other operations."""
        lookup = self.lookups.get((type_id, name))
        if lookup is None:
            return None
        value = arguments.get(lookup.quoted)
        if isinstance(value, FakeEntry):
            value = value.values.get("name") or value.path
        return HTTPException(404, f"{lookup.message}: '{value}'.")

    def result_shape(self, method: Method) -> tuple[ResultKind, str | None]:
        """What the WADL says the operation answers, and the type of its entries if any."""
        if method.response_header("Location") is not None:
            return ResultKind.CREATED, None
        info = self.description.schema.result_info(method)
        if info is None:
            return ResultKind.JSON, None
        if info.is_collection:
            return ResultKind.PAGE, info.entry_type
        for rep in method.response_representations():
            type_id = rep.href.rpartition("#")[2] if rep.href else rep.id or ""
            type_id = type_id.removesuffix("-full")
            if self.description.has_entry_type(type_id):
                return ResultKind.ENTRY, type_id
        return ResultKind.JSON, None

    def arguments(
        self, label: str, method: Method, raw: Mapping[str, list[str]], operation: str = ""
    ) -> dict[str, Any]:
        """The call's arguments by param name, every one checked; 400 listing each problem.

        ``operation``: its name (``ws.op``), which the table of list and dict params is by.
        """
        operation = operation or label.rpartition(".")[2]
        params = {param.name: param for param in method.params}
        problems = [
            f"{key}: {label} takes no such parameter" + did_you_mean(key, params)
            + f"; it takes: {', '.join(params) or 'none'}."
            for key in raw
            if key not in params and key not in PAGING_PARAMS
        ]  # fmt: skip
        arguments: dict[str, Any] = {}
        for name, param in params.items():
            values = raw.get(name)
            if not values:
                if param.required:
                    problems.append(f"{name}: Required input is missing.")
                continue
            shape = self.shapes.get((operation, name))
            try:
                if shape is not None:
                    arguments[name] = marshal(param, shape, values, self.store.check_link)
                    continue
                decoded = [self._decode(param, value) for value in values]
            except HTTPException as problem:
                problems.append(problem.message)
                continue
            arguments[name] = decoded[0] if len(decoded) == 1 else decoded
        if problems:
            raise HTTPException(400, "\n".join(problems))
        return arguments

    def _decode(self, param: Param, text: str) -> Any:
        """One argument as sent: options as they are, anything else as JSON (else as text)."""
        if param.type == "binary":
            return text
        if param.options:
            return check_scalar(param.name, param, text)
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        if param.type == "string" and not isinstance(value, str):
            value = text
        if param.link is not None:
            return self.store.check_link(param.name, param.link.resource_type, value)
        return check_scalar(param.name, param, value)
