"""WADL document -> immutable model, indexed by id.

The model is built once per WADL document and shared by every object of a
service root (and, for speed, may be persisted beside the cached WADL).
All classes are frozen dataclasses made of tuples, strings and dicts, so a
model is safe to share between threads and cheap to pickle.

References between parts of a WADL document are written either as
``#id`` or as ``<document url>#id``; every lookup here accepts both, and
also a bare ``id``.

Parsing is safe on untrusted input: a DOCTYPE may declare internal
entities (lazr.restful declares ``&nbsp;``), but external entities, an
external DTD, parameter entities, entities that refer to other entities, and
declarations whose references would add more than ``MAX_EXPANSION``
characters are refused with ``WADLError`` before anything is expanded.

Every ``<representation>`` and ``<method>`` with an id is indexed wherever it
appears (the first definition of an id wins); forward references are
resolved once the whole document has been read.
"""

from __future__ import annotations

import codecs
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

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
    "parse_wadl",
    "wadl_digest",
]

WADL_NS = "http://research.sun.com/wadl/2006/10"


def fragment_of(ref: str) -> str:
    """Return the id a reference points at: ``'u#x'`` -> ``'x'``, ``'#x'`` -> ``'x'``."""
    _, hash_sign, fragment = ref.rpartition("#")
    return fragment if hash_sign else ref


@dataclass(frozen=True, slots=True)
class Link:
    """A ``<link>`` inside a param: the value is a URL of this resource type.

    ``resource_type`` is the id (fragment) of the linked resource type, or
    None for an untyped link (``<wadl:link/>``).
    """

    resource_type: str | None = None


@dataclass(frozen=True, slots=True)
class Param:
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


@dataclass(frozen=True, slots=True)
class Representation:
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


@dataclass(frozen=True, slots=True)
class Request:
    """A method's ``<request>``: query params and body representations."""

    params: tuple[Param, ...] = ()
    representations: tuple[Representation, ...] = ()


@dataclass(frozen=True, slots=True)
class Response:
    """A method's ``<response>``: representations and header params.

    ``status`` holds the status codes the response is declared for (empty
    when the WADL does not say).
    """

    representations: tuple[Representation, ...] = ()
    params: tuple[Param, ...] = ()
    status: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Method:
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
    request: Request = field(default_factory=Request)
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


@dataclass(frozen=True, slots=True)
class ResourceType:
    """A ``<resource_type>``: its methods, and its named operations by name."""

    id: str
    doc: str | None = None
    methods: tuple[Method, ...] = ()
    named_operations: Mapping[str, Method] = field(default_factory=dict)

    def method(self, http_name: str, ws_op: str | None = None) -> Method | None:
        """The method with this HTTP name (and ``ws.op``), or None."""
        wanted = http_name.upper()
        for method in self.methods:
            if method.name == wanted and method.ws_op == ws_op:
                return method
        return None


@dataclass(frozen=True, slots=True)
class Application:
    """A whole WADL document, indexed.

    ``base`` is the ``base`` of ``<resources>``; ``root_resource_type`` the
    id of the type of its top-level resource (``service-root``).
    """

    url: str | None = None
    base: str | None = None
    root_resource_type: str | None = None
    resource_types: Mapping[str, ResourceType] = field(default_factory=dict)
    representations: Mapping[str, Representation] = field(default_factory=dict)
    methods: Mapping[str, Method] = field(default_factory=dict)
    docs: tuple[str, ...] = ()

    def resource_type(self, ref: str) -> ResourceType:
        """The resource type ``ref`` names (``#id``, ``url#id`` or ``id``); KeyError if none."""
        return self.resource_types[fragment_of(ref)]

    def representation(self, ref: str) -> Representation:
        """The representation ``ref`` names; KeyError if none."""
        return self.representations[fragment_of(ref)]

    def resolve(self, representation: Representation) -> Representation:
        """Follow ``href`` until a representation with content is reached."""
        seen = 0
        while representation.href is not None and seen < 16:
            representation = self.representation(representation.href)
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


# --------------------------------------------------------------------------
# Parsing
#
# One pass of expat with Python handlers builds the model directly: no
# element tree is built, and the XHTML inside ``<doc>`` never reaches Python
# except as text.  Children are built before their parent (on the end tag),
# so every object is created once, in its final, immutable form.

