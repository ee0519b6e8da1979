"""lazr.restfulclient's ``Resource`` surface, over wadlclient's objects.

lazr names a resource's parameters from the params of its type's JSON
representation in the WADL, in the WADL's order: a param holding a link
to a described resource type is an entry (``owner_link`` -> ``owner``) or
a collection (``bugs_collection_link`` -> ``bugs``), every other one an
attribute. A page of a collection is described too (``total_size``,
``start``, ``entries``), so ``collection.total_size`` reads the page as
lazr reads it. `LazrSurface` gives that naming (``lp_attributes``,
``lp_entries``, ``lp_collections``, ``dir()``), ``lp_get_parameter``,
``lp_get_named_operation`` and lazr's class constants to the compat
layer's entries, collections, hosted files and service root.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from wadlclient.lazr import named_as_lazr
from wadlclient.objects import Resource, representation_of, session_of, url_of
from wadlclient.schema import FieldKind

__all__ = [
    "FIND_ATTRIBUTES",
    "FIND_COLLECTIONS",
    "FIND_ENTRIES",
    "RESOURCE_MODULE",
    "LazrSurface",
    "ScalarValue",
    "WadlResource",
]

#: Where lazr defines its resource classes (`named_as_lazr` maps it to lazr's name).
RESOURCE_MODULE = "wadlclient.lazr.restfulclient.resource"

#: lazr's markers for the kinds of parameter (``Resource.FIND_*``).
FIND_COLLECTIONS = object()
FIND_ENTRIES = object()
FIND_ATTRIBUTES = object()

_COLLECTION_SUFFIX = "_collection_link"


class WadlResource(NamedTuple):
    """What lazr's ``resource._wadl_resource`` (a wadllib resource) tells: the URL."""

    url: str


@named_as_lazr
class ScalarValue(Resource):
    """A resource whose representation is one JSON value rather than an object."""

    __module__ = RESOURCE_MODULE

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))

    @property
    def value(self) -> Any:
        """The value, fetched now."""
        return session_of(self).transport.request("GET", url_of(self)).json()


_LINK_SUFFIX = "_link"


class LazrSurface:
    """Mixed into the compat classes, before wadlclient's class of the same role."""

    __slots__ = ()

    JSON_MEDIA_TYPE: ClassVar[str] = "application/json"
    FIND_COLLECTIONS: ClassVar[object] = FIND_COLLECTIONS
    FIND_ENTRIES: ClassVar[object] = FIND_ENTRIES
    FIND_ATTRIBUTES: ClassVar[object] = FIND_ATTRIBUTES

    # -- what a subclass says about itself -------------------------------------

    def _lazr_type(self) -> str | None:
        """The WADL id of the type whose JSON representation names the parameters."""
        assert isinstance(self, Resource)
        info = self._info()
        return info.id

    def _lazr_document(self) -> dict[str, Any]:
        """The representation parameters are read from (fetched if need be)."""
        assert isinstance(self, Resource)
        return representation_of(self)

    # -- lazr's naming ---------------------------------------------------------

    def _lazr_params(self) -> dict[str, str | None]:
        """Param name -> the resource type its link leads to (None: not a followable link)."""
        assert isinstance(self, Resource)
        type_id = self._lazr_type()
        if type_id is None:
            return {}
        representation = session_of(self).schema.app.json_representation(type_id)
        if representation is None:
            return {}
        return {
            param.name: param.link.resource_type if param.link is not None else None
            for param in representation.params
        }

    def _lazr_names(self, *kinds: object) -> list[str]:
        """lazr's names of the parameters of ``kinds``, in the WADL's order."""
        names = []
        for name, link_type in self._lazr_params().items():
            if name != "self_link" and link_type is not None:
                if name.endswith(_COLLECTION_SUFFIX):
                    if FIND_COLLECTIONS in kinds:
                        names.append(name.removesuffix(_COLLECTION_SUFFIX))
                elif FIND_ENTRIES in kinds:
                    names.append(name[: -len(_LINK_SUFFIX)])
            elif FIND_ATTRIBUTES in kinds:
                names.append(name)
        return names

    @property
    def lp_attributes(self) -> list[str]:
        """The scalar parameters (``self_link`` and links to undescribed resources too)."""
        return self._lazr_names(FIND_ATTRIBUTES)

    @property
    def lp_entries(self) -> list[str]:
        """The links to entries, hosted files and other single resources."""
        return self._lazr_names(FIND_ENTRIES)

    @property
    def lp_collections(self) -> list[str]:
        """The links to collections."""
        return self._lazr_names(FIND_COLLECTIONS)

    def __dir__(self) -> list[str]:
        """Python's names, lazr's parameter names and the named operations.

        As lazr's, it never raises: a resource the service cannot describe
        (an error fetching it, say) still lists Python's names, so an
        editor's completion keeps working.
        """
        names = set(super().__dir__())
        try:
            names.update(self._lazr_names(FIND_ATTRIBUTES, FIND_ENTRIES, FIND_COLLECTIONS))
            names.update(getattr(self, "lp_operations", ()))
        except Exception:
            pass
        return sorted(names)

    # -- reading parameters ----------------------------------------------------

    def lp_get_parameter(self, param_name: str) -> Any:
        """A parameter's value, or the resource its link leads to; KeyError if none.

        As lazr: ``name_link`` then ``name_collection_link`` are tried (one
        absent from the representation is skipped; a null link is None),
        then ``name`` itself.
        """
        params = self._lazr_params()
        if not any(
            key in params for key in (param_name + _LINK_SUFFIX,
                                      param_name + _COLLECTION_SUFFIX, param_name)
        ):  # fmt: skip
            raise KeyError(f"No such parameter: {param_name}")
        document = self._lazr_document()
        for key in (param_name + _LINK_SUFFIX, param_name + _COLLECTION_SUFFIX):
            if key not in params or key not in document:
                continue
            url = document[key]
            if url is None:
                return None
            return self._lazr_linked(param_name, key, params[key], url)
        if param_name not in params:
            raise KeyError(f"No such parameter: {param_name}")
        if param_name not in document:
            raise KeyError(param_name)
        return self._lazr_value(param_name, document)

    def _lazr_value(self, name: str, document: dict[str, Any]) -> Any:
        """A scalar parameter as attribute access converts it (wadlclient's field)."""
        assert isinstance(self, Resource)
        descriptor = self._info().fields.get(name)
        if descriptor is None or descriptor.kind is not FieldKind.ATTRIBUTE:
            return document[name]
        return self._value(descriptor, document)

    def _lazr_linked(self, name: str, key: str, link_type: str | None, url: Any) -> Any:
        """What link ``key`` leads to: the object attribute access gives, else one made here."""
        assert isinstance(self, Resource)
        descriptor = self._info().fields.get(name)
        if descriptor is not None and descriptor.key == key:
            return self._value(descriptor, self._lazr_document())
        session = session_of(self)
        if link_type in ("HostedFile",):
            return session.hosted_file(url)
        if link_type == "ScalarValue":
            return ScalarValue(session, url)
        if key.endswith(_COLLECTION_SUFFIX) or (link_type or "").endswith("-page-resource"):
            return session.collection(url, link_type)
        return session.entry(url, link_type)

    def lp_get_named_operation(self, operation_name: str) -> Any:
        """The named operation with that ``ws.op``; KeyError if the type has none."""
        assert isinstance(self, Resource)
        method = self._info().operations.get(operation_name)
        if method is None:
            raise KeyError(f"No operation with name: {operation_name}")
        return self._operation(operation_name, method)
