"""What a typed-access module declares, read from a service's schema: classes, members, types.

Everything is decided here and only written out by `render`: which resource
types get a class (entries, collections with named operations, the root),
the Python type of every field, link, scoped collection and named-operation
parameter and result, and each class's name. Types are held as source text
(``decimal.Decimal``, ``wadlclient.Collection[Recipe]``) with the modules
they need, so that the output imports exactly what it uses.
"""

from __future__ import annotations

import keyword
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from wadlclient.facts.launchpad import Argument as FactArgument
from wadlclient.schema import (
    HOSTED_FILE_TYPE,
    JSON_MEDIA_TYPE,
    SCALAR_VALUE_TYPE,
    FieldKind,
    Schema,
    TypeInfo,
)
from wadlclient.stubgen.fixups import Fixups
from wadlclient.wadl import Application, Method, Param, fragment_of

__all__ = ["ClassPlan", "Member", "ModulePlan", "OptionAlias", "plan_module"]

#: Python types of WADL param types (the local part of an XML schema type).
_TYPES = {
    "dateTime": "datetime.datetime",
    "date": "datetime.date",
    "decimal": "decimal.Decimal",
    "boolean": "bool",
    "int": "int",
    "integer": "int",
    "long": "int",
    "short": "int",
    "string": "str",
    "float": "float",
    "double": "float",
    "binary": "bytes",
}
ANY = "typing.Any"
#: The Python type of a list's items or a dict's values, by the facts' name for it.
_ITEMS = {"str": "str", "int": "int", "bool": "bool"}
ENTRY = "wadlclient.Entry"
#: What a link argument takes when its type has no class: any entry (or a URL).
ANY_ENTRY = "wadlclient.EntryLike"
#: A collection of the class in braces, where its type declares no named operation.
COLLECTION = "wadlclient.CollectionLike[{}]"
#: Members every entry already has (`wadlclient.EntryLike`): never redeclared.
_ENTRY_MEMBERS = frozenset({"self_link", "resource_type_link", "http_etag"})
#: Names the generated module defines or imports besides its classes.
RESERVED = frozenset(
    {"connect", "login_anonymously", "typed", "datetime", "decimal", "typing", "wadlclient"}
)


@dataclass(frozen=True)
class Argument:
    """A keyword-only parameter of a named operation."""

    name: str
    type: str
    required: bool


@dataclass(frozen=True)
class Member:
    """A field (``settable`` or read-only), a link, a collection, or a named operation."""

    name: str
    type: str
    doc: str | None = None
    settable: bool = False
    arguments: tuple[Argument, ...] | None = None  # None: not an operation
    takes_more: bool = False  # an operation with parameters no identifier can name


@dataclass(frozen=True)
class ClassPlan:
    name: str
    base: str
    doc: str | None
    members: tuple[Member, ...]
    type_id: str | None = None  # an entry class's type: the root's load_web overloads name it


@dataclass(frozen=True)
class OptionAlias:
    """``Name = typing.Literal[...]``: the options of a field or parameter."""

    name: str
    options: tuple[str, ...]


@dataclass
class ModulePlan:
    aliases: list[OptionAlias] = field(default_factory=list)
    classes: list[ClassPlan] = field(default_factory=list)
    root: str = "ServiceRoot"


def camel(name: str) -> str:
    """``distro_series`` -> ``DistroSeries``; ``service-root`` -> ``ServiceRoot``."""
    words = [word for word in re.split(r"[^0-9A-Za-z]+", name) if word]
    text = "".join(word[:1].upper() + word[1:] for word in words) or "Type"
    return f"T{text}" if text[0].isdigit() else text


def is_name(name: str) -> bool:
    """Whether ``name`` can be written as an attribute or a keyword argument."""
    return name.isidentifier() and not keyword.iskeyword(name)


def _is_argument(name: str) -> bool:
    return is_name(name) and name != "self"


class _Names:
    """Unique class and alias names, in the order they are asked for."""

    def __init__(self) -> None:
        self._taken: set[str] = set(RESERVED) | {"None", "True", "False"}

    def new(self, wanted: str) -> str:
        name, count = wanted, 1
        while name in self._taken:
            count += 1
            name = f"{wanted}{count}"
        self._taken.add(name)
        return name


