"""Element builders: (attributes, built children) -> model object.

The parser calls one builder per end tag, so children are built before
their parent and every object is created once, in its final, immutable
form. Equal params and links are shared, strings interned: Launchpad's
WADL repeats them thousands of times.

Every ``<representation>`` and ``<method>`` with an id is indexed wherever
it appears (the first definition of an id wins); forward references are
resolved once the whole document has been read (`ModelBuilder.finish`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from wadlclient.errors import WADLError
from wadlclient.wadl.model import (
    WADL_NS,
    Application,
    Link,
    Method,
    Param,
    Representation,
    Request,
    ResourceType,
    Response,
    fragment_of,
)

__all__ = ["APPLICATION", "DOC", "Attrs", "Build", "Frame", "ModelBuilder"]

_W = WADL_NS + "}"
APPLICATION = _W + "application"
DOC = _W + "doc"
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

_WS_OP = "ws.op"
_EMPTY_REQUEST = Request()

Attrs = dict[str, str]
#: An open element: its name, its attributes, its children built so far and
#: the texts of its ``<doc>`` children (kept apart: most elements have none).
Frame = tuple[str, Attrs, list[Any], list[str]]
#: What builds one element: (attributes, built children, doc texts) -> model object.
Build = Callable[[Attrs, list[Any], list[str]], Any]


class _Deferred:
    """A method or resource type that refers to a part not yet parsed.

    Forward references are legal in WADL; such objects are built once the
    whole document has been read.
    """

    __slots__ = ("build", "value")

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build
        self.value: Any = None


def _local_reference(href: str | None) -> str | None:
    """``u#x`` as ``#x``: every reference resolves in this document, by fragment alone.

    lazr.restful writes its own address before each fragment; kept whole,
    the model would hold the address in thousands of strings, and the same
    WADL served elsewhere would build another model (`wadlclient.wadl.rebase`).
    """
    if href is None or "#" not in href:
        return href
    return "#" + fragment_of(href)


def _join_docs(docs: list[str]) -> str | None:
    """The texts of an element's ``<doc>`` children as one, or None."""
    if not docs:
        return None
    if len(docs) == 1:
        return docs[0] or None
    return " ".join(text for text in docs if text) or None


class ModelBuilder:
    """The indexes and shared values of one parse; used once, by one thread.

    ``stack`` is the parser's stack of open elements (a builder looks at its
    parent); ``error`` makes a ``WADLError`` naming the current line.
    """

    def __init__(
        self, url: str | None, stack: list[Frame], error: Callable[[str], WADLError]
    ) -> None:
        self.url = url
        self.where = url or "WADL document"
        self.stack = stack
        self.error = error
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
        #: The builder of each element that makes something; others are skipped.
        self.builders: dict[str, Build] = {
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
            APPLICATION: self._application,
        }

    def intern(self, value: str) -> str:
        """The one copy of ``value`` this document uses."""
        return self.strings.setdefault(value, value)

    def _intern(self, value: str | None) -> str | None:
        if value is None:
            return None
        return self.strings.setdefault(value, value)

    def _option(self, attrs: Attrs, children: list[Any], docs: list[str]) -> str | None:
        return self._intern(attrs.get("value"))

    def _link(self, attrs: Attrs, children: list[Any], docs: list[str]) -> Link:
        ref = attrs.get("resource_type")
        target = self._intern(fragment_of(ref)) if ref else None
        link = self.links.get(target)
        if link is None:
            link = self.links[target] = Link(target)
        return link

    def _param(self, attrs: Attrs, children: list[Any], docs: list[str]) -> Param:
        name = attrs.get("name")
        if not name:
            raise self.error("a <param> has no name")
        options: tuple[str, ...] = ()
        link: Link | None = None
        if children:
            options = tuple([child for child in children if type(child) is str])
            for child in children:
                if type(child) is Link:
                    link = child
        doc = _join_docs(docs) if docs else None
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

    def _representation(
        self, attrs: Attrs, children: list[Any], docs: list[str]
    ) -> Representation:
        id_ = self._intern(attrs.get("id"))
        if id_ is not None:
            known = self.representations.get(id_)
            if known is not None:
                return known
        representation = Representation(
            id_,
            self._intern(attrs.get("mediaType")),
            self._intern(_local_reference(attrs.get("href"))),
            tuple([child for child in children if type(child) is Param]) if children else (),
            _join_docs(docs),
        )
        if id_ is not None:
            self.representations[id_] = representation
        return representation

    def _request(self, attrs: Attrs, children: list[Any], docs: list[str]) -> Request:
        if not children:
            return _EMPTY_REQUEST
        return Request(
            tuple([child for child in children if type(child) is Param]),
            tuple([child for child in children if type(child) is Representation]),
        )

    def _response(self, attrs: Attrs, children: list[Any], docs: list[str]) -> Response:
        status: tuple[int, ...] = ()
        if "status" in attrs:
            try:
                status = tuple(int(code) for code in attrs["status"].split())
            except ValueError:
                raise self.error(f"bad response status {attrs['status']!r}") from None
        return Response(
            tuple([child for child in children if type(child) is Representation]),
            tuple([child for child in children if type(child) is Param]),
            status,
        )

    def _method(
        self, attrs: Attrs, children: list[Any], docs: list[str]
    ) -> Method | _Deferred | str:
        href = attrs.get("href")
        if href is not None:
            return href
        http_name = attrs.get("name")
        if not http_name:
            raise self.error("a <method> has no name")
        request = _EMPTY_REQUEST
        for child in children:
            if type(child) is Request:
                request = child
        id_ = self._intern(attrs.get("id"))
        name = http_name.upper()
        name = self.strings.setdefault(name, name)
        doc = _join_docs(docs)
        responses = tuple([child for child in children if type(child) is Response])
        method: Method | _Deferred
        if self._defined(request.representations):
            method = self._make_method(name, id_, doc, request, responses)
        else:
            method = _Deferred(
                functools.partial(self._make_method, name, id_, doc, request, responses)
            )
            self.deferred.append(method)
        if id_ is not None:
            self.methods.setdefault(id_, method)
        return method

    def _defined(self, representations: tuple[Representation, ...]) -> bool:
        """Whether every representation these refer to has been read already."""
        known = self.representations
        for rep in representations:
            if rep.href is not None and fragment_of(rep.href) not in known:
                return False
        return True

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
            name, id_, doc, request, responses, ws_op, tuple(params), body_media_type
        )

    def _resource_type(self, attrs: Attrs, children: list[Any], docs: list[str]) -> None:
        id_ = self._intern(attrs.get("id"))
        if not id_:
            raise self.error("a <resource_type> has no id")
        doc = _join_docs(docs)
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

    def _resource(self, attrs: Attrs, children: list[Any], docs: list[str]) -> None:
        if self.stack[-1][0] != _RESOURCES or self.root_type is not None:
            return
        types = attrs.get("type", "").split()
        if attrs.get("path", "") in ("", "/") and types:
            self.root_type = self._intern(fragment_of(types[0]))

    def _resources(self, attrs: Attrs, children: list[Any], docs: list[str]) -> None:
        if self.base is None:
            self.base = attrs.get("base")

    def _application(self, attrs: Attrs, children: list[Any], docs: list[str]) -> None:
        self.docs = tuple(docs)

    def finish(self) -> Application:
        """Build what waited for a forward reference; return the indexed document."""
        for deferred in self.deferred:
            deferred.value = deferred.build()

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
