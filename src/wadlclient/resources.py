"""The object layer: service root, entries, collections, named operations, hosted files.

A `ServiceRoot` reads the service's WADL once and its JSON root, and from
then on every resource of the service is an ordinary Python object whose
fields, links, scoped collections and named operations are attributes.
Objects fetch lazily: reading a collection attribute, following a link
to an entry, or looking an entry up with ``collection(key)`` sends nothing
until data is needed.

Speed: for every resource type the field descriptors (JSON key, converter,
link kind, linked type) are computed once per WADL model and memoised, so
reading a field is two dict look-ups and a converter; entries built from
a collection page reuse the page's dicts as they are.  Slices, indexes
and ``len()`` page through `Collection._page_url` and
`Collection._fetch_page`; iteration through `Collection._pages_ahead`,
which fetches pages ahead on a few threads and holds a bounded amount
(one parsed page, the pages ahead as text) whatever the collection's size.

Thread safety: a service root may be used from several threads at once.
Shared and safe: the WADL model (immutable), the per-type descriptors
(memoised under a lock), the transport (thread-safe by contract), the
cache.  Lazily filled per-object state (an entry's representation, a
collection's first page and size) is replaced by single atomic
assignments of immutable-in-practice values, so two threads racing to
fill it at worst both fetch it.  Not guarded: an `Entry` being modified
(attribute assignment, ``lp_save``, ``lp_refresh``) from two threads at
once; coordinating writers is the caller's business.  A `HostedFileBuffer`
belongs to the thread that opened it.
"""

from __future__ import annotations

import contextlib
import enum
import io
import json
import os
import secrets
import threading
import urllib.parse
from collections import OrderedDict, deque
from collections.abc import Callable, Generator, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone
from decimal import Decimal, InvalidOperation
from types import TracebackType
from typing import Any, ClassVar, TypeVar

from wadlclient.cache import HTTPCache
from wadlclient.errors import (
    HTTPError,
    NotFound,
    ResponseError,
    WADLError,
)
from wadlclient.http import HTTPResponse, Transport
from wadlclient.wadl import (
    Application,
    Method,
    Param,
    Representation,
    fragment_of,
    parse_wadl,
    wadl_digest,
)

__all__ = [
    "EXAMPLE_WADL_MEDIA_TYPE",
    "JSON_MEDIA_TYPE",
    "REDACTED_VALUE",
    "SUN_WADL_MEDIA_TYPE",
    "Collection",
    "Entry",
    "HostedFile",
    "HostedFileBuffer",
    "NamedOperation",
    "Resource",
    "ServiceRoot",
]

EXAMPLE_WADL_MEDIA_TYPE = "application/vnd.example.wadl+xml"
SUN_WADL_MEDIA_TYPE = "application/vnd.sun.wadl+xml"
JSON_MEDIA_TYPE = "application/json"
#: The value a lazr.restful service serves for a field the caller may not see.
REDACTED_VALUE = "tag:launchpad.net:2008:redacted"

_WADL_MEDIA_TYPES = (EXAMPLE_WADL_MEDIA_TYPE, SUN_WADL_MEDIA_TYPE)
_REDACTED_MESSAGE = (
    "You tried to access a resource that you don't have the server-side permission to see."
)
_FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
_MULTIPART_MEDIA_TYPE = "multipart/form-data"
_HOSTED_FILE_TYPE = "HostedFile"
_SCALAR_VALUE_TYPE = "ScalarValue"
_MISSING: Any = object()

_R = TypeVar("_R", bound="Resource")


# --------------------------------------------------------------------------
# Field converters: JSON value -> Python value, by the WADL param type.


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


def _json_default(value: Any) -> Any:
    """Encode the non-JSON values the dialect knows how to send."""
    if isinstance(value, Resource):
        return value._url
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot send a {type(value).__name__} value to the web service")


def _dumps(value: Any) -> str:
    return json.dumps(value, default=_json_default)


# --------------------------------------------------------------------------
# Per resource type descriptors, computed once per WADL model.


class FieldKind(enum.Enum):
    """How a JSON field of a representation appears on the Python object."""

    ATTRIBUTE = "attribute"
    ENTRY = "entry"
    COLLECTION = "collection"
    HOSTED_FILE = "hosted_file"


@dataclass(frozen=True, slots=True)
class _Field:
    """One attribute of a resource type: where its value is and how to read it."""

    name: str
    key: str
    kind: FieldKind
    convert: Callable[[Any], Any] | None = None
    link_type: str | None = None
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class _TypeInfo:
    """Everything the objects need to know about one resource type."""

    id: str | None
    fields: Mapping[str, _Field] = field(default_factory=dict)
    operations: Mapping[str, Method] = field(default_factory=dict)
    is_collection: bool = False
    entry_type: str | None = None
    described: bool = True

    def names(self, kind: FieldKind) -> list[str]:
        return [f.name for f in self.fields.values() if f.kind is kind]


def _field_for(param: Param) -> _Field:
    """Classify a JSON representation param the way lazr.restful names them."""
    name = param.name
    link = param.link
    if name != "self_link" and link is not None and link.resource_type is not None:
        linked = fragment_of(link.resource_type)
        if name.endswith("_collection_link"):
            attribute = name[: -len("_collection_link")]
            return _Field(attribute, name, FieldKind.COLLECTION, None, linked)
        if name.endswith("_link") and linked != _SCALAR_VALUE_TYPE:
            kind = FieldKind.HOSTED_FILE if linked == _HOSTED_FILE_TYPE else FieldKind.ENTRY
            return _Field(name[: -len("_link")], name, kind, None, linked)
    convert = _CONVERTERS.get(param.type) if param.type else None
    return _Field(name, name, FieldKind.ATTRIBUTE, convert, None, param.options)


def _info_from_representation(
    type_id: str | None,
    rep: Representation | None,
    operations: Mapping[str, Method],
) -> _TypeInfo:
    fields: dict[str, _Field] = {}
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
    return _TypeInfo(
        id=type_id,
        fields=fields,
        operations=operations,
        is_collection=is_collection,
        entry_type=entry_type,
        described=rep is not None,
    )