@dataclass
class _Planner:
    """Builds a `ModulePlan` from a `Schema`; see `plan_module`."""

    schema: Schema
    untyped: str
    nullable: bool
    fixups: Fixups | None = None
    root_type: str | None = None
    names: _Names = field(default_factory=_Names)
    classes: dict[str, str] = field(default_factory=dict)  # type id -> class name
    aliases: dict[tuple[str, ...], str] = field(default_factory=dict)
    #: alias name -> the names of the fields and parameters that use it
    alias_uses: dict[str, Counter[str]] = field(default_factory=dict)
    plan: ModulePlan = field(default_factory=ModulePlan)
    by_representation: dict[str, str] = field(default_factory=dict)  # rep id -> type id

    def info(self, type_id: str) -> TypeInfo:
        return self.schema.type_info(type_id)

    # -- types -------------------------------------------------------------

    def entry_type(self, type_id: str | None) -> str:
        """The class of an entry of ``type_id`` (`wadlclient.Entry` when it has none)."""
        return self.classes.get(type_id, ENTRY) if type_id is not None else ENTRY

    def collection_type(self, type_id: str | None) -> str:
        """The type of a collection of resource type ``type_id`` (a protocol: no ``Any`` member)."""
        if type_id is not None and type_id in self.classes:
            return self.classes[type_id]
        entry_type = self.info(type_id).entry_type if type_id is not None else None
        return COLLECTION.format(self.entry_type(entry_type))

    def value_type(self, param: Param, owner: str) -> str:
        """The Python type of a plain value: by its XML schema type, or its options."""
        if param.type in _TYPES:
            return _TYPES[param.type]
        if param.type is not None:
            return ANY
        if param.options:
            return self.option_alias(param.options, owner + camel(param.name), param.name)
        return self.untyped

    def option_alias(self, options: tuple[str, ...], wanted: str, used_by: str) -> str:
        """The name of the ``Literal`` of these options (one alias per set of options).

        It is ``wanted`` (owner and field) for now; `short_alias_names` may
        shorten it once every use is known.
        """
        name = self.aliases.get(options)
        if name is None:
            name = self.names.new(wanted)
            self.aliases[options] = name
            self.plan.aliases.append(OptionAlias(name, options))
        self.alias_uses.setdefault(name, Counter())[used_by] += 1
        return name

    def argument_type(self, param: Param, owner: str) -> str:
        """An entry or its URL for a link, bytes for a file, else as a value.

        lazr.restful takes a link as a URL, absolute or from the root
        (``owner="/~ada"``): real clients send both forms.
        """
        if param.type != "binary" and param.link is not None and param.link.resource_type:
            linked = self.classes.get(fragment_of(param.link.resource_type), ANY_ENTRY)
            return f"{linked} | str"
        return self.value_type(param, owner)

    def shaped_type(self, argument: FactArgument) -> str:
        """A list param takes its items, or one (lazr.restful makes a lone value a list);
        a dict param a mapping, or ``name,value`` strings."""
        item = _ITEMS.get(argument.items, ANY)
        if argument.links:
            item = f"{self.classes.get(argument.link_type or '', ANY_ENTRY)} | str"
        if argument.is_list:
            return ANY if item == ANY else f"{item} | typing.Sequence[{item}]"
        return f"typing.Mapping[str, {item}] | typing.Sequence[str]"

    def result_type(self, method: Method, found_or_404: bool = False) -> str:
        """What a named operation returns: a created entry, an entry, a collection, or Any.

        An entry or None (lazr.restful answers null for nothing found),
        unless ``found_or_404``: the service answers 404 then.
        """
        location = method.response_header("Location")
        if location is not None and location.link is not None:
            linked = location.link.resource_type
            return self.entry_type(fragment_of(linked) if linked is not None else None)
        for representation in method.response_representations():
            try:
                resolved = self.schema.app.resolve(representation)
            except KeyError:
                continue
            if resolved.media_type != JSON_MEDIA_TYPE:
                continue
            info = self.schema.result_info(method)
            if info is not None and info.is_collection:
                return COLLECTION.format(self.entry_type(info.entry_type))
            type_id = self.by_representation.get(resolved.id or "")
            if type_id is not None and type_id in self.classes:
                found = self.classes[type_id]
                return found if found_or_404 else f"{found} | None"
            return ANY
        return ANY

    # -- members -----------------------------------------------------------

    def operation(self, name: str, method: Method, owner: str, type_id: str) -> Member:
        arguments = []
        for param in method.params:
            if param.fixed is not None or not _is_argument(param.name):
                continue
            shaped = self.fixups.arguments.get((name, param.name)) if self.fixups else None
            if shaped is not None:
                kind = self.shaped_type(shaped)
            else:
                kind = self.argument_type(param, owner + camel(name))
            arguments.append(Argument(param.name, kind, param.required))
        takes_more = any(p.fixed is None and not _is_argument(p.name) for p in method.params)
        fixups = self.fixups
        result = self.result_type(
            method, fixups is not None and (type_id, name) in fixups.found_or_404
        )
        return Member(name, result, method.doc, arguments=tuple(arguments), takes_more=takes_more)

    def members(self, type_id: str, owner: str) -> tuple[Member, ...]:
        """Fields, links, collections (WADL order), then named operations (by name)."""
        info = self.info(type_id)
        rep = self.schema.app.json_representation(type_id)
        rep_id = rep.id if rep is not None else None
        params = {param.name: param for param in rep.params} if rep is not None else {}
        settable = self.settable_keys(type_id)
        found = []
        # A collection's own fields are paging details, not attributes.
        fields = () if info.is_collection else info.fields.values()
        for descriptor in fields:
            name = descriptor.name
            if name in _ENTRY_MEMBERS or name in info.operations or not is_name(name):
                continue
            param = params[descriptor.key]
            if descriptor.kind is FieldKind.COLLECTION:
                kind = self.collection_type(descriptor.link_type)
            elif descriptor.kind is FieldKind.HOSTED_FILE:
                kind = "wadlclient.HostedFile"
            elif descriptor.kind is FieldKind.ENTRY:
                kind = self.entry_type(descriptor.link_type)
            else:
                fixed = self.fixups.type_of(rep_id, name) if self.fixups else None
                kind = fixed or self.value_type(param, owner)
            if type_id != self.root_type and self.may_be_null(param, rep_id, descriptor.kind, kind):
                kind = f"{kind} | None"
            found.append(Member(name, kind, param.doc, settable=descriptor.key in settable))
        for name in sorted(info.operations):
            if is_name(name):
                found.append(self.operation(name, info.operations[name], owner, type_id))
        return tuple(found)

    def may_be_null(
        self, param: Param, rep_id: str | None, kind: FieldKind, python_type: str
    ) -> bool:
        """Whether a field's type says None: never for a collection (its link is always set).

        Else where the WADL does not say required, or the fixups say the
        service sends null anyway. (A root's links are never null: the
        caller leaves them out.)
        """
        if kind is FieldKind.COLLECTION or python_type == ANY:
            return False
        fixed = self.fixups is not None and self.fixups.may_be_null(rep_id, param.name)
        return self.nullable or not param.required or fixed

    def settable_keys(self, type_id: str) -> set[str]:
        """The JSON keys a PATCH of this type may change (its request representation)."""
        rtype = self.schema.app.resource_types.get(type_id)
        patch = rtype.method("PATCH") if rtype is not None else None
        if patch is None:
            return set()
        keys: set[str] = set()
        for representation in patch.request.representations:
            try:
                keys.update(p.name for p in self.schema.app.resolve(representation).params)
            except KeyError:
                continue
        return keys


