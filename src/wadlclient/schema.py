"""A service's schema: the WADL model read as the objects need it, and where it comes from.

For every resource type the field descriptors (JSON key, converter, link
kind, linked type) are computed once per WADL model and memoised, so that
reading a field of an entry is two dict look-ups and a converter. A model
is parsed once per process (`SCHEMAS`) and, for a persistent cache and a
big enough document, once per cache (`schema_for`).

Thread safety: a `Schema` is shared by every root of the same service and
by their threads; its memo is filled under a lock, and what it holds is
immutable.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
import contextlib
import enum
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import date, datetime, timezone
from types import MappingProxyType
from typing import Any, NamedTuple

from wadlclient.cache import CacheRules
from wadlclient.errors import WADLError
from wadlclient.wadl import (
    Application,
    Method,
    Param,
    Representation,
    ResourceType,
    fragment_of,
    parse_wadl,
    wadl_digest,
)
from wadlclient.wadl.rebase import Twins, shape_of

__all__ = [
    "CONVERSION_ERRORS",
    "EXAMPLE_WADL_MEDIA_TYPE",
    "HOSTED_FILE_TYPE",
    "JSON_MEDIA_TYPE",
    "MODEL_PERSIST_MIN_BYTES",
    "REDACTED_VALUE",
    "SCHEMAS",
    "SUN_WADL_MEDIA_TYPE",
    "WADL_MEDIA_TYPES",
    "Field",
    "FieldKind",
    "Schema",
    "SchemaMemo",
    "TypeInfo",
    "converter_for",
    "schema_for",
]

#: The WADL media type a `ServiceRoot` asks for by default (lazr.restful's and Launchpad's).
EXAMPLE_WADL_MEDIA_TYPE = "application/vnd.example.wadl+xml"
#: The WADL media type of the W3C submission: asked for when a service refuses the other.
SUN_WADL_MEDIA_TYPE = "application/vnd.sun.wadl+xml"
WADL_MEDIA_TYPES = (EXAMPLE_WADL_MEDIA_TYPE, SUN_WADL_MEDIA_TYPE)
JSON_MEDIA_TYPE = "application/json"
#: The value a lazr.restful service serves for a field the caller may not see.
REDACTED_VALUE = "tag:launchpad.net:2008:redacted"
#: The resource type of links to hosted files, and of links to plain values.
HOSTED_FILE_TYPE = "HostedFile"
SCALAR_VALUE_TYPE = "ScalarValue"
#: Suffixes by which lazr.restful names link fields.
_COLLECTION_LINK = "_collection_link"
_LINK = "_link"

#: What a converter raises for a value it cannot read. ArithmeticError covers
#: decimal's InvalidOperation (and an int field's infinite float) without
#: importing decimal, which a process reading no decimal field never needs.
CONVERSION_ERRORS = (ValueError, TypeError, ArithmeticError)


# --------------------------------------------------------------------------
# Value converters: JSON value -> Python value, by the WADL param type.


def _to_datetime(value: Any) -> Any:
    """ISO 8601 text -> an aware datetime (naive times are taken as UTC)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed


def _to_date(value: Any) -> Any:
    """ISO 8601 date (or date-time, of which the date is kept) -> a date."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if "T" in text or " " in text:
        converted: date = _to_datetime(text).date()
        return converted
    return date.fromisoformat(text)


def _to_decimal(value: Any) -> Any:
    """A JSON number or numeric text -> Decimal, without binary float noise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, str)):
        from decimal import Decimal  # here: only a decimal field's first read pays for it

        return Decimal(str(value))
    return value


def _to_bool(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def _to_int(value: Any) -> Any:
    if isinstance(value, (str, float)) and not isinstance(value, bool):
        return int(value)
    return value


_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "dateTime": _to_datetime,
    "date": _to_date,
    "decimal": _to_decimal,
    "boolean": _to_bool,
    "int": _to_int,
    "integer": _to_int,
    "long": _to_int,
    "short": _to_int,
}


def converter_for(xsd_type: str) -> Callable[[Any], Any] | None:
    """The converter fields of this XML Schema type (``"date"``, ``"decimal"``...) get, if any."""
    return _CONVERTERS.get(xsd_type)


# --------------------------------------------------------------------------
# Field descriptors and type information.


class FieldKind(enum.Enum):
    """How a JSON field of a representation appears on the Python object."""

    ATTRIBUTE = "attribute"
    ENTRY = "entry"
    COLLECTION = "collection"
    HOSTED_FILE = "hosted_file"


class Field(NamedTuple):
    """One attribute of a resource type: where its value is and how to read it."""

    name: str
    key: str
    kind: FieldKind
    convert: Callable[[Any], Any] | None = None
    link_type: str | None = None
    options: tuple[str, ...] = ()