class _Schema:
    """A WADL model plus memoised per-type descriptors; shared by roots and threads."""

    def __init__(self, app: Application) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._types: dict[str, _TypeInfo] = {}
        self._representations: dict[str, _TypeInfo] = {}

    def type_info(self, type_ref: str) -> _TypeInfo:
        """Descriptors of a resource type (``#id``, ``url#id`` or ``id``)."""
        type_id = fragment_of(type_ref)
        info = self._types.get(type_id)
        if info is not None:
            return info
        rtype = self.app.resource_types.get(type_id)
        operations: Mapping[str, Method] = dict(rtype.named_operations) if rtype else {}
        rep = self.app.json_representation(type_id)
        info = _info_from_representation(type_id, rep, operations)
        with self._lock:
            return self._types.setdefault(type_id, info)

    def result_info(self, method: Method) -> _TypeInfo | None:
        """Descriptors of the JSON representation a named operation answers."""
        for rep in method.response_representations():
            try:
                resolved = self.app.resolve(rep)
            except KeyError:
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


_MODEL_LOCK = threading.Lock()
_MODELS: OrderedDict[tuple[str, str], _Schema] = OrderedDict()
_MODELS_KEPT = 8

#: WADL documents smaller than this are parsed at every start rather than
#: persisted as a model: parsing the example service's 22 KB WADL takes about
#: 1.3 ms, while writing its model costs about 1.5 ms of the first start and
#: loading it saves only about 1 ms later. Launchpad's 1.5 MB WADL takes
#: ~100-200 ms to parse and ~1.3 ms to load.
MODEL_PERSIST_MIN_BYTES = 64 * 1024


def _schema_for(content: bytes, url: str, cache: HTTPCache | None) -> _Schema:
    """The model of a WADL document, parsed once per process and once per cache.

    Keyed by URL and the digest of the document: in this process a model
    is reused as is; in a persistent ``cache`` it is stored
    (`model_store.dump_model`) beside the cached WADL, so a later process loads
    it instead of parsing the XML. A private temporary cache gets none: it
    dies with the process, which has the model in memory; nor does a
    document small enough to parse faster than its model pays back
    (`MODEL_PERSIST_MIN_BYTES`). A persisted
    model that is missing, damaged, foreign or made for another URL is
    ignored and replaced; a changed document has another digest, so an old
    model is never used for it.
    """
    digest = wadl_digest(content)
    key = (url, digest)
    blob_name = f"wadl-model-{digest}"
    persist = (
        cache is not None
        and not cache.is_private
        and len(content) >= MODEL_PERSIST_MIN_BYTES
    )
    if persist:
        from wadlclient.model_store import dump_model, load_model
    with _MODEL_LOCK:
        schema = _MODELS.get(key)
        if schema is not None:
            _MODELS.move_to_end(key)
    if schema is not None:
        if cache is not None and persist and not cache.has_blob(blob_name):
            cache.put_blob(blob_name, dump_model(schema.app))
        return schema
    app = None
    if cache is not None and persist:
        blob = cache.get_blob(blob_name)
        app = load_model(blob) if blob is not None else None
        if app is not None and app.url != url:
            app = None
    if app is None:
        app = parse_wadl(content, url)
        if cache is not None and persist:
            cache.put_blob(blob_name, dump_model(app))
    schema = _Schema(app)
    with _MODEL_LOCK:
        _MODELS[key] = schema
        while len(_MODELS) > _MODELS_KEPT:
            _MODELS.popitem(last=False)
    return schema


def _query_of(url: str) -> tuple[str, str, str]:
    """``(before "?", query, "#fragment" or "")``, split as `urllib.parse.urlsplit` does.

    Page URLs are new with every page: splitting them by hand keeps them
    out of ``urlsplit``'s process-wide memo (128 URLs, ~0.4 KiB each),
    which would otherwise fill up with page URLs during a long walk.
    """
    url, hash_mark, fragment = url.partition("#")
    base, _, query = url.partition("?")
    return base, query, hash_mark + fragment


def _start_of(url: str) -> int | None:
    """The ``ws.start`` of a page URL (None when absent or not a number)."""
    for name, value in urllib.parse.parse_qsl(_query_of(url)[1]):
        if name == "ws.start":
            return int(value) if value.isdigit() else None
    return None


def _cancel(pending: deque[tuple[int, Future[Any]]]) -> None:
    """Drop pages requested ahead: those not started never will be."""
    while pending:
        pending.pop()[1].cancel()


def _media_type(response: HTTPResponse) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";", 1)[0].strip().lower()


def _with_query(url: str, **values: object) -> str:
    """``url`` with the given query variables set (others kept, in order)."""
    base, query, fragment = _query_of(url)
    pairs = [
        (k, v)
        for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True)
        if k not in values
    ]
    pairs += [(k, str(v)) for k, v in values.items()]
    query = urllib.parse.urlencode(pairs)
    return f"{base}?{query}{fragment}" if query else f"{base}{fragment}"


# --------------------------------------------------------------------------
# Resources.