def _kinds(planner: _Planner, root_type: str) -> tuple[list[str], list[str]]:
    """The entry types and the collection types with named operations, sorted by id."""
    entries, collections = [], []
    for type_id in sorted(planner.schema.app.resource_types):
        if type_id in (root_type, HOSTED_FILE_TYPE, SCALAR_VALUE_TYPE):
            continue
        info = planner.info(type_id)
        if info.is_collection:
            if info.operations:
                collections.append(type_id)
        elif info.described and (info.fields or info.operations):
            entries.append(type_id)
    return entries, collections


def _linked_only_as_entries(schema: Schema) -> set[str]:
    """Collection types some field links as an entry (``pillars_link``), none as a collection.

    A client makes an entry of such a link (lazr.restfulclient too): its
    named operations work, paging does not, so its class is an entry's.
    """
    as_entry, as_collection = set(), set()
    for type_id in schema.app.resource_types:
        for descriptor in schema.type_info(type_id).fields.values():
            if descriptor.link_type is None:
                continue
            if descriptor.kind is FieldKind.COLLECTION:
                as_collection.add(descriptor.link_type)
            elif descriptor.kind is FieldKind.ENTRY:
                as_entry.add(descriptor.link_type)
    return as_entry - as_collection


def plan_module(
    schema: Schema,
    root_type: str,
    *,
    untyped: str = "str",
    nullable: bool = False,
    fixups: Fixups | None = None,
) -> ModulePlan:
    """The classes of a typed-access module for ``schema``, whose root resource is ``root_type``.

    ``untyped`` is the type of values the WADL gives no type (lazr.restful
    writes none for text, numbers and booleans alike): ``str`` or ``typing.Any``.
    A field or link may be None where its param is not ``required``; with
    ``nullable``, everywhere (lazr.restful marks every field of an entry
    required, null or not). ``fixups`` names the fields that may be null
    although the WADL says required, and types some it leaves untyped
    (`wadlclient.stubgen.fixups`). A root's links are never None: the
    service writes them all.
    """
    planner = _Planner(schema, untyped, nullable, fixups, root_type)
    app = schema.app
    for type_id in app.resource_types:
        rep = app.json_representation(type_id)
        if rep is not None and rep.id is not None:
            planner.by_representation.setdefault(rep.id, type_id)
    entries, collections = _kinds(planner, root_type)
    for type_id in [*entries, *collections]:
        planner.classes[type_id] = planner.names.new(camel(type_id))
    planner.plan.root = planner.names.new(camel(root_type))
    plans = []
    for type_id in entries:
        name = planner.classes[type_id]
        doc, members = _doc_of(app, type_id), planner.members(type_id, name)
        plans.append(ClassPlan(name, "wadlclient.EntryLike", doc, members, type_id))
    entry_like = _linked_only_as_entries(schema)
    for type_id in collections:
        name = planner.classes[type_id]
        element = planner.entry_type(planner.info(type_id).entry_type)
        members = planner.members(type_id, name)
        base = "wadlclient.EntryLike" if type_id in entry_like else COLLECTION.format(element)
        plans.append(ClassPlan(name, base, _doc_of(app, type_id), members))
    root = planner.plan.root
    root_doc = _doc_of(app, root_type)
    plans.append(ClassPlan(root, "wadlclient.RootLike", root_doc, planner.members(root_type, root)))
    planner.plan.classes = plans
    return _short_alias_names(planner.plan, planner.alias_uses)


