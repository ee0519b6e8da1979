"""`Resource`: something at a URL of the service whose fields and operations are attributes.

A resource is given the `Session` of its service root and asks it for
everything beyond itself: the transport, the schema, and the objects its
links lead to. Its state (descriptors of its type, its representation) is
one immutable `ResourceState`, replaced as a whole, so readers in other
threads see either the old state or the new one. Other objects reach a
resource only through its public attributes and the functions `url_of`,
`session_of`, `fetch_now`, `unread_link` and `attach`.

Links fetched ahead (`wadlclient.objects.links`) are attached to the
entry that links to them; reading the link returns the attached entry,
representation and all, as long as the link still names its URL. An entry
handed out by a walk or a slice has a `Group` (the look-ahead's), told of
every read of its links to entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, SupportsIndex

from wadlclient.errors import Redacted, ResponseError
from wadlclient.objects.conventions import Conventions
from wadlclient.objects.keys import KeyPaths
from wadlclient.objects.revive import importable_class, revive_resource
from wadlclient.schema import CONVERSION_ERRORS, REDACTED_VALUE, Field, FieldKind, TypeInfo
from wadlclient.wadl import Method, fragment_of

if TYPE_CHECKING:
    from wadlclient.cache import CacheRules
    from wadlclient.http import Transport
    from wadlclient.objects.writelog import WriteLog
    from wadlclient.schema import Schema

__all__ = [
    "REDACTED_MESSAGE",
    "Resource",
    "ResourceState",
    "ServiceRootResource",
    "SessionLike",
    "attach",
    "attached_link",
    "fetch_now",
    "is_fetched",
    "representation_of",
    "session_of",
    "unread_link",
    "url_of",
]

REDACTED_MESSAGE = (
    "You tried to access a resource that you don't have the server-side permission to see."
)
_MISSING: Any = object()


class SessionLike(Protocol):
    """What a resource asks of its service root's session (`wadlclient.objects.session.Session`).

    Declared here, below every object class, so that resources, entries,
    collections and operations depend on this surface and not on the
    module that makes them: the object layer imports one way.
    """

    @property
    def transport(self) -> Transport: ...
    @property
    def cache(self) -> CacheRules: ...
    @property
    def schema(self) -> Schema: ...
    @property
    def root_url(self) -> str: ...
    @property
    def root_type(self) -> str | None: ...
    @property
    def look_ahead(self) -> int: ...
    @property
    def max_in_flight(self) -> int: ...
    @property
    def conventions(self) -> Conventions: ...
    @property
    def keys(self) -> KeyPaths: ...
    @property
    def writes(self) -> WriteLog | None: ...

    def entry(self, url: str, type_id: str | None, data: dict[str, Any] | None = None) -> Any:
        """The entry at ``url`` (an `Entry` or a registered subclass)."""

    def collection(
        self,
        url: str,
        type_id: str | None,
        first_page: dict[str, Any] | None = None,
        entry_type: str | None = None,
    ) -> Any:
        """The collection at ``url`` (a `Collection` or a registered subclass)."""

    def hosted_file(self, url: str) -> Any:
        """The hosted file at ``url``."""

    def operation(self, resource: Resource, name: str, method: Method, on_write: Any) -> Any:
        """The named operation ``name`` of ``resource``."""

    def load(self, url: str) -> Resource:
        """The resource at ``url``, fetched now."""


class ResourceState(NamedTuple):
    """What is known of a resource: its type's descriptors and its representation, if fetched."""

    info: TypeInfo | None
    data: dict[str, Any] | None


def url_of(resource: Resource) -> str:
    """The URL a resource stands for, without fetching anything."""
    return resource._url


def representation_of(resource: Resource) -> dict[str, Any]:
    """The resource's JSON representation as the service sent it (a copy; fetched if needed)."""
    return dict(resource._data())


def session_of(resource: Resource) -> SessionLike:
    """The session of the service root a resource belongs to."""
    return resource._session


def fetch_now(resource: Resource) -> None:
    """GET the resource now; its representation replaces any held."""
    resource._fetch()


def is_fetched(resource: Resource) -> bool:
    """Whether the resource holds a representation (reading its fields sends nothing)."""
    return resource._state.data is not None