class TypeInfo(NamedTuple):
    """Everything the objects need to know about one resource type."""

    id: str | None
    fields: Mapping[str, Field] = MappingProxyType({})
    operations: Mapping[str, Method] = MappingProxyType({})
    is_collection: bool = False
    entry_type: str | None = None
    described: bool = True
    #: The JSON keys a PATCH may change (the type's PATCH representation);
    #: None when the WADL does not say.
    writable: frozenset[str] | None = None

    def names(self, kind: FieldKind) -> list[str]:
        return [f.name for f in self.fields.values() if f.kind is kind]


def _field_for(param: Param) -> Field:
    """Classify a JSON representation param the way lazr.restful names them."""
    name = param.name
    link = param.link
    if name != "self_link" and link is not None and link.resource_type is not None:
        linked = fragment_of(link.resource_type)
        if name.endswith(_COLLECTION_LINK):
            attribute = name[: -len(_COLLECTION_LINK)]
            return Field(attribute, name, FieldKind.COLLECTION, None, linked)
        if name.endswith(_LINK) and linked != SCALAR_VALUE_TYPE:
            kind = FieldKind.HOSTED_FILE if linked == HOSTED_FILE_TYPE else FieldKind.ENTRY
            return Field(name[: -len(_LINK)], name, kind, None, linked)
    convert = _CONVERTERS.get(param.type) if param.type else None
    return Field(name, name, FieldKind.ATTRIBUTE, convert, None, param.options)


def _info_from_representation(
    type_id: str | None,
    rep: Representation | None,
    operations: Mapping[str, Method],
) -> TypeInfo:
    """The descriptors of a JSON representation; ``entries`` marks a collection."""
    fields: dict[str, Field] = {}
    entry_type: str | None = None
    is_collection = type_id is not None and type_id.endswith("-page-resource")
    if rep is not None:
        for param in rep.params:
            if param.name == "entries":
                is_collection = True
            if param.name == "entry_links":
                if param.link is not None and param.link.resource_type is not None:
                    entry_type = fragment_of(param.link.resource_type)
                continue
            descriptor = _field_for(param)
            fields[descriptor.name] = descriptor
    return TypeInfo(
        id=type_id,
        fields=fields,
        operations=operations,
        is_collection=is_collection,
        entry_type=entry_type,
        described=rep is not None,
    )


class Schema:
    """A WADL model plus memoised per-type descriptors; shared by roots and threads.

    ``rebuild`` (given for a model loaded from the cache) parses the WADL
    again: a persisted model found damaged at a lookup is replaced once.
    """

    def __init__(self, app: Application, rebuild: Callable[[], Application] | None = None) -> None:
        self.app = app
        self._rebuild = rebuild
        self._lock = threading.Lock()
        self._types: dict[str, TypeInfo] = {}
        self._representations: dict[str, TypeInfo] = {}

    def type_info(self, type_ref: str) -> TypeInfo:
        """Descriptors of a resource type (``#id``, ``url#id`` or ``id``)."""
        type_id = fragment_of(type_ref)
        info = self._types.get(type_id)
        if info is not None:
            return info
        try:
            info = self._type_info(type_id)
        except WADLError:
            if not self._rebuilt():
                raise
            info = self._type_info(type_id)
        with self._lock:
            return self._types.setdefault(type_id, info)

    def _rebuilt(self) -> bool:
        """Replace a model loaded from the cache by the WADL parsed again (once)."""
        with self._lock:
            rebuild, self._rebuild = self._rebuild, None
            if rebuild is None:
                return False
            self.app = rebuild()
            self._types.clear()
            self._representations.clear()
            return True

    def _type_info(self, type_id: str) -> TypeInfo:
        rtype = self.app.resource_types.get(type_id)
        operations: Mapping[str, Method] = dict(rtype.named_operations) if rtype else {}
        rep = self.app.json_representation(type_id)
        info = _info_from_representation(type_id, rep, operations)
        return info._replace(writable=self._writable_keys(rtype))

    def _writable_keys(self, rtype: ResourceType | None) -> frozenset[str] | None:
        """The keys of the JSON representation a PATCH of this type takes, if it has one."""
        patch = rtype.method("PATCH") if rtype is not None else None
        if patch is None:
            return None
        for rep in patch.request.representations:
            try:
                resolved = self.app.resolve(rep)
            except WADLError:
                return None
            if resolved.media_type == JSON_MEDIA_TYPE:
                return frozenset(param.name for param in resolved.params)
        return None

    def result_info(self, method: Method) -> TypeInfo | None:
        """Descriptors of the JSON representation a named operation answers."""
        for rep in method.response_representations():
            try:
                resolved = self.app.resolve(rep)
            except WADLError:
                continue
            if resolved.media_type != JSON_MEDIA_TYPE:
                continue
            key = resolved.id or f"{method.id}-result"
            info = self._representations.get(key)
            if info is None:
                info = _info_from_representation(None, resolved, {})
                with self._lock:
                    info = self._representations.setdefault(key, info)
            return info
        return None