def _short_alias_names(plan: ModulePlan, uses: dict[str, Counter[str]]) -> ModulePlan:
    """Name each option set after the field that uses it most, when no other set claims that name.

    Launchpad's information types are ``InformationType`` and its pockets
    ``Pocket``, not ``BranchInformationType`` after the first class that
    happened to use them; a name several sets would claim (``Status``)
    goes to none of them, and they keep their owner's prefix.
    """

    def short(alias: OptionAlias) -> str:
        ranked = sorted(uses[alias.name].items(), key=lambda item: (-item[1], item[0]))
        return camel(ranked[0][0])

    wanted = {alias.name: short(alias) for alias in plan.aliases}
    claims = Counter(wanted.values())
    taken = {cls.name for cls in plan.classes} | {a.name for a in plan.aliases} | RESERVED
    renamed = {
        old: new
        for old, new in wanted.items()
        if old != new and claims[new] == 1 and new not in taken
    }
    if not renamed:
        return plan
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renamed)) + r")\b")

    def retype(text: str) -> str:
        return pattern.sub(lambda found: renamed[found.group(1)], text)

    def member(m: Member) -> Member:
        arguments = m.arguments
        if arguments is not None:
            arguments = tuple(replace(a, type=retype(a.type)) for a in arguments)
        return replace(m, type=retype(m.type), arguments=arguments)

    plan.aliases = [replace(a, name=renamed.get(a.name, a.name)) for a in plan.aliases]
    plan.classes = [
        replace(c, base=retype(c.base), members=tuple(member(m) for m in c.members))
        for c in plan.classes
    ]
    return plan


def _doc_of(app: Application, type_id: str) -> str | None:
    rtype = app.resource_types.get(type_id)
    return rtype.doc if rtype is not None else None