def unread_link(resource: Resource, name: str) -> tuple[str, Field] | None:
    """The URL link ``name`` holds and its descriptor; None when there is nothing to fetch.

    Nothing to fetch: the link is null, redacted, or its target is attached
    already (`attached_link`). A name that is not a link to an entry is a
    `ValueError`.
    """
    found = _link(resource, name)
    if found is None or resource._attached(found[1].key, found[0]) is not None:
        return None
    return found


def attached_link(resource: Resource, name: str) -> Resource | None:
    """The entry attached for link ``name`` (fetched ahead), if any."""
    found = _link(resource, name)
    return None if found is None else resource._attached(found[1].key, found[0])


def _link(resource: Resource, name: str) -> tuple[str, Field] | None:
    """The URL link ``name`` holds and its descriptor (None: null or redacted)."""
    descriptor = resource._info().fields.get(name)
    if descriptor is None or descriptor.kind is not FieldKind.ENTRY:
        raise ValueError(f"{resource._describe()} has no link to an entry named {name!r}")
    url = resource._data().get(descriptor.key)
    if not isinstance(url, str) or url == REDACTED_VALUE:
        return None
    return url, descriptor


def attach(resource: Resource, key: str, target: Resource) -> None:
    """Attach ``target``, fetched, as what link ``key`` of ``resource`` leads to."""
    linked = resource._linked
    object.__setattr__(resource, "_linked", {**linked, key: target} if linked else {key: target})


class Group(Protocol):
    """Where the look-ahead placed an entry (`lookahead`, or `links.LookAhead` when fixed)."""

    def read(
        self, entry: Resource, descriptor: Field, url: str, target: Resource | None
    ) -> Resource | None:
        """Link ``descriptor`` of ``entry``, naming ``url``, is read; ``target`` is attached.

        Returns the entry to hand back (None: a new one, as without a group).
        """


