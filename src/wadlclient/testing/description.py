"""What a WADL says a fake may serve: its collections, entry types, fields and values.

Read from wadlclient's own schema (`wadlclient.schema.Schema`), never from
the XML: the fake and the client agree on what the WADL means. Every
check here answers with the message lazr.restful would give, so a test
sees on the wire what the real service would have said.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any, NamedTuple

from wadlclient.schema import FieldKind, Schema, TypeInfo
from wadlclient.testing.errors import HTTPException
from wadlclient.wadl import Param, fragment_of

__all__ = ["Description", "check_scalar", "did_you_mean"]

#: Fields every entry carries that the fake fills in itself.
META_FIELDS = frozenset({"self_link", "resource_type_link", "http_etag", "web_link"})


#: XML Schema types -> the JSON values (as Python) that carry them.
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "integer": (int,),
    "long": (int,),
    "short": (int,),
    "boolean": (bool,),
    "decimal": (int, float),
    "float": (int, float),
    "double": (int, float),
    "string": (str,),
}


def did_you_mean(name: str, known: list[str] | tuple[str, ...] | Mapping[str, Any]) -> str:
    """`` (did you mean 'x'?)`` for a near miss among ``known``, else nothing."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_scalar(where: str, param: Param | None, value: Any) -> Any:
    """``value`` if it is of the param's WADL type (dateTime, date, options); a 400 if not.

    Launchpad's WADL types few params (dates and options); an untyped param
    takes any JSON value, as the WADL promises nothing more.
    """
    if param is None or value is None:
        return value
    if param.options and value not in param.options:
        raise HTTPException(
            400, f'{where}: Invalid value "{value}". Acceptable values are: '
            + ", ".join(param.options),
        )  # fmt: skip
    expected = _JSON_TYPES.get(param.type or "")
    if expected is not None and (
        isinstance(value, bool) is not (expected[0] is bool) or not isinstance(value, expected)
    ):
        raise HTTPException(
            400, f"{where}: got {type(value).__name__} {value!r}, expected {param.type}."
        )
    if param.type in ("dateTime", "date"):
        parse = datetime.fromisoformat if param.type == "dateTime" else date.fromisoformat
        text = value.isoformat() if isinstance(value, (date, datetime)) else value
        try:
            parse(str(text).replace("Z", "+00:00") if param.type == "dateTime" else str(text))
        except ValueError:
            raise HTTPException(400, f"{where}: Value doesn't look like a date.") from None
        return str(text)
    return value


class EntryType(NamedTuple):
    """One entry type: its schema, its JSON params by key, and which keys a PATCH may change."""

    id: str
    info: TypeInfo
    params: Mapping[str, Param]

    def field_names(self) -> list[str]:
        return [name for name in self.info.fields if self.info.fields[name].key not in META_FIELDS]


class Description:
    """The service a WADL describes, as the fake needs it: collections, types, fields."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        app = schema.app
        if app.root_resource_type is None:
            raise ValueError("this WADL has no root resource: a fake cannot serve it")
        self.root_type = app.root_resource_type
        self.root = schema.type_info(self.root_type)
        #: top-level collection name -> the collection's resource type id
        self.collections = {
            f.name: f.link_type
            for f in self.root.fields.values()
            if f.kind is FieldKind.COLLECTION and f.link_type is not None
        }
        self._types: dict[str, EntryType] = {}

    def collection_type(self, name: str) -> str:
        """The resource type of a top-level collection; a 404 naming a near miss."""
        found = self.collections.get(name)
        if found is None:
            raise HTTPException(
                404, f"The WADL has no top-level collection {name!r}"
                + did_you_mean(name, self.collections),
            )  # fmt: skip
        return found

    def entry_type_of(self, collection_type: str) -> EntryType:
        """The entry type of a collection's resource type (``people`` -> ``person``)."""
        info = self.schema.type_info(collection_type)
        if not info.is_collection or info.entry_type is None:
            raise HTTPException(404, f"{collection_type!r} is not a collection in the WADL")
        return self.entry_type(info.entry_type)

    def has_entry_type(self, type_id: str) -> bool:
        """Whether the WADL describes entries of ``type_id`` (a JSON representation, no page)."""
        known = self.schema.app.resource_types.get(fragment_of(type_id))
        if known is None or self.schema.type_info(known.id).is_collection:
            return False
        return self.schema.app.json_representation(known.id) is not None

    def entry_type(self, type_id: str) -> EntryType:
        """An entry type by id; a 404 when the WADL describes no JSON for it."""
        type_id = fragment_of(type_id)
        found = self._types.get(type_id)
        if found is not None:
            return found
        rep = self.schema.app.json_representation(type_id)
        if rep is None:
            raise HTTPException(404, f"The WADL has no entry type {type_id!r}")
        params = {param.name: param for param in rep.params}
        found = EntryType(type_id, self.schema.type_info(type_id), params)
        self._types[type_id] = found
        return found

    def conforms(self, type_id: str, link_type: str) -> bool:
        """Whether an entry of ``type_id`` may stand where the WADL links a ``link_type``.

        The WADL names interfaces too (Launchpad's ``bug_target``) and says
        nothing of what implements them: an entry conforms when it has
        every field of the linked type, or when that type has no JSON.
        """
        link_type = fragment_of(link_type)
        if type_id == link_type:
            return True
        wanted = self.schema.app.json_representation(link_type)
        if wanted is None:
            return True
        offered = self.entry_type(type_id).params
        return all(param.name in offered for param in wanted.params)