#: At most this many entities may be declared in a DOCTYPE.
MAX_ENTITIES = 64
#: An entity's replacement text may be at most this many characters long.
MAX_ENTITY_LENGTH = 1024
#: Entity references may add at most this many characters (or as many as
#: the document has, if it is larger) before the document is refused.
MAX_EXPANSION = 1 << 20

_W = WADL_NS + "}"
_APPLICATION = _W + "application"
_RESOURCES = _W + "resources"
_RESOURCE = _W + "resource"
_RESOURCE_TYPE = _W + "resource_type"
_METHOD = _W + "method"
_REQUEST = _W + "request"
_RESPONSE = _W + "response"
_REPRESENTATION = _W + "representation"
_PARAM = _W + "param"
_OPTION = _W + "option"
_LINK = _W + "link"
_DOC = _W + "doc"

_WS_OP = "ws.op"
_EMPTY_REQUEST = Request()

_Attrs = dict[str, str]
_Frame = tuple[str, _Attrs, list[Any]]


class _Doc:
    """The normalised text of one ``<doc>``, on its way to its parent."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Deferred:
    """A method or resource type that refers to a part not yet parsed.

    Forward references are legal in WADL; such objects are built once the
    whole document has been read.
    """

    __slots__ = ("build", "value")

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build
        self.value: Any = None


def _join_docs(children: list[Any]) -> str | None:
    texts = [child.text for child in children if type(child) is _Doc and child.text]
    if not texts:
        return None
    return texts[0] if len(texts) == 1 else " ".join(texts)


def _ascii_compatible(data: bytes) -> str | bytes:
    """Decode UTF-16/UTF-32 input, whose entity references bytes.count cannot see."""
    head = data[:4]
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return data.decode("utf-32")
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    if head in (b"\x00\x00\x00<", b"<\x00\x00\x00"):
        return data.decode("utf-32-be" if head[0] == 0 else "utf-32-le")
    if head in (b"\x00<\x00?", b"<\x00?\x00", b"\x00<\x00w", b"<\x00w\x00"):
        return data.decode("utf-16-be" if head[0] == 0 else "utf-16-le")
    return data


class _Parser:
    """The state of one parse; used once, by one thread."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.where = url or "WADL document"
        self.data: str | bytes = b""
        self.expat = expat.ParserCreate(namespace_separator="}")
        self.stack: list[_Frame] = []
        self.doc_chunks: list[str] = []
        self.entities: dict[str, str] = {}
        self.strings: dict[str, str] = {}
        self.params: dict[tuple[Any, ...], Param] = {}
        self.links: dict[str | None, Link] = {}
        self.representations: dict[str, Representation] = {}
        self.methods: dict[str, Method | _Deferred] = {}
        self.resource_types: dict[str, ResourceType | _Deferred] = {}
        self.deferred: list[_Deferred] = []
        self.base: str | None = None
        self.root_type: str | None = None
        self.docs: tuple[str, ...] = ()
        self.builders: dict[str, Callable[[_Attrs, list[Any]], Any]] = {
            _PARAM: self._param,
            _OPTION: self._option,
            _LINK: self._link,
            _REPRESENTATION: self._representation,
            _REQUEST: self._request,
            _RESPONSE: self._response,
            _METHOD: self._method,
            _RESOURCE_TYPE: self._resource_type,
            _RESOURCE: self._resource,
            _RESOURCES: self._resources,
            _APPLICATION: self._application,
        }

    # -- driving expat -----------------------------------------------------

    def parse(self, data: bytes | str) -> Application:
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        if not isinstance(data, (bytes, str)):
            raise TypeError(f"WADL must be bytes or str, not {type(data).__name__}")
        if not data.strip():
            raise WADLError(f"{self.where}: empty document")
        if isinstance(data, bytes):
            try:
                data = _ascii_compatible(data)
            except UnicodeDecodeError as exc:
                raise WADLError(f"{self.where}: undecodable document: {exc.reason}") from None
        self.data = data
        parser = self.expat
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity_decl
        parser.AttlistDeclHandler = self._attlist_decl
        parser.EndDoctypeDeclHandler = self._end_doctype
        parser.StartElementHandler = self._start_root
        parser.EndElementHandler = self._end
        try:
            parser.Parse(data, True)
        except expat.ExpatError as exc:
            message = expat.ErrorString(exc.code)
            raise WADLError(
                f"{self.where}: malformed XML at line {exc.lineno}, column {exc.offset}: {message}"
            ) from None
        except UnicodeError as exc:
            raise WADLError(f"{self.where}: undecodable document: {exc}") from None
        for deferred in self.deferred:
            deferred.value = deferred.build()
        return self._finish()

    def _error(self, message: str) -> WADLError:
        line = self.expat.CurrentLineNumber
        column = self.expat.CurrentColumnNumber
        return WADLError(f"{self.where}: {message} (line {line}, column {column})")

    def _intern(self, value: str | None) -> str | None:
        if value is None:
            return None
        return self.strings.setdefault(value, value)

    # -- the DOCTYPE: internal entities only, small, not nested -------------

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, internal: int
    ) -> None:
        if system_id is not None or public_id is not None:
            raise self._error(
                f"the DOCTYPE refers to an external DTD ({system_id or public_id}); "
                "external entities are refused"
            )

    def _entity_decl(
        self,
        name: str,
        is_parameter: int,
        value: str | None,
        base: str | None,
        system_id: str | None,
        public_id: str | None,
        notation: str | None,
    ) -> None:
        if is_parameter:
            raise self._error(f"parameter entity %{name}; is refused")
        if value is None:
            raise self._error(f"external entity &{name}; ({system_id or public_id}) is refused")
        if "&" in value:
            raise self._error(
                f"entity &{name}; refers to other entities; nested entities are refused "
                "(entity-expansion bomb)"
            )
        if len(value) > MAX_ENTITY_LENGTH:
            raise self._error(
                f"entity &{name}; is {len(value)} characters long; "
                f"more than {MAX_ENTITY_LENGTH} is refused (entity-expansion bomb)"
            )
        if len(self.entities) >= MAX_ENTITIES:
            raise self._error(f"more than {MAX_ENTITIES} entities declared; refused")
        if isinstance(self.data, bytes) and not name.isascii():
            raise self._error(f"non-ASCII entity name &{name}; is refused")
        self.entities[name] = value

    def _attlist_decl(
        self, element: str, attribute: str, kind: str, default: str | None, required: int
    ) -> None:
        if default is not None and len(default) > MAX_ENTITY_LENGTH:
            raise self._error(
                f"default of attribute {attribute!r} is {len(default)} characters long; refused"
            )

    def _end_doctype(self) -> None:
        """Refuse, before any expansion, entities whose references would add too much."""
        data = self.data
        added = 0
        for name, value in self.entities.items():
            if not value:
                continue
            if isinstance(data, bytes):
                count = data.count(b"&" + name.encode("ascii") + b";")
            else:
                count = data.count("&" + name + ";")
            added += count * len(value)
        limit = max(MAX_EXPANSION, len(data))
        if added > limit:
            raise self._error(
                f"entity references would add {added} characters (limit {limit}); "
                "refused as an entity-expansion bomb"
            )

    # -- elements ----------------------------------------------------------

    def _start_root(self, name: str, attrs: _Attrs) -> None:
        if name != _APPLICATION:
            namespace, _, local = name.rpartition("}")
            where = f"namespace {namespace}" if namespace else "no namespace"
            raise self._error(
                f"not a WADL document: the root element is <{local}> in {where}, "
                f"not <application> in namespace {WADL_NS}"
            )
        self.expat.StartElementHandler = self._start
        self.stack.append((name, attrs, []))

    def _start(self, name: str, attrs: _Attrs) -> None:
        if name == _DOC:
            parser = self.expat
            self.doc_chunks = []
            parser.CharacterDataHandler = self.doc_chunks.append
            parser.StartElementHandler = None
            parser.EndElementHandler = self._end_doc
            return
        self.stack.append((name, attrs, []))

    def _end_doc(self, name: str) -> None:
        if name != _DOC:
            return
        parser = self.expat
        parser.CharacterDataHandler = None
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        text = " ".join("".join(self.doc_chunks).split())
        self.doc_chunks = []
        self.stack[-1][2].append(_Doc(self.strings.setdefault(text, text)))

    def _end(self, name: str) -> None:
        stack = self.stack
        frame = stack.pop()
        build = self.builders.get(name)
        if build is None:
            return
        built = build(frame[1], frame[2])
        if built is not None and stack:
            stack[-1][2].append(built)

    # -- builders: (attributes, built children) -> model object --------------

    def _option(self, attrs: _Attrs, children: list[Any]) -> str | None:
        return self._intern(attrs.get("value"))

    def _link(self, attrs: _Attrs, children: list[Any]) -> Link:
        ref = attrs.get("resource_type")
        target = self._intern(fragment_of(ref)) if ref else None
        link = self.links.get(target)
        if link is None:
            link = self.links[target] = Link(target)
        return link

    def _param(self, attrs: _Attrs, children: list[Any]) -> Param:
        name = attrs.get("name")
        if not name:
            raise self._error("a <param> has no name")
        options: tuple[str, ...] = ()
        link: Link | None = None
        doc: str | None = None
        if children:
            options = tuple(child for child in children if type(child) is str)
            for child in children:
                if type(child) is Link:
                    link = child
            doc = _join_docs(children)
        strings = self.strings
        style = attrs.get("style", "query")
        fixed = attrs.get("fixed")
        type_ = attrs.get("type")
        path = attrs.get("path")
        key = (
            strings.setdefault(name, name),
            strings.setdefault(style, style),
            attrs.get("required") == "true",
            None if fixed is None else strings.setdefault(fixed, fixed),
            None if type_ is None else self._xsd_type(type_),
            None if path is None else strings.setdefault(path, path),
            options,
            link,
            doc,
        )
        param = self.params.get(key)
        if param is None:
            param = self.params[key] = Param(*key)
        return param

    def _xsd_type(self, qname: str) -> str:
        local = qname.rpartition(":")[2]
        return self.strings.setdefault(local, local)

    def _representation(self, attrs: _Attrs, children: list[Any]) -> Representation:
        id_ = self._intern(attrs.get("id"))
        if id_ is not None:
            known = self.representations.get(id_)
            if known is not None:
                return known
        href = attrs.get("href")
        representation = Representation(
            id=id_,
            media_type=self._intern(attrs.get("mediaType")),
            href=self._intern(href),
            params=tuple(child for child in children if type(child) is Param),
            doc=_join_docs(children),
        )
        if id_ is not None:
            self.representations[id_] = representation
        return representation

    def _request(self, attrs: _Attrs, children: list[Any]) -> Request:
        return Request(
            params=tuple(child for child in children if type(child) is Param),
            representations=tuple(child for child in children if type(child) is Representation),
        )

    def _response(self, attrs: _Attrs, children: list[Any]) -> Response:
        status: tuple[int, ...] = ()
        if "status" in attrs:
            try:
                status = tuple(int(code) for code in attrs["status"].split())
            except ValueError:
                raise self._error(f"bad response status {attrs['status']!r}") from None
        return Response(
            representations=tuple(child for child in children if type(child) is Representation),
            params=tuple(child for child in children if type(child) is Param),
            status=status,
        )

    def _method(self, attrs: _Attrs, children: list[Any]) -> Method | _Deferred | str:
        href = attrs.get("href")
        if href is not None:
            return href
        http_name = attrs.get("name")
        if not http_name:
            raise self._error("a <method> has no name")
        request = _EMPTY_REQUEST
        for child in children:
            if type(child) is Request:
                request = child
        id_ = self._intern(attrs.get("id"))
        name = http_name.upper()
        name = self.strings.setdefault(name, name)
        doc = _join_docs(children)
        responses = tuple(child for child in children if type(child) is Response)

        def build() -> Method:
            return self._make_method(name, id_, doc, request, responses)

        method: Method | _Deferred
        if all(
            rep.href is None or fragment_of(rep.href) in self.representations
            for rep in request.representations
        ):
            method = build()
        else:
            method = _Deferred(build)
            self.deferred.append(method)
        if id_ is not None:
            self.methods.setdefault(id_, method)
        return method

    def _make_method(
        self,
        name: str,
        id_: str | None,
        doc: str | None,
        request: Request,
        responses: tuple[Response, ...],
    ) -> Method:
        """Derive ``ws_op``, the caller's params and the body type of a method."""
        candidates = list(request.params)
        body_media_type = None
        for rep in request.representations:
            if rep.href is not None:
                target = self.representations.get(fragment_of(rep.href))
                if target is None:
                    raise WADLError(f"{self.where}: no representation {rep.href!r}")
                rep = target
            if body_media_type is None:
                body_media_type = rep.media_type
            candidates.extend(rep.params)
        ws_op = None
        params: list[Param] = []
        seen: set[str] = set()
        for param in candidates:
            if param.name == _WS_OP:
                if ws_op is None:
                    ws_op = param.fixed
            elif param.name not in seen:
                seen.add(param.name)
                params.append(param)
        return Method(
            name=name,
            id=id_,
            doc=doc,
            request=request,
            responses=responses,
            ws_op=ws_op,
            params=tuple(params),
            body_media_type=body_media_type,
        )

    def _resource_type(self, attrs: _Attrs, children: list[Any]) -> None:
        id_ = self._intern(attrs.get("id"))
        if not id_:
            raise self._error("a <resource_type> has no id")
        doc = _join_docs(children)
        parts = [child for child in children if type(child) in (Method, _Deferred, str)]

        def build() -> ResourceType:
            return self._make_resource_type(id_, doc, parts)

        if all(type(part) is Method for part in parts):
            self.resource_types.setdefault(id_, build())
        else:
            deferred = _Deferred(build)
            self.deferred.append(deferred)
            self.resource_types.setdefault(id_, deferred)

    def _make_resource_type(self, id_: str, doc: str | None, parts: list[Any]) -> ResourceType:
        methods: list[Method] = []
        for part in parts:
            if type(part) is str:
                target = self.methods.get(fragment_of(part))
                if target is None:
                    raise WADLError(f"{self.where}: resource type {id_!r}: no method {part!r}")
                part = target
            if type(part) is _Deferred:
                part = part.value
            methods.append(part)
        named: dict[str, Method] = {}
        for method in methods:
            if method.ws_op is not None:
                named.setdefault(method.ws_op, method)
        return ResourceType(id=id_, doc=doc, methods=tuple(methods), named_operations=named)

    def _resource(self, attrs: _Attrs, children: list[Any]) -> None:
        if self.stack[-1][0] != _RESOURCES or self.root_type is not None:
            return
        types = attrs.get("type", "").split()
        if attrs.get("path", "") in ("", "/") and types:
            self.root_type = self._intern(fragment_of(types[0]))

    def _resources(self, attrs: _Attrs, children: list[Any]) -> None:
        if self.base is None:
            self.base = attrs.get("base")

    def _application(self, attrs: _Attrs, children: list[Any]) -> None:
        self.docs = tuple(child.text for child in children if type(child) is _Doc)

    def _finish(self) -> Application:
        def settle(value: Any) -> Any:
            return value.value if type(value) is _Deferred else value

        return Application(
            url=self.url,
            base=self.base,
            root_resource_type=self.root_type,
            resource_types={key: settle(value) for key, value in self.resource_types.items()},
            representations=self.representations,
            methods={key: settle(value) for key, value in self.methods.items()},
            docs=self.docs,
        )


def parse_wadl(data: bytes | str, url: str | None = None) -> Application:
    """Parse a WADL document into an ``Application``.

    Raises ``wadlclient.errors.WADLError`` for malformed XML, a document that
    is not WADL, external entities, or entity-expansion bombs; the message
    names ``url`` and, where expat knows it, the line and column.
    """
    return _Parser(url).parse(data)


def wadl_digest(data: bytes) -> str:
    """The sha256 hex digest of a WADL document: the key of its persisted model."""
    return hashlib.sha256(data).hexdigest()


_MOVED_TO_MODEL_STORE = frozenset({"dump_model", "load_model", "MODEL_FORMAT_VERSION"})


def __getattr__(name: str) -> Any:
    """The persisted-model functions, from `wadlclient.model_store`, for older imports.

    They live there so that ``import wadlclient`` does not import pickle
    (~2.4 ms) for a model that only a big WADL in a persistent cache uses.
    """
    if name in _MOVED_TO_MODEL_STORE:
        from wadlclient import model_store

        return getattr(model_store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