class Resource:
    """Something at a URL of the service, described by a WADL resource type."""

    __slots__ = ("__weakref__", "_at", "_group", "_linked", "_session", "_state", "_url")

    _session: SessionLike
    _url: str
    _state: ResourceState
    #: Link targets fetched ahead, by link key (None: none).
    _linked: dict[str, Resource] | None
    #: Its stream in the look-ahead (None: not handed out by a walk or a slice, or off).
    _group: Group | None
    #: Its index in that stream (set with ``_group`` by the adaptive look-ahead only).
    _at: int

    def __init__(
        self,
        session: SessionLike,
        url: str,
        info: TypeInfo | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_url", url)
        object.__setattr__(self, "_state", ResourceState(info, data))
        object.__setattr__(self, "_linked", None)
        object.__setattr__(self, "_group", None)

    # -- pickling (`wadlclient.objects.revive`) -------------------------------

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        """Pickled as its root's recipe, its class, URL, type and representation: no secret.

        Unpickled, it sends nothing until used; then its root is made again
        in that process with the credentials the process has.
        """
        recipe = getattr(self._session, "recipe", None)
        if recipe is None:
            raise TypeError(f"cannot pickle {self._describe()}: its session has no root recipe")
        info = self._state.info
        return revive_resource, (
            recipe, importable_class(type(self)), self._url, info.id if info is not None else None,
            self._state.data, self._pickled_state(),
        )  # fmt: skip

    def _pickled_state(self) -> dict[str, Any]:
        """What a subclass pickles beyond the representation (given back to `_revived`)."""
        return {}

    @classmethod
    def _revived(
        cls, session: Any, url: str, info: Any, data: dict[str, Any] | None, state: dict[str, Any]
    ) -> Resource:
        """An unpickled resource on ``session``, made without calling the class's ``__init__``."""
        resource = cls.__new__(cls)
        Resource.__init__(resource, session, url, info, data)
        return resource

    def _attached(self, key: str, url: str) -> Resource | None:
        """The target attached for link ``key``, if it is still the one at ``url``."""
        linked = self._linked
        if linked is None:
            return None
        target = linked.get(key)
        return target if target is not None and target._url == url else None

    # -- representation --------------------------------------------------

    def _fetch(self, headers: Mapping[str, str] | None = None) -> dict[str, Any] | None:
        """GET this resource; store and return its data (None when not modified)."""
        response = self._session.transport.request("GET", self._url, headers=headers)
        if response.not_modified:
            return None
        document = response.json()
        if not isinstance(document, dict):
            raise ResponseError(f"{self._url} did not serve a JSON object")
        self._bind(document)
        return document

    def _bind(self, document: dict[str, Any]) -> None:
        """Adopt a representation; the server's resource type wins over our guess."""
        info = self._state.info
        type_link = document.get("resource_type_link")
        if isinstance(type_link, str) and (info is None or info.id != fragment_of(type_link)):
            info = self._session.schema.type_info(type_link)
        object.__setattr__(self, "_state", ResourceState(info, document))

    def _data(self) -> dict[str, Any]:
        """The representation, fetched on first need."""
        data = self._state.data
        if data is None:
            data = self._fetch()
            assert data is not None
        return data

    def _info(self) -> TypeInfo:
        """The type's descriptors; fetches when only the server can tell the type."""
        info = self._state.info
        if info is None:
            self._data()
            info = self._state.info
            if info is None:
                info = TypeInfo(id=None, described=False)
        return info

    def _operation(self, name: str, method: Method) -> Any:
        return self._session.operation(self, name, method, self._operation_wrote)

    def _operation_wrote(self, moved_to: str | None) -> None:
        """A named operation wrote to this resource (and moved it when ``moved_to``)."""

    # -- attribute access --------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._lookup(name)

    def _lookup(self, name: str) -> Any:
        """A field, link or named operation by name, fetching only when it must."""
        info, data = self._state
        if info is not None and data is not None:
            # The common case: a field of a fetched resource.
            descriptor = info.fields.get(name)
            if descriptor is not None and name not in info.operations:
                return self._value(descriptor, data)
        info = self._info()
        method = info.operations.get(name)
        if method is not None:
            return self._operation(name, method)
        descriptor = info.fields.get(name)
        if descriptor is None and info.described:
            raise self._no_attribute(name)
        data = self._data()
        current = self._state.info
        if current is not None and current is not info:
            # The server said this is another type than we assumed.
            info = current
            descriptor = info.fields.get(name)
            method = info.operations.get(name)
            if method is not None:
                return self._operation(name, method)
        if descriptor is None:
            if not info.described and name in data:
                return data[name]
            raise self._no_attribute(name)
        return self._value(descriptor, data)

    def _no_attribute(self, name: str) -> AttributeError:
        return AttributeError(f"{self._describe()} has no attribute {name!r}")

    def _describe(self) -> str:
        info = self._state.info
        kind = info.id if info is not None and info.id else type(self).__name__
        return f"{kind} at {self._url}"

    def _value(self, descriptor: Field, data: Mapping[str, Any]) -> Any:
        """The Python value of a field: converted, or the object a link leads to."""
        raw = data.get(descriptor.key, _MISSING)
        if raw is _MISSING:
            raise AttributeError(
                f"{self._describe()} has no {descriptor.key!r} in its representation"
            )
        if descriptor.kind is FieldKind.ATTRIBUTE:
            convert = descriptor.convert
            overrides = self._session.conventions.converters
            if overrides and convert is not None and convert in overrides:
                convert = overrides[convert]
            if raw is None or convert is None or raw == REDACTED_VALUE:
                return raw
            try:
                return convert(raw)
            except CONVERSION_ERRORS as exc:
                raise ResponseError(
                    f"{descriptor.name} of {self._url} is not a valid value: {raw!r}"
                ) from exc
        if raw is None:
            return None
        if raw == REDACTED_VALUE:
            raise Redacted(REDACTED_MESSAGE)
        if not isinstance(raw, str):
            raise ResponseError(f"{descriptor.key} of {self._url} is not a URL: {raw!r}")
        session = self._session
        if descriptor.kind is FieldKind.ENTRY:
            target = self._attached(descriptor.key, raw)
            if self._group is not None:
                target = self._group.read(self, descriptor, raw, target)
            return target if target is not None else session.entry(raw, descriptor.link_type)
        if descriptor.kind is FieldKind.COLLECTION:
            return session.collection(raw, descriptor.link_type)
        return session.hosted_file(raw)

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
        info = self._state.info
        if info is not None:
            names.update(info.fields)
            names.update(info.operations)
        return sorted(names)

    def __repr__(self) -> str:
        return f"<{self._describe()}>"


class ServiceRootResource(Resource):
    """The root resource loaded again with `ServiceRoot.load` (read-only)."""

    __slots__ = ()