# --------------------------------------------------------------------------
# Where a schema comes from: this process, the cache, or the WADL itself.


class SchemaMemo:
    """The schemas this process built, by (URL, WADL digest); the least recent go first.

    ``twins`` keeps their models by shape (`wadlclient.wadl.rebase`): the
    same WADL served from another address (a test's fake on its own port)
    is rebased, not parsed again. A shape is worked out only once the memo
    holds a schema, so a process that reads one WADL pays nothing for it.
    """

    KEPT = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._schemas: OrderedDict[tuple[str, str], Schema] = OrderedDict()
        self.twins = Twins()

    def __bool__(self) -> bool:
        return bool(self._schemas)

    def get(self, key: tuple[str, str]) -> Schema | None:
        with self._lock:
            schema = self._schemas.get(key)
            if schema is not None:
                self._schemas.move_to_end(key)
            return schema

    def put(self, key: tuple[str, str], schema: Schema) -> None:
        with self._lock:
            self._schemas[key] = schema
            while len(self._schemas) > self.KEPT:
                self._schemas.popitem(last=False)


#: The process-wide memo `schema_for` consults first.
SCHEMAS = SchemaMemo()

#: WADL documents smaller than this are parsed at every start rather than
#: persisted as a model: for a small document, writing and loading the model
#: costs about as much as parsing it (figures in benchmarks/PROFILES.md).
MODEL_PERSIST_MIN_BYTES = 64 * 1024


def _persists(content: bytes, cache: CacheRules | None) -> bool:
    """Whether the model of this document is stored in (and loaded from) ``cache``."""
    return cache is not None and not cache.is_private and len(content) >= MODEL_PERSIST_MIN_BYTES


def _model_index_name(url: str) -> str:
    """The blob naming the digest of the model last stored for ``url``."""
    import hashlib

    return "wadl-index-" + hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _store_model(store: CacheRules, url: str, digest: str, app: Application) -> None:
    """Persist a model, and remove the one an older WADL of the same URL left."""
    from wadlclient.wadl.store import dump_model

    store.put_blob(f"wadl-model-{digest}", dump_model(app))
    index = _model_index_name(url)
    previous = store.get_blob(index)
    if previous is not None and previous != digest.encode("ascii"):
        with contextlib.suppress(ValueError):
            store.delete_blob("wadl-model-" + previous.decode("ascii", "replace"))
    if previous != digest.encode("ascii"):
        store.put_blob(index, digest.encode("ascii"))


def _reparse(content: bytes, url: str, store: CacheRules, digest: str) -> Application:
    """The model parsed again from the WADL, replacing a damaged persisted one."""
    app = parse_wadl(content, url)
    _store_model(store, url, digest, app)
    return app


def schema_for(
    content: bytes,
    url: str,
    cache: CacheRules | None,
    *,
    while_parsing: Callable[[], None] | None = None,
) -> Schema:
    """The schema of a WADL document, parsed once per process and once per cache.

    Keyed by URL and the digest of the document: in this process a schema
    is reused as is (`SCHEMAS`); in a persistent ``cache`` the model is
    stored beside the cached WADL, so a later process loads it instead of
    parsing the XML. A private temporary cache gets none: it dies with the
    process, which has the model in memory; nor does a document small
    enough to parse faster than its model pays back
    (`MODEL_PERSIST_MIN_BYTES`). A persisted model that is missing,
    damaged, foreign or made for another URL is ignored and replaced; a
    changed document has another digest, so an old model is never used,
    and is removed when the new one is stored. A model that proves damaged
    at a lookup is rebuilt from the WADL. ``while_parsing`` is called when
    the XML has to be parsed, once it proves to be WADL (`parse_wadl`'s
    ``on_root``).
    """
    digest = wadl_digest(content)
    key = (url, digest)
    blob_name = f"wadl-model-{digest}"
    store = cache if cache is not None and _persists(content, cache) else None
    schema = SCHEMAS.get(key)
    if schema is not None:
        if store is not None and not store.has_blob(blob_name):
            _store_model(store, url, digest, schema.app)
        return schema
    app = None
    rebuild = None
    if store is not None:
        from wadlclient.wadl.store import load_model

        blob = store.get_blob(blob_name, fill=True)
        app = load_model(blob) if blob is not None else None
        if app is not None and app.url != url:
            app = None
        if app is not None:
            rebuild = functools.partial(_reparse, content, url, store, digest)
    if app is None:
        shape = shape_of(content) if SCHEMAS else None
        app = SCHEMAS.twins.rebased(shape, url)
        if app is None:
            app = parse_wadl(content, url, on_root=while_parsing)
        SCHEMAS.twins.remember(shape, app, content)
        if store is not None:
            _store_model(store, url, digest, app)
    schema = Schema(app, rebuild)
    SCHEMAS.put(key, schema)
    return schema
