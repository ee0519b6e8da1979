"""A class per resource type for entries: named for the type, with its WADL doc, for help().

``help(bug)`` shows the class of the object, so an entry of type ``bug``
is an instance of ``Bug``, a subclass of `Entry` (or of the class the
conventions give) made once per schema and base class, whose docstring is
the WADL's doc of the type and of each of its fields, links, collections
and named operations. It adds no member and no state: equality, pickling
of values, ``isinstance(x, Entry)`` and the compatibility layer's classes
are as before. A class registered for the type (``RESOURCE_TYPE_CLASSES``)
is used as it is.
"""

from __future__ import annotations

import re
import textwrap
import threading
import weakref
from typing import TypeVar, cast

from wadlclient.objects.entry import Entry
from wadlclient.schema import FieldKind, Schema, TypeInfo

__all__ = ["entry_class"]

_E = TypeVar("_E", bound=Entry)
#: A documented line is cut here: help() is a summary, the WADL has the rest.
_DOC_CHARS = 300

_lock = threading.Lock()
_classes: weakref.WeakKeyDictionary[Schema, dict[tuple[type[Entry], str], type[Entry]]] = (
    weakref.WeakKeyDictionary()
)


def entry_class(base: type[_E], schema: Schema, info: TypeInfo) -> type[_E]:
    """The subclass of ``base`` for entries of ``info``'s type (made on first use)."""
    if info.id is None:
        return base
    key = (base, info.id)
    made = _classes.get(schema, {}).get(key)
    if made is None:
        with _lock:
            made = _classes.setdefault(schema, {}).get(key)
            if made is None:
                made = _make(base, schema, info)
                _classes[schema][key] = made
    return cast("type[_E]", made)  # made from base, under base's key


def _make(base: type[Entry], schema: Schema, info: TypeInfo) -> type[Entry]:
    assert info.id is not None
    name = _class_name(info.id)
    namespace = {
        "__slots__": (),
        "__doc__": _doc_of(schema, info),
        "__module__": base.__module__,
        "__qualname__": name,
    }
    return type(name, (base,), namespace)


def _class_name(type_id: str) -> str:
    """``bug_task`` -> ``BugTask``."""
    words = [word for word in re.split(r"[^0-9A-Za-z]+", type_id) if word]
    text = "".join(word[:1].upper() + word[1:] for word in words) or "Entry"
    return f"T{text}" if text[0].isdigit() else text


def _short(doc: str | None) -> str:
    text = " ".join((doc or "").split())
    return text if len(text) <= _DOC_CHARS else text[:_DOC_CHARS].rsplit(" ", 1)[0] + " ..."


def _doc_of(schema: Schema, info: TypeInfo) -> str:
    """The type's WADL doc, then its fields, links, collections and operations with theirs."""
    assert info.id is not None
    rtype = schema.app.resource_types.get(info.id)
    lines = [f"An entry of type {info.id!r} of the service."]
    if rtype is not None and rtype.doc:
        lines += ["", *textwrap.wrap(_short(rtype.doc), 76)]
    representation = schema.app.json_representation(info.id)
    docs = {p.name: p.doc for p in representation.params} if representation is not None else {}
    sections = {
        FieldKind.ATTRIBUTE: "Fields",
        FieldKind.ENTRY: "Links",
        FieldKind.COLLECTION: "Collections",
        FieldKind.HOSTED_FILE: "Hosted files",
    }
    for kind, title in sections.items():
        described = [f for f in info.fields.values() if f.kind is kind]
        if described:
            lines += ["", f"{title}:"]
            lines += [_item(f.name, docs.get(f.key)) for f in described]
    if info.operations:
        lines += ["", "Named operations:"]
        lines += [_item(n, m.doc) for n, m in sorted(info.operations.items())]
    return "\n".join(lines)


def _item(name: str, doc: str | None) -> str:
    text = _short(doc)
    return f"    {name}: {text}" if text else f"    {name}"
