"""`NamedOperation`: a named operation (``ws.op``) bound to a resource, and its request bodies."""

from __future__ import annotations

import functools
import urllib.parse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from wadlclient.errors import ResponseError
from wadlclient.http import HTTPResponse
from wadlclient.objects.entry import writing
from wadlclient.objects.resource import Resource, SessionLike, url_of
from wadlclient.objects.wire import media_type_of, to_json
from wadlclient.schema import JSON_MEDIA_TYPE
from wadlclient.wadl import Method, Param, fragment_of

if TYPE_CHECKING:
    import inspect

__all__ = ["NamedOperation", "multipart_body", "operation_class", "request_body"]

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
MULTIPART_MEDIA_TYPE = "multipart/form-data"
#: Methods whose arguments travel in the query string.
_QUERY_METHODS = frozenset({"GET", "HEAD", "DELETE"})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_BINARY = "binary"

#: Told after an operation wrote to its resource; given the URL it moved to, if it moved.
OnWrite = Callable[[str | None], None]
_Pairs = list[tuple[str, str | bytes]]


def _ignore_write(moved_to: str | None) -> None:
    """The resource keeps nothing an operation could make stale."""


class NamedOperation:
    """A named operation bound to a resource; call it with keyword arguments."""

    __slots__ = ("_method", "_name", "_on_write", "_resource", "_session")

    def __init__(
        self,
        session: SessionLike,
        resource: Resource,
        name: str,
        method: Method,
        on_write: OnWrite = _ignore_write,
    ) -> None:
        self._session = session
        self._resource = resource
        self._name = name
        self._method = method
        self._on_write = on_write

    @property
    def name(self) -> str:
        return self._name

    @property
    def http_method(self) -> str:
        return self._method.name

    def __repr__(self) -> str:
        return f"<NamedOperation {self._name} of {url_of(self._resource)}>"

    def _arguments(self, kwargs: Mapping[str, Any]) -> _Pairs:
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
        pairs: _Pairs = [("ws.op", self._method.ws_op or self._name)]
        for name, param in params.items():
            if name not in kwargs:
                if param.fixed is not None:
                    pairs.append((name, param.fixed))
                continue
            pairs.append((name, self._encode(param, kwargs[name])))
        return pairs

    def _encode(self, param: Param, value: Any) -> str | bytes:
        """One argument as sent: bytes for binary, an option as is, anything else as JSON."""
        if isinstance(value, Resource):
            value = url_of(value)
        if param.type == _BINARY:
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
            return to_json(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{self._name}(): {param.name}: {exc}") from None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args:
            raise TypeError(f"{self._name}() takes keyword arguments only")
        pairs = self._arguments(kwargs)
        url = url_of(self._resource)
        if self._method.name in _QUERY_METHODS:
            query = urllib.parse.urlencode(sorted(pairs))
            url = f"{url}{'&' if '?' in url else '?'}{query}"
            response = self._send_query(url)
        else:
            url, response = self._write(url, pairs)
        return self._result(url, response)

    def _send_query(self, url: str) -> HTTPResponse:
        """GET or HEAD ``url``; or DELETE it, a write walks are told of."""
        transport = self._session.transport
        if self._method.name != "DELETE":
            return transport.request(self._method.name, url)
        with writing(self._resource, url_of(self._resource)):
            return transport.request("DELETE", url)

    def _write(self, url: str, pairs: _Pairs) -> tuple[str, HTTPResponse]:
        """Send the arguments in a body; follow a redirect with a GET. ``(final URL, answer)``."""
        transport = self._session.transport
        body, content_type = request_body(self._method.body_media_type, pairs)
        with writing(self._resource, url_of(self._resource)):
            response = transport.request(
                self._method.name, url, body=body, content_type=content_type, follow_redirects=False
            )
        location = response.headers.get("location")
        target = urllib.parse.urljoin(url, location) if location is not None else None
        redirected = response.status in _REDIRECTS and target is not None
        self._on_write(target if redirected and response.status == 301 else None)
        if redirected and target is not None:
            return target, transport.request("GET", target)
        return url, response

    def _result(self, url: str, response: HTTPResponse) -> Any:
        """What the operation answered: a created or served entry, a collection, or the data."""
        session = self._session
        if response.status == 201:
            location = response.headers.get("location")
            if not location:
                raise ResponseError(f"{self._name}() created something but gave no Location")
            return session.load(urllib.parse.urljoin(url, location))
        if not response.content:
            return None
        if media_type_of(response) != JSON_MEDIA_TYPE:
            return response.content
        document = response.json()
        if isinstance(document, dict):
            type_link = document.get("resource_type_link")
            self_link = document.get("self_link")
            if isinstance(self_link, str) and isinstance(type_link, str):
                if session.conventions.undeclared_entries or self._declares_json():
                    return session.entry(self_link, fragment_of(type_link), document)
                return document
            if isinstance(document.get("entries"), list):
                info = session.schema.result_info(self._method)
                entry_type = info.entry_type if info is not None else None
                return session.collection(url, None, first_page=document, entry_type=entry_type)
        return document

    def _declares_json(self) -> bool:
        """Whether the WADL declares a JSON answer (an entry or a page) for the operation."""
        return self._session.schema.result_info(self._method) is not None


def request_body(media_type: str | None, pairs: _Pairs) -> tuple[bytes, str]:
    """The body and its media type: multipart when the WADL says so, else a form."""
    if media_type == MULTIPART_MEDIA_TYPE:
        return multipart_body(pairs)
    return urllib.parse.urlencode(sorted(pairs)).encode("ascii"), FORM_MEDIA_TYPE


def multipart_body(pairs: _Pairs) -> tuple[bytes, str]:
    """A multipart/form-data body: text parts as UTF-8, bytes as file parts."""
    import secrets  # only uploads need it; kept out of the package's import

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
    return body, f"{MULTIPART_MEDIA_TYPE}; boundary={boundary}"


@functools.lru_cache(maxsize=2048)
def operation_class(name: str, method: Method) -> type[NamedOperation]:
    """The class of a named operation: named for it, with its WADL doc and signature.

    So that ``help(bug.subscribe)`` shows what the service documents and
    ``inspect.signature`` (and an editor) the parameters the WADL lists:
    keyword-only, the required ones first and without a default.
    """
    namespace = {
        "__slots__": (),
        "__doc__": _doc_of(name, method),
        "__signature__": _signature_of(method),
        "__module__": NamedOperation.__module__,
        "__qualname__": name,
    }
    return type(name, (NamedOperation,), namespace)


def _caller_params(method: Method) -> list[Param]:
    return [param for param in method.params if param.fixed is None]


def _signature_of(method: Method) -> inspect.Signature:
    import inspect  # here: importing it costs a start-up that never reads a signature

    keyword = inspect.Parameter.KEYWORD_ONLY
    params = sorted(_caller_params(method), key=lambda param: not param.required)
    return inspect.Signature(
        [
            inspect.Parameter(
                param.name, keyword, default=inspect.Parameter.empty if param.required else None
            )
            for param in params
        ]
    )


def _doc_of(name: str, method: Method) -> str:
    """The operation's WADL doc, then one line per parameter (required ones marked)."""
    lines = [f"{name}: {method.name} named operation of the service."]
    if method.doc:
        lines += ["", method.doc.strip()]
    params = _caller_params(method)
    if params:
        lines += ["", "Parameters:"]
    for param in params:
        about = " ".join((param.doc or "").split())
        marks = ["required"] if param.required else []
        if param.options:
            marks.append("one of " + ", ".join(map(repr, param.options)))
        told = f" ({'; '.join(marks)})" if marks else ""
        lines.append(f"  {param.name}{told}{': ' + about if about else ''}")
    return "\n".join(lines)
