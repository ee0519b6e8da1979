"""The WADL model: immutable named tuples, indexed by id.

The model is built once per WADL document and shared by every object of a
service root (and, for speed, may be persisted beside the cached WADL).
All classes are named tuples of tuples, strings and mappings, so a model is
safe to share between threads and cheap to pickle. Named tuples rather than
frozen dataclasses: they are built faster (the parser makes hundreds at a
cold start) and defining them does not import `dataclasses` (and `inspect`)
with the package. This module imports nothing of wadlclient but its errors:
the parser and the store build on it.

References between parts of a WADL document are written either as
``#id`` or as ``<document url>#id``; every lookup here accepts both, and
also a bare ``id``.

No ``from __future__ import annotations`` here: a named tuple checks each
field's annotation when its class is defined, and compiles one that is a
string: a measurable part of a start, for the fields here. Every name the
annotations use is defined before them.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from wadlclient.errors import WADLError

__all__ = [
    "WADL_NS",
    "Application",
    "Link",
    "Method",
    "Param",
    "Representation",
    "Request",
    "ResourceType",
    "Response",
    "fragment_of",
]

WADL_NS = "http://research.sun.com/wadl/2006/10"


def fragment_of(ref: str) -> str:
    """Return the id a reference points at: ``'u#x'`` -> ``'x'``, ``'#x'`` -> ``'x'``."""
    _, hash_sign, fragment = ref.rpartition("#")
    return fragment if hash_sign else ref


#: The default of every mapping field: shared, so it must not be writable.
_NO_ENTRIES: Mapping[str, Any] = MappingProxyType({})


class Link(NamedTuple):
    """A ``<link>`` inside a param: the value is a URL of this resource type.

    ``resource_type`` is the id (fragment) of the linked resource type, or
    None for an untyped link (``<wadl:link/>``).
    """

    resource_type: str | None = None


class Param(NamedTuple):
    """A ``<param>``: a request parameter, a response header, or a JSON field.

    ``style`` is as written (``query``, ``plain``, ``header``, ``template``,
    ``matrix``). ``type`` is the local part of the XML schema type
    (``'dateTime'`` for ``xsd:dateTime``, ``'binary'``), or None.
    ``path`` is the JSONPath of a ``plain`` param (``$['name']``).
    """

    name: str
    style: str = "query"
    required: bool = False
    fixed: str | None = None
    type: str | None = None
    path: str | None = None
    options: tuple[str, ...] = ()
    link: Link | None = None
    doc: str | None = None


class Representation(NamedTuple):
    """A ``<representation>``: a media type and the params it carries.

    A representation that only refers to another one has ``href`` set and
    nothing else; resolve it with ``Application.representation(href)``.
    """

    id: str | None = None
    media_type: str | None = None
    href: str | None = None
    params: tuple[Param, ...] = ()
    doc: str | None = None

    def param(self, name: str) -> Param | None:
        """The param called ``name``, or None."""
        for param in self.params:
            if param.name == name:
                return param
        return None


class Request(NamedTuple):
    """A method's ``<request>``: query params and body representations."""

    params: tuple[Param, ...] = ()
    representations: tuple[Representation, ...] = ()


class Response(NamedTuple):
    """A method's ``<response>``: representations and header params.

    ``status`` holds the status codes the response is declared for (empty
    when the WADL does not say).
    """

    representations: tuple[Representation, ...] = ()
    params: tuple[Param, ...] = ()
    status: tuple[int, ...] = ()


class Method(NamedTuple):
    """A ``<method>`` of a resource type.

    ``name`` is the HTTP method in upper case. For a named operation
    ``ws_op`` is the fixed value of its ``ws.op`` param; ``params`` are the
    caller-supplied params (``ws.op`` excluded), from the query and from a
    form representation alike; ``body_media_type`` is the media type of the
    request body (``application/x-www-form-urlencoded``,
    ``multipart/form-data``) or None when params go in the query string.
    """

    name: str
    id: str | None = None
    doc: str | None = None
    request: Request = Request()
    responses: tuple[Response, ...] = ()
    ws_op: str | None = None
    params: tuple[Param, ...] = ()
    body_media_type: str | None = None

    def response_representations(self) -> tuple[Representation, ...]:
        """Every representation of every response, in document order."""
        return tuple(rep for response in self.responses for rep in response.representations)

    def response_header(self, name: str) -> Param | None:
        """A header param of a response (``Location`` of a factory), or None."""
        lowered = name.lower()
        for response in self.responses:
            for param in response.params:
                if param.style == "header" and param.name.lower() == lowered:
                    return param
        return None


class ResourceType(NamedTuple):
    """A ``<resource_type>``: its methods, and its named operations by name."""

    id: str
    doc: str | None = None
    methods: tuple[Method, ...] = ()
    named_operations: Mapping[str, Method] = _NO_ENTRIES

    def method(self, http_name: str, ws_op: str | None = None) -> Method | None:
        """The method with this HTTP name (and ``ws.op``), or None."""
        wanted = http_name.upper()
        for method in self.methods:
            if method.name == wanted and method.ws_op == ws_op:
                return method
        return None


class Application(NamedTuple):
    """A whole WADL document, indexed.

    ``base`` is the ``base`` of ``<resources>``; ``root_resource_type`` the
    id of the type of its top-level resource (``service-root``).
    """

    url: str | None = None
    base: str | None = None
    root_resource_type: str | None = None
    resource_types: Mapping[str, ResourceType] = _NO_ENTRIES
    representations: Mapping[str, Representation] = _NO_ENTRIES
    methods: Mapping[str, Method] = _NO_ENTRIES
    docs: tuple[str, ...] = ()

    def resource_type(self, ref: str) -> ResourceType:
        """The resource type ``ref`` names (``#id``, ``url#id`` or ``id``); KeyError if none."""
        return self.resource_types[fragment_of(ref)]

    def representation(self, ref: str) -> Representation:
        """The representation ``ref`` names; KeyError if none."""
        return self.representations[fragment_of(ref)]

    def resolve(self, representation: Representation) -> Representation:
        """Follow ``href`` until a representation with content is reached; WADLError if none."""
        seen = 0
        while representation.href is not None and seen < 16:
            href = representation.href
            try:
                representation = self.representation(href)
            except KeyError:
                raise WADLError(f"{self.url}: no representation {href!r} is defined") from None
            seen += 1
        return representation

    def json_representation(self, resource_type: str) -> Representation | None:
        """The ``application/json`` representation a GET on this resource type answers."""
        rtype = self.resource_types.get(fragment_of(resource_type))
        if rtype is None:
            return None
        get = rtype.method("GET")
        if get is None:
            return None
        for rep in get.response_representations():
            resolved = self.resolve(rep)
            if resolved.media_type == "application/json":
                return resolved
        return None