class Resource:
    """Something at a URL of the service, described by a WADL resource type.

    ``_state`` holds ``(type descriptors or None, JSON representation or
    None)`` and is only ever replaced as a whole, so readers in other
    threads see either the old pair or the new one.
    """

    __slots__ = ("_root", "_state", "_url")

    _root: ServiceRoot
    _url: str
    _state: tuple[_TypeInfo | None, dict[str, Any] | None]

    def __init__(
        self,
        root: ServiceRoot,
        url: str,
        info: _TypeInfo | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_url", url)
        object.__setattr__(self, "_state", (info, data))

    # -- representation --------------------------------------------------

    def _fetch(self, headers: Mapping[str, str] | None = None) -> dict[str, Any] | None:
        """GET this resource; store and return its data (None when not modified)."""
        response = self._root._transport.request("GET", self._url, headers=headers)
        if response.not_modified:
            return None
        document = response.json()
        if not isinstance(document, dict):
            raise ResponseError(f"{self._url} did not serve a JSON object")
        self._bind(document)
        return document

    def _bind(self, document: dict[str, Any]) -> None:
        """Adopt a representation; the server's resource type wins over our guess."""
        info = self._state[0]
        type_link = document.get("resource_type_link")
        if isinstance(type_link, str) and (info is None or info.id != fragment_of(type_link)):
            info = self._root._schema.type_info(type_link)
        object.__setattr__(self, "_state", (info, document))

    def _data(self) -> dict[str, Any]:
        data = self._state[1]
        if data is None:
            data = self._fetch()
            assert data is not None
        return data

    def _info(self) -> _TypeInfo:
        info = self._state[0]
        if info is None:
            self._data()
            info = self._state[0]
            if info is None:
                info = _TypeInfo(id=None, described=False)
        return info

    # -- attribute access --------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._lookup(name)

    def _lookup(self, name: str) -> Any:
        info, data = self._state
        if info is not None and data is not None:
            # The common case: a field of a fetched resource.
            descriptor = info.fields.get(name)
            if descriptor is not None and name not in info.operations:
                return self._value(descriptor, data)
        info = self._info()
        method = info.operations.get(name)
        if method is not None:
            return NamedOperation(self, name, method)
        descriptor = info.fields.get(name)
        if descriptor is None and info.described:
            raise self._no_attribute(name)
        data = self._data()
        current = self._state[0]
        if current is not None and current is not info:
            # The server said this is another type than we assumed.
            info = current
            descriptor = info.fields.get(name)
            method = info.operations.get(name)
            if method is not None:
                return NamedOperation(self, name, method)
        if descriptor is None:
            if not info.described and name in data:
                return data[name]
            raise self._no_attribute(name)
        return self._value(descriptor, data)

    def _no_attribute(self, name: str) -> AttributeError:
        return AttributeError(f"{self._describe()} has no attribute {name!r}")

    def _describe(self) -> str:
        info = self._state[0]
        kind = info.id if info is not None and info.id else type(self).__name__
        return f"{kind} at {self._url}"

    def _value(self, descriptor: _Field, data: Mapping[str, Any]) -> Any:
        raw = data.get(descriptor.key, _MISSING)
        if raw is _MISSING:
            raise AttributeError(
                f"{self._describe()} has no {descriptor.key!r} in its representation"
            )
        if descriptor.kind is FieldKind.ATTRIBUTE:
            convert = descriptor.convert
            if raw is None or convert is None or raw == REDACTED_VALUE:
                return raw
            try:
                return convert(raw)
            except (ValueError, TypeError, InvalidOperation) as exc:
                raise ResponseError(
                    f"{descriptor.name} of {self._url} is not a valid value: {raw!r}"
                ) from exc
        if raw is None:
            return None
        if raw == REDACTED_VALUE:
            raise ValueError(_REDACTED_MESSAGE)
        if not isinstance(raw, str):
            raise ResponseError(f"{descriptor.key} of {self._url} is not a URL: {raw!r}")
        root = self._root
        if descriptor.kind is FieldKind.ENTRY:
            return root._entry(raw, descriptor.link_type, None)
        if descriptor.kind is FieldKind.COLLECTION:
            return root._collection(raw, descriptor.link_type)
        return HostedFile(root, raw)

    # -- meta-attributes ---------------------------------------------------

    @property
    def lp_attributes(self) -> list[str]:
        """Names of the plain fields (including ``self_link`` and ``http_etag``)."""
        info = self._info()
        if not info.described:
            return sorted(self._data())
        return info.names(FieldKind.ATTRIBUTE)

    @property
    def lp_entries(self) -> list[str]:
        """Names of the links to entries (and hosted files)."""
        info = self._info()
        return info.names(FieldKind.ENTRY) + info.names(FieldKind.HOSTED_FILE)

    @property
    def lp_collections(self) -> list[str]:
        """Names of the links to collections."""
        return self._info().names(FieldKind.COLLECTION)

    @property
    def lp_operations(self) -> list[str]:
        """Names of the named operations (their ``ws.op`` values)."""
        return list(self._info().operations)

    def lp_values_for(self, name: str) -> list[str] | None:
        """The values a field may take, or None when any value goes."""
        descriptor = self._info().fields.get(name)
        if descriptor is None:
            raise self._no_attribute(name)
        return list(descriptor.options) if descriptor.options else None

    def lp_has_parameter(self, name: str) -> bool:
        """Whether the resource type has a field of that name."""
        return name in self._info().fields

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        info = self._state[0]
        if info is not None:
            names.update(info.fields)
            names.update(info.operations)
        return sorted(names)

    def __repr__(self) -> str:
        return f"<{self._describe()}>"


class Entry(Resource):
    """A resource with fields that can be changed (PATCH), refreshed and deleted."""

    __slots__ = ("_dirty",)

    _dirty: dict[str, Any]

    def __init__(
        self,
        root: ServiceRoot,
        url: str,
        info: _TypeInfo | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(root, url, info, data)
        object.__setattr__(self, "_dirty", {})

    def _lookup(self, name: str) -> Any:
        dirty = self._dirty
        if name in dirty:
            return dirty[name]
        return super()._lookup(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        descriptor = self._info().fields.get(name)
        if descriptor is None or descriptor.kind not in (FieldKind.ATTRIBUTE, FieldKind.ENTRY):
            raise AttributeError(f"{self._describe()} has no field {name!r} that can be set")
        self._dirty[name] = value

    def __str__(self) -> str:
        return self._url

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        if self is other:
            return True
        return (
            self.self_link == other.self_link
            and self._data() == other._data()
            and self._dirty == other._dirty
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def self_link(self) -> str:
        """The entry's canonical URL, as the server states it."""
        value = self._data().get("self_link", self._url)
        return str(value)

    @property
    def http_etag(self) -> str | None:
        """The ETag of the representation held (None when the server gave none)."""
        value = self._data().get("http_etag")
        return value if isinstance(value, str) else None

    def lp_refresh(self) -> None:
        """Re-read the entry with a conditional GET; a 304 keeps the data.

        Local unsaved changes are dropped, as in lazr.restfulclient.
        """
        data = self._state[1]
        headers: dict[str, str] = {}
        if data is not None and isinstance(data.get("http_etag"), str):
            headers["If-None-Match"] = data["http_etag"]
        self._fetch(headers)
        self._dirty.clear()

    def lp_save(self) -> None:
        """PATCH the changed fields (with ``If-Match``) and adopt the server's answer.

        A 412 raises `PreconditionFailed` and keeps the local changes. When
        the change moved the entry (a rename answers 301, or 200 with a
        ``Location``), the entry is re-read from its new URL.
        """
        if not self._dirty:
            return
        info = self._info()
        changes: dict[str, Any] = {}
        for name, value in self._dirty.items():
            descriptor = info.fields[name]
            if descriptor.kind is FieldKind.ENTRY and isinstance(value, Resource):
                value = value._url
            changes[descriptor.key] = value
        body = _dumps(changes).encode("utf-8")
        headers: dict[str, str] = {}
        etag = self.http_etag
        if etag is not None:
            headers["If-Match"] = etag
        url = self.self_link
        response = self._root._transport.request(
            "PATCH",
            url,
            body=body,
            content_type=JSON_MEDIA_TYPE,
            headers=headers,
            follow_redirects=False,
        )
        location = response.headers.get("location")
        if location and (300 <= response.status < 400 or response.status in (200, 201)):
            object.__setattr__(self, "_url", urllib.parse.urljoin(url, location))
            self._fetch()
        elif _media_type(response) == JSON_MEDIA_TYPE and response.content:
            document = response.json()
            if not isinstance(document, dict):
                raise ResponseError(f"{url} answered the PATCH with something not an entry")
            self._bind(document)
            new_link = document.get("self_link")
            if isinstance(new_link, str):
                object.__setattr__(self, "_url", new_link)
        else:
            self._fetch()
        self._dirty.clear()

    def lp_delete(self) -> None:
        """DELETE the entry on the server."""
        self._root._transport.request("DELETE", self.self_link)


class Collection(Resource):
    """A paged list of entries: ``len()``, iteration, ``[i]``, ``[start:stop:step]``.

    Subclasses may set ``collection_of`` (the resource type of the entries)
    and override `key_url` for their key-based look-ups.
    """

    __slots__ = ("_entry_type", "_first_page", "_total")

    collection_of: ClassVar[str | None] = None
    #: The page size iteration asks for (the server may serve fewer per page).
    ITERATION_PAGE_SIZE: ClassVar[int] = 150
    #: Pages iteration requests ahead of the one being read.
    PREFETCH_DEPTH: ClassVar[int] = 2

    _entry_type: str | None
    _first_page: dict[str, Any] | None
    _total: int | None

    def __init__(
        self,
        root: ServiceRoot,
        url: str,
        info: _TypeInfo | None = None,
        first_page: dict[str, Any] | None = None,
        entry_type: str | None = None,
    ) -> None:
        super().__init__(root, url, info, None)
        if entry_type is None:
            entry_type = self.collection_of or (info.entry_type if info is not None else None)
        object.__setattr__(self, "_entry_type", entry_type)
        object.__setattr__(self, "_first_page", first_page)
        object.__setattr__(self, "_total", None)

    # A collection's own fields are paging details; only its operations are attributes.

    def _info(self) -> _TypeInfo:
        info = self._state[0]
        return info if info is not None else _TypeInfo(id=None)

    def _lookup(self, name: str) -> Any:
        method = self._info().operations.get(name)
        if method is None:
            raise self._no_attribute(name)
        return NamedOperation(self, name, method)

    def _describe(self) -> str:
        info = self._state[0]
        kind = info.id if info is not None and info.id else "collection"
        return f"{kind} collection at {self._url}"

    # -- pages -------------------------------------------------------------

    def _page_url(self, start: int, size: int | None = None) -> str:
        """The URL of the page of entries from ``start`` (``size`` of them if given)."""
        if size is None:
            return _with_query(self._url, **{"ws.start": start})
        return _with_query(self._url, **{"ws.start": start, "ws.size": size})

    def _fetch_page(self, url: str) -> dict[str, Any]:
        """GET one page of the collection and check that it is one."""
        document = self._root._transport.request("GET", url).json()
        if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
            raise ResponseError(f"{url} did not serve a page of a collection")
        return document

    def _page_zero(self) -> dict[str, Any]:
        """The first page, fetched once (a GET of the collection's own URL)."""
        page = self._first_page
        if page is None:
            page = self._fetch_page(self._url)
            object.__setattr__(self, "_first_page", page)
        return page

    def _entry_dicts(self, start: int, stop: int) -> list[dict[str, Any]]:
        """The representations of entries ``start`` to ``stop - 1`` (fewer at the end)."""
        wanted = stop - start
        if wanted <= 0:
            return []
        found: list[dict[str, Any]] = []
        page = self._first_page
        next_url: str | None
        if page is not None and not page.get("start") and start < len(page["entries"]):
            found = list(page["entries"][start:stop])
            next_url = page.get("next_collection_link")
            page_size = len(page["entries"])
        else:
            next_url = self._page_url(start, wanted)
            page_size = 0
        while len(found) < wanted and next_url:
            missing = wanted - len(found)
            if 0 < missing < page_size:
                # Ask for no more than is still needed.
                next_url = _with_query(next_url, **{"ws.size": missing})
            page = self._fetch_page(next_url)
            entries = page["entries"]
            found.extend(entries[:missing])
            next_url = page.get("next_collection_link")
            page_size = page_size or len(entries)
        return found

    def _entry_for(self, document: Any) -> Entry:
        if not isinstance(document, dict):
            raise ResponseError(f"a page of {self._url} holds something that is not an entry")
        url = document.get("self_link")
        type_link = document.get("resource_type_link")
        if not isinstance(url, str):
            raise ResponseError(f"an entry of {self._url} has no self_link")
        type_id = fragment_of(type_link) if isinstance(type_link, str) else self._entry_type
        return self._root._entry(url, type_id, document)

    # -- the sequence protocol ----------------------------------------------

    def __len__(self) -> int:
        total = self._total
        if total is not None:
            return total
        page = self._page_zero()
        size = page.get("total_size")
        if isinstance(size, int) and not isinstance(size, bool):
            total = size
        elif isinstance(page.get("total_size_link"), str):
            value = self._root._transport.request("GET", page["total_size_link"]).json()
            if not isinstance(value, int) or isinstance(value, bool):
                raise ResponseError(
                    f"the size of {self._url} is not a number: {value!r}"
                )
            total = value
        elif not page.get("next_collection_link"):
            total = int(page.get("start") or 0) + len(page["entries"])
        else:
            total = sum(1 for _ in self)
        object.__setattr__(self, "_total", total)
        return total

    def __iter__(self) -> Iterator[Entry]:
        """Every entry, in order, fetching pages ahead while the caller reads.

        See `_pages_ahead`: pages of up to ``ITERATION_PAGE_SIZE`` entries
        and at most ``PREFETCH_DEPTH`` requests in flight; stopping early
        (``break``, closing or dropping the iterator) cancels what has not
        started and waits for what has, so nothing runs on afterwards.

        Memory stays flat whatever the collection's size: a page fetched
        for the walk is let go of entry by entry as they are handed out, so
        an entry the caller drops is freed before the page ends (a first
        page kept for ``len()`` and slices is read without being emptied).
        """
        with contextlib.closing(self._pages_ahead()) as pages:
            for entries, owned in pages:
                if not owned:
                    for document in entries:
                        yield self._entry_for(document)
                    continue
                for index, document in enumerate(entries):
                    entries[index] = None
                    yield self._entry_for(document)

    def _page_text(self, url: str) -> tuple[str, str]:
        """GET one page and decode it: ``(JSON text, URL)``; its bytes are let go here.

        Pages fetched ahead wait as text, which takes less than half the
        memory of the parsed page; the walk parses each when it reaches it.
        """
        response = self._root._transport.request("GET", url)
        content = response.content
        try:
            return content.decode(json.detect_encoding(content)), response.url
        except UnicodeDecodeError as exc:
            raise ResponseError(
                f"the response from {response.url} is not UTF-8 text "
                f"(bad byte at position {exc.start})"
            ) from exc

    def _parse_page(self, text: str, url: str) -> dict[str, Any]:
        """The page a `_page_text` holds, checked to be one."""
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResponseError(
                f"malformed JSON in the response from {url}: {exc.msg} "
                f"at line {exc.lineno} column {exc.colno} (char {exc.pos})"
            ) from exc
        if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
            raise ResponseError(f"{url} did not serve a page of a collection")
        return document

    def _pages_ahead(self) -> Generator[tuple[list[Any], bool], None, None]:
        """The entries of the collection's pages in order, the following pages fetched ahead.

        Each item is ``(entries, owned)``: ``owned`` lists belong to the
        walk alone and may be emptied as they are read. The first page is
        the one already held (after ``len()`` or from a named operation),
        else a GET of the collection asking for ``ITERATION_PAGE_SIZE``
        entries; of that one only the total size is kept, for ``len()``.
        The server decides the size it serves; what it answers is trusted:
        each page must start where the previous one's
        ``next_collection_link`` points, and the walk ends on the first
        page without one. The pages after it are requested ahead at the
        offsets the server's page size predicts; one that turns out not to
        be the page the next link names (the collection changed size, the
        server serves another size) is dropped with everything requested
        after it, and the walk goes on from the next link as it is. For a
        collection that does not change meanwhile, the entries are exactly
        those of following the next links one by one, as lazr.restfulclient
        does. An entry added or removed during the walk may shift later
        pages, showing an entry twice or skipping one, as with any
        offset-paged listing (a page fetched ahead may show the collection
        a moment earlier).
        """
        size = self.ITERATION_PAGE_SIZE
        page = self._first_page
        owned = page is None
        if page is None:
            page = self._parse_page(
                *self._page_text(_with_query(self._url, **{"ws.size": size}))
            )
            total_size = page.get("total_size")
            if not page.get("start") and type(total_size) is int and self._total is None:
                object.__setattr__(self, "_total", total_size)
        next_url = page.get("next_collection_link")
        total = page.get("total_size")
        entries = page["entries"]
        del page
        yield entries, owned
        if not isinstance(next_url, str) or not next_url:
            return
        pending: deque[tuple[int, Future[tuple[str, str]]]] = deque()
        pool: ThreadPoolExecutor | None = None
        try:
            while isinstance(next_url, str) and next_url:
                start = _start_of(next_url)
                if pending and (start is None or pending[0][0] != start):
                    _cancel(pending)
                if pending:
                    page = self._parse_page(*pending.popleft()[1].result())
                else:
                    page = self._parse_page(
                        *self._page_text(_with_query(next_url, **{"ws.size": size}))
                    )
                if start is not None and page.get("start", start) != start:
                    # Not the page the link names: start again from the link.
                    _cancel(pending)
                    page = self._parse_page(*self._page_text(next_url))
                entries = page["entries"]
                next_url = page.get("next_collection_link")
                if isinstance(page.get("total_size"), int):
                    total = page["total_size"]
                del page
                if not isinstance(next_url, str) or not next_url:
                    yield entries, True
                    break
                if entries and len(entries) != size:
                    # The server serves pages of another size: predict with it.
                    _cancel(pending)
                    size = len(entries)
                following = _start_of(next_url)
                if following is not None and size > 0 and self.PREFETCH_DEPTH > 0:
                    if pool is None:
                        pool = ThreadPoolExecutor(
                            self.PREFETCH_DEPTH, thread_name_prefix="wadlclient-prefetch"
                        )
                    ahead = pending[-1][0] + size if pending else following
                    while len(pending) < self.PREFETCH_DEPTH and (
                        not isinstance(total, int) or ahead < total
                    ):
                        url = _with_query(next_url, **{"ws.start": ahead, "ws.size": size})
                        pending.append((ahead, pool.submit(self._page_text, url)))
                        ahead += size
                yield entries, True
                del entries
        finally:
            _cancel(pending)
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    def __getitem__(self, key: int | slice | str) -> Any:
        if isinstance(key, slice):
            return self._slice(key)
        if isinstance(key, int):
            if key < 0:
                raise ValueError("Collection slices must have a nonnegative start point.")
            found = self._entry_dicts(key, key + 1)
            if not found:
                raise IndexError("list index out of range")
            return self._entry_for(found[0])
        if isinstance(key, str):
            return self.lookup(key)
        raise TypeError(
            f"collection indices must be integers, slices or string keys, "
            f"not {type(key).__name__}"
        )

    def _slice(self, key: slice) -> list[Entry]:
        start, stop, step = key.start, key.stop, key.step
        if start is None:
            start = 0
        if not isinstance(start, int) or not isinstance(stop, (int, type(None))):
            raise TypeError("collection slice indices must be integers or None")
        if start < 0:
            raise ValueError("Collection slices must have a nonnegative start point.")
        if stop is None or stop < 0:
            raise ValueError("Collection slices must have a definite, nonnegative end point.")
        if step is None:
            step = 1
        if not isinstance(step, int):
            raise TypeError("collection slice step must be an integer or None")
        if step == 0:
            raise ValueError("slice step cannot be zero")
        if step > 0:
            documents = self._entry_dicts(start, stop)[::step]
        else:
            # items[start:stop:-n] are items[stop + 1 : start + 1], reversed, every n-th.
            documents = self._entry_dicts(stop + 1, start + 1)[::-1][::-step]
        return [self._entry_for(document) for document in documents]

    # -- key-based look-up ---------------------------------------------------

    def key_url(self, key: object) -> str:
        """The URL of the entry with this key; override for other URL schemes."""
        return f"{self._url.rstrip('/')}/{urllib.parse.quote(str(key), safe='')}"

    def lookup(self, key: object) -> Entry:
        """Fetch the entry with this key now (one GET); KeyError when there is none."""
        entry = self(key)
        try:
            entry._fetch()
        except NotFound:
            raise KeyError(key) from None
        return entry

    def __call__(self, key: object) -> Entry:
        """The entry with this key, unfetched: no request until a field is read."""
        return self._root._entry(self.key_url(key), self._entry_type, None)


class HostedFile(Resource):
    """A file the service stores for an entry (a cookbook's cover, say)."""

    __slots__ = ()

    def _info(self) -> _TypeInfo:
        return _TypeInfo(id=_HOSTED_FILE_TYPE)

    def open(
        self, mode: str = "r", content_type: str | None = None, filename: str | None = None
    ) -> HostedFileBuffer:
        """Read (``"r"``) the file now, or write it (``"w"``) when the buffer is closed."""
        if mode not in ("r", "w"):
            raise ValueError("Invalid mode. Supported modes are: r, w")
        return HostedFileBuffer(self, mode, content_type, filename)

    def delete(self) -> None:
        """Remove the file from the server."""
        self._root._transport.request("DELETE", self._url)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HostedFile):
            return NotImplemented
        return self._url == other._url

    def __hash__(self) -> int:
        return hash(self._url)


def _content_disposition(filename: str) -> str:
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in filename):
        raise ValueError("a file name may not contain control characters")
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    if escaped.isascii():
        return f'attachment; filename="{escaped}"'
    ascii_name = escaped.encode("ascii", "replace").decode("ascii")
    encoded = urllib.parse.quote(filename, safe="")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{encoded}"


class HostedFileBuffer(io.BytesIO):
    """The bytes of a hosted file; in ``"w"`` mode, closing it uploads them (PUT)."""

    def __init__(
        self,
        hosted_file: HostedFile,
        mode: str,
        content_type: str | None = None,
        filename: str | None = None,
    ) -> None:
        self.hosted_file = hosted_file
        self.url = hosted_file._url
        self._mode = mode
        self.last_modified: str | None = None
        value = b""
        if mode == "r":
            if content_type is not None:
                raise ValueError("Files opened for read access can't specify content_type.")
            if filename is not None:
                raise ValueError("Files opened for read access can't specify filename.")
            response = hosted_file._root._transport.request("GET", self.url, accept="*/*")
            value = response.content
            content_type = response.headers.get("content-type")
            self.last_modified = response.headers.get("last-modified")
            location = response.headers.get("content-location") or response.url
            path = urllib.parse.urlsplit(location).path
            filename = urllib.parse.unquote(path.rsplit("/", 1)[-1])
        else:
            if content_type is None:
                raise ValueError("Files opened for write access must specify content_type.")
            if filename is None:
                raise ValueError("Files opened for write access must specify filename.")
            self._disposition = _content_disposition(filename)
        self.content_type = content_type
        self.filename = filename
        super().__init__(value)

    @property
    def mode(self) -> str:
        """``"r"`` or ``"w"``."""
        return self._mode

    def close(self) -> None:
        """Upload the written bytes (write mode), then close."""
        if self.mode == "w" and not self.closed:
            body = self.getvalue()
            self.hosted_file._root._transport.request(
                "PUT",
                self.url,
                body=body,
                content_type=self.content_type,
                headers={"Content-Disposition": self._disposition},
            )
        super().close()

    def __repr__(self) -> str:
        return f"<HostedFileBuffer {self.mode!r} {self.url}>"


# --------------------------------------------------------------------------
# Named operations.


class NamedOperation:
    """A named operation bound to a resource; call it with keyword arguments."""

    __slots__ = ("_method", "_name", "_resource")

    def __init__(self, resource: Resource, name: str, method: Method) -> None:
        self._resource = resource
        self._name = name
        self._method = method

    @property
    def name(self) -> str:
        return self._name

    @property
    def http_method(self) -> str:
        return self._method.name

    def __repr__(self) -> str:
        return f"<NamedOperation {self._name} of {self._resource._url}>"

    def _arguments(self, kwargs: Mapping[str, Any]) -> list[tuple[str, str | bytes]]:
        """Check the arguments against the WADL and encode them as the dialect wants."""
        params = {param.name: param for param in self._method.params}
        unknown = sorted(set(kwargs) - set(params))
        if unknown:
            accepted = ", ".join(sorted(params)) or "no arguments"
            raise TypeError(
                f"{self._name}() got unexpected keyword argument(s) "
                f"{', '.join(unknown)}; it takes: {accepted}"
            )
        missing = [
            name
            for name, param in params.items()
            if param.required and param.fixed is None and name not in kwargs
        ]
        if missing:
            raise TypeError(
                f"{self._name}() missing required keyword argument(s): {', '.join(missing)}"
            )
        pairs: list[tuple[str, str | bytes]] = [("ws.op", self._method.ws_op or self._name)]
        for name, param in params.items():
            if name not in kwargs:
                if param.fixed is not None:
                    pairs.append((name, param.fixed))
                continue
            pairs.append((name, self._encode(param, kwargs[name])))
        return pairs

    def _encode(self, param: Param, value: Any) -> str | bytes:
        if isinstance(value, Resource):
            value = value._url
        if param.type == "binary":
            if isinstance(value, str):
                return value.encode("utf-8")
            if not isinstance(value, (bytes, bytearray)):
                raise TypeError(f"{self._name}(): {param.name} takes bytes")
            return bytes(value)
        if param.fixed is not None and value != param.fixed:
            raise ValueError(f"{self._name}(): {param.name} must be {param.fixed!r}")
        if param.options:
            text = value if isinstance(value, str) else str(value)
            if text not in param.options:
                raise ValueError(
                    f"{self._name}(): invalid value {text!r} for {param.name}; "
                    f"valid values are: {', '.join(param.options)}"
                )
            return text
        try:
            return _dumps(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{self._name}(): {param.name}: {exc}") from None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args:
            raise TypeError(f"{self._name}() takes keyword arguments only")
        pairs = self._arguments(kwargs)
        resource = self._resource
        transport = resource._root._transport
        url = resource._url
        http_method = self._method.name
        if http_method in ("GET", "HEAD", "DELETE"):
            query = urllib.parse.urlencode(sorted(pairs))
            url = f"{url}{'&' if '?' in url else '?'}{query}"
            response = transport.request(http_method, url)
        else:
            body, content_type = _request_body(self._method.body_media_type, pairs)
            response = transport.request(
                http_method, url, body=body, content_type=content_type, follow_redirects=False
            )
            if isinstance(resource, Entry):
                # The operation may have changed the entry: read it afresh when next needed.
                object.__setattr__(resource, "_state", (resource._state[0], None))
            if response.status in (301, 302, 303, 307, 308) and "location" in response.headers:
                new_url = urllib.parse.urljoin(url, response.headers["location"])
                if response.status == 301 and isinstance(resource, Entry):
                    object.__setattr__(resource, "_url", new_url)
                url = new_url
                response = transport.request("GET", url)
        return self._result(url, response)

    def _result(self, url: str, response: HTTPResponse) -> Any:
        root = self._resource._root
        if response.status == 201:
            location = response.headers.get("location")
            if not location:
                raise ResponseError(f"{self._name}() created something but gave no Location")
            return root.load(urllib.parse.urljoin(url, location))
        if not response.content:
            return None
        if _media_type(response) != JSON_MEDIA_TYPE:
            return response.content
        document = response.json()
        if isinstance(document, dict):
            type_link = document.get("resource_type_link")
            self_link = document.get("self_link")
            if isinstance(self_link, str) and isinstance(type_link, str):
                return root._entry(self_link, fragment_of(type_link), document)
            if isinstance(document.get("entries"), list):
                info = root._schema.result_info(self._method)
                entry_type = info.entry_type if info is not None else None
                return Collection(root, url, None, document, entry_type)
        return document


def _request_body(
    media_type: str | None, pairs: list[tuple[str, str | bytes]]
) -> tuple[bytes, str]:
    if media_type == _MULTIPART_MEDIA_TYPE:
        return _multipart(pairs)
    return urllib.parse.urlencode(sorted(pairs)).encode("ascii"), _FORM_MEDIA_TYPE


def _multipart(pairs: list[tuple[str, str | bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body: text parts as UTF-8, bytes as file parts."""
    parts: list[bytes] = []
    for name, value in pairs:
        quoted = urllib.parse.quote(name)
        if isinstance(value, bytes):
            head = (
                f'Content-Disposition: form-data; name="{quoted}"; filename="{quoted}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            )
            parts.append(head.encode("ascii") + value)
        else:
            head = (
                f'Content-Disposition: form-data; name="{quoted}"\r\n'
                'Content-Type: text/plain; charset="utf-8"\r\n\r\n'
            )
            parts.append(head.encode("ascii") + value.encode("utf-8"))
    boundary = secrets.token_hex(16)
    while any(boundary.encode("ascii") in part for part in parts):
        boundary = secrets.token_hex(16)
    delimiter = f"--{boundary}\r\n".encode("ascii")
    body = b"".join(delimiter + part + b"\r\n" for part in parts)
    body += f"--{boundary}--\r\n".encode("ascii")
    return body, f"{_MULTIPART_MEDIA_TYPE}; boundary={boundary}"


# --------------------------------------------------------------------------
# The service root.


def _root_url(service_root: str, version: str | None) -> str:
    url = service_root if service_root.endswith("/") else service_root + "/"
    if version is not None:
        url += str(version).strip("/") + "/"
    return url


class ServiceRoot(Resource):
    """The entry point to a web service: its WADL, its root resource, its transport.

    ``cache`` is None (a private temporary directory removed at exit), a
    directory (``str``, ``bytes`` or ``os.PathLike``) that persists, or an
    `HTTPCache`. ``version=None`` means ``service_root`` already ends in a
    version segment. Creating the root sends two GETs for the root URL:
    WADL, then JSON (fewer when the cache holds them fresh).
    """

    __slots__ = ("_schema", "_transport", "credentials")

    #: Client classes for resource type ids, like lazr.restfulclient's.
    RESOURCE_TYPE_CLASSES: ClassVar[dict[str, type[Resource]]] = {}

    _schema: _Schema
    _transport: Transport

    def __init__(
        self,
        authorizer: Any,
        service_root: str,
        cache: str | bytes | os.PathLike[str] | HTTPCache | None = None,
        *,
        version: str | None = "1.0",
        timeout: float | None = None,
        base_client_name: str = "",
        max_retries: int = 6,
        wadl_media_type: str = EXAMPLE_WADL_MEDIA_TYPE,
    ) -> None:
        url = _root_url(service_root, version)
        http_cache = cache if isinstance(cache, HTTPCache) else HTTPCache(cache)
        transport = self._make_transport(
            authorizer, http_cache, timeout, max_retries, base_client_name
        )
        object.__setattr__(self, "credentials", authorizer)
        object.__setattr__(self, "_transport", transport)
        try:
            schema = self._load_wadl(url, wadl_media_type, http_cache)
            object.__setattr__(self, "_schema", schema)
            document = self._root_document(url)
        except BaseException:
            transport.close()
            raise
        if not isinstance(document, dict):
            transport.close()
            raise ResponseError(f"{url} did not serve a JSON object for the service root")
        type_link = document.get("resource_type_link")
        if not isinstance(type_link, str):
            type_link = self._schema.app.root_resource_type or "service-root"
        super().__init__(self, url, self._schema.type_info(type_link), document)

    # -- extension points (wadlclient.lazr overrides these) -----------------

    def _make_transport(
        self,
        authorizer: Any,
        cache: HTTPCache,
        timeout: float | None,
        max_retries: int,
        base_client_name: str,
    ) -> Transport:
        """The transport every request of this root goes through."""
        return Transport(
            authorizer=authorizer,
            cache=cache,
            timeout=timeout,
            max_retries=max_retries,
            base_client_name=base_client_name,
        )

    def _root_document(self, url: str) -> Any:
        """The service root's JSON representation, parsed."""
        return self._transport.request("GET", url).json()

    def _wadl_accepts(self, preferred: str) -> list[str]:
        """The WADL media types to ask for, in order: the preferred one, then the other."""
        others = [t for t in _WADL_MEDIA_TYPES if t != preferred]
        return [preferred, *others[:1]]

    def _serves_wadl(self, response: HTTPResponse) -> bool:
        """Whether an answer to a WADL request is WADL (by its media type)."""
        return _media_type(response) in _WADL_MEDIA_TYPES

    def _load_wadl(self, url: str, preferred: str, cache: HTTPCache) -> _Schema:
        """GET the WADL, trying the other WADL media type once if the first fails.

        A failure is an error status other than 401 (credentials, which
        another media type cannot mend), an answer that is not WADL, or WADL
        that cannot be read. A last error status is raised as it is, unless
        it only refuses the media type (406, 415).
        """
        accepts = self._wadl_accepts(preferred)
        problems: list[str] = []
        for attempt, accept in enumerate(accepts):
            try:
                response = self._transport.request("GET", url, accept=accept)
            except HTTPError as error:
                last = attempt == len(accepts) - 1
                if error.status == 401 or (last and error.status not in (406, 415)):
                    raise
                problems.append(f"{accept}: {error}")
                continue
            if not self._serves_wadl(response):
                media_type = _media_type(response)
                problems.append(f"{accept}: answered {media_type or 'no Content-Type'}")
                continue
            try:
                return _schema_for(response.content, url, cache)
            except WADLError as error:
                problems.append(f"{accept}: {error}")
        raise WADLError(f"{url} did not serve a WADL description ({'; '.join(problems)})")

    # -- building resources ------------------------------------------------

    def _class_for(self, type_id: str | None, default: type[_R]) -> type[_R]:
        """The registered class for ``type_id`` if it suits, else ``default``."""
        if type_id is not None:
            cls = self.RESOURCE_TYPE_CLASSES.get(type_id)
            if cls is not None and issubclass(cls, default):
                return cls
        return default

    def _entry(self, url: str, type_id: str | None, data: dict[str, Any] | None) -> Entry:
        info = self._schema.type_info(type_id) if type_id is not None else None
        return self._class_for(type_id, Entry)(self, url, info, data)

    def _collection(self, url: str, type_id: str | None) -> Collection:
        info = self._schema.type_info(type_id) if type_id is not None else None
        return self._class_for(type_id, Collection)(self, url, info)

    # -- public ------------------------------------------------------------

    @property
    def service_root(self) -> str:
        """The root URL, version segment included."""
        return self._url

    def load(self, url: str) -> Resource:
        """The resource at ``url`` (absolute, or relative to the versioned root)."""
        if url.startswith("tag:"):
            raise ValueError(_REDACTED_MESSAGE)
        if not urllib.parse.urlsplit(url).scheme:
            url = self._url + url.lstrip("/")
        response = self._transport.request("GET", url)
        try:
            document = response.json()
        except ResponseError:
            raise ValueError(f"{url} does not serve a JSON document") from None
        type_link = document.get("resource_type_link") if isinstance(document, dict) else None
        if not isinstance(type_link, str):
            raise ValueError(f"cannot tell the resource type of {url}")
        assert isinstance(document, dict)
        type_id = fragment_of(type_link)
        info = self._schema.type_info(type_id)
        if info.is_collection or isinstance(document.get("entries"), list):
            cls = self._class_for(type_id, Collection)
            return cls(self, url, info, document)
        if self._state[0] is not None and type_id == self._state[0].id:
            return ServiceRootResource(self, url, info, document)
        self_link = document.get("self_link")
        return self._entry(self_link if isinstance(self_link, str) else url, type_id, document)

    def close(self) -> None:
        """Close the connection pool."""
        self._transport.close()

    def __enter__(self) -> ServiceRoot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _describe(self) -> str:
        return f"ServiceRoot at {self._url}"


class ServiceRootResource(Resource):
    """The root resource loaded again with `ServiceRoot.load` (read-only)."""

    __slots__ = ()
