"""What the fake answers to one request: the root, a collection, an entry, or a refusal.

Pure dispatch from a `Call` to an `Answer`; `wadlclient.testing.server`
puts it on the wire. Anything the WADL does not describe is refused with
a message naming it, so a typo in the code under test fails its test.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from email.utils import format_datetime
from typing import Any
from urllib.parse import urlencode

from wadlclient.schema import FieldKind
from wadlclient.testing.description import META_FIELDS, Description, did_you_mean
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.operations import Operations
from wadlclient.testing.render import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Renderer
from wadlclient.testing.results import Result, ResultKind
from wadlclient.testing.store import FakeEntry, Store

__all__ = ["Answer", "Call", "Resources"]

JSON = "application/json"
_OAUTH_TOKEN = re.compile(r'oauth_token="([^"]*)"')
#: What Launchpad answers an anonymous request for ``people/+me``.
NOT_LOGGED_IN = "You need to be logged in to view this URL."


@dataclass
class Call:
    """One request, read: the path below the service root, query and form values, headers."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes = b""
    form: dict[str, list[str]] = field(default_factory=dict)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def value(self, name: str) -> str | None:
        values = self.query.get(name) or self.form.get(name)
        return values[0] if values else None

    @property
    def anonymous(self) -> bool:
        """Whether it is signed OAuth with an empty token: launchpadlib's ``login_anonymously``."""
        auth = self.header("Authorization") or ""
        if auth.split(" ", 1)[0] != "OAuth":
            return False
        token = _OAUTH_TOKEN.search(auth)
        return token is None or token.group(1) == ""


@dataclass
class Answer:
    status: int
    body: bytes = b""
    media_type: str = "text/plain; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


def json_answer(document: Any, status: int = 200, etag: str | None = None) -> Answer:
    headers = {"ETag": etag} if etag else {}
    return Answer(status, json.dumps(document).encode("utf-8"), JSON, headers)


def _matches(header: str | None, etag: str) -> bool:
    if header is None:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in tags or etag in tags


def _pairs(query: dict[str, list[str]], leaving: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(k, v) for k, values in query.items() if k not in leaving for v in values]


def _count(text: str) -> bool:
    """Whether ``text`` is a count: ASCII digits only (``str.isdigit`` takes ``²``)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _paging(call: Call) -> tuple[int, int]:
    start_text, size_text = call.value("ws.start") or "0", call.value("ws.size")
    if not _count(start_text) or (size_text is not None and not _count(size_text)):
        raise HTTPException(400, "ws.start and ws.size must be non-negative integers.")
    size = DEFAULT_PAGE_SIZE if size_text is None else max(1, int(size_text))
    return int(start_text), min(size, MAX_PAGE_SIZE)


class Resources:
    """The service's resources over one store, renderer and set of operation handlers."""

    def __init__(
        self, description: Description, store: Store, render: Renderer, operations: Operations
    ) -> None:
        self.description = description
        self.store = store
        self.render = render
        self.operations = operations
        #: Pages of named operations carry ``total_size_link`` (as Launchpad's
        #: searches do) rather than ``total_size``.
        self.total_size_link = False
        #: What handlers raised (each answered 500), for the test to re-raise.
        self.handler_errors: list[Exception] = []
        #: Launchpad's rule: a first segment in upper case is redirected (301) to its
        #: lower-case name (``Ubuntu`` -> ``ubuntu``, ``~Ada`` -> ``~ada``).
        self.canonical_names = False

    def answer(self, call: Call) -> Answer:
        if call.anonymous and call.method not in ("GET", "HEAD"):
            raise HTTPException(
                401, f"Unauthorized: an anonymous session cannot {call.method} (log in first)."
            )
        path = call.path
        if path == "":
            return json_answer(self.render.root())
        collection = self.store.top_level.get(path)
        if collection is not None:
            type_id = self.description.collections[collection]
            return self._collection(call, path, type_id, collection)
        entry = self.store.entries.get(path)
        if entry is not None:
            return self._entry(call, entry)
        if path in self.render.root_paths.values():
            return self._root_link(call, path)
        first, slash, rest = path.partition("/")
        if self.canonical_names and first != first.lower():
            return self._to_canonical_name(call, first.lower() + slash + rest)
        owner_path, _, name = path.rpartition("/")
        owner = self.store.entries.get(owner_path)
        if owner is not None:
            field_ = owner.type.info.fields.get(name)
            if field_ is not None and field_.kind is FieldKind.COLLECTION and field_.link_type:
                return self._collection(call, path, field_.link_type, path)
            if field_ is not None and field_.kind is FieldKind.HOSTED_FILE:
                return self._hosted_file(call, owner, name)
        raise self._not_found(path)

    def _root_link(self, call: Call, path: str) -> Answer:
        """Launchpad's ``people/+me``: 401 when anonymous, else 303 to the person set as ``me``."""
        name = next(n for n, fixed in self.render.root_paths.items() if fixed == path)
        if call.anonymous and name == "me":
            raise HTTPException(401, NOT_LOGGED_IN)
        target = self.render.root_links.get(name)
        if target is None:
            raise HTTPException(
                404, f"{name} is not set in this fake: fake.set_root_link({name!r}, entry)."
            )
        return Answer(303, headers={"Location": self.render.url(target)})

    def _to_canonical_name(self, call: Call, path: str) -> Answer:
        """301 to the lower-case name with the rest of the path and the query; a POST is
        refused (Launchpad's ``POSTToNonCanonicalURL``)."""
        if call.method == "POST":
            raise HTTPException(400, f"POST to a non-canonical URL: use {path!r}.")
        query = urlencode(call.query, doseq=True)
        location = self.render.url_of(path) + (f"?{query}" if query else "")
        return Answer(301, headers={"Location": location})

    def _not_found(self, path: str) -> HTTPException:
        first = path.split("/")[0]
        root_fields = self.description.root.fields
        if first in root_fields and "/" not in path:
            return HTTPException(
                404, f"{first} is not set in this fake: fake.set_root_link({first!r}, entry)."
            )
        collections = list(self.store.top_level)
        hint = "" if first in collections else did_you_mean(first, collections)
        return HTTPException(
            404, f"Object: <fake service>, name: {path!r}: nothing is seeded there{hint}."
        )

    # -- collections ---------------------------------------------------------

    def _collection(self, call: Call, path: str, type_id: str, label: str) -> Answer:
        name = call.value("ws.op")
        if name is not None:
            return self._invoke(call, type_id, name, label)
        if call.method not in ("GET", "HEAD"):
            raise HTTPException(405, f"{call.method} is not allowed on the collection {label}; "
                          "a POST needs ws.op.")  # fmt: skip
        self._no_stray_params(call, label)
        entry_type = self.description.entry_type_of(type_id)
        start, size = _paging(call)
        return json_answer(self._page(call, self.store.members(path), start, size, entry_type.id))

    def _page(
        self, call: Call, entries: list[FakeEntry], start: int, size: int, type_id: str
    ) -> Any:
        if call.value("ws.show") == "total_size":
            return len(entries)
        others = _pairs(call.query, ("ws.start", "ws.size"))

        def page_url(at: int, per: int) -> str:
            query = urlencode([*others, ("ws.size", str(per)), ("ws.start", str(at))])
            return f"{self.render.url_of(call.path)}?{query}"

        return self.render.page(entries, start, size, type_id, page_url)

    def _no_stray_params(self, call: Call, label: str) -> None:
        stray = sorted(set(call.query) - {"ws.start", "ws.size", "ws.show"})
        if stray:
            raise HTTPException(
                400, f"{label} takes no query parameter {stray[0]!r} without a ws.op."
            )

    # -- named operations ----------------------------------------------------

    def _invoke(self, call: Call, type_id: str, name: str, target: Any) -> Answer:
        """Arguments checked, the handler called (the collection's name or the entry as
        ``target``), its value served; what it raises (but HTTPException) is a 500."""
        method = self.description.schema.type_info(type_id).operations.get(name)
        if method is None:
            operations = self.description.schema.type_info(type_id).operations
            raise HTTPException(400, f"No such operation: {name}" + did_you_mean(name, operations))
        if method.name != call.method and not (method.name == "GET" and call.method == "HEAD"):
            raise HTTPException(
                405, f"{type_id}.{name} is a {method.name} operation, not {call.method}."
            )
        raw = call.query if method.name == "GET" else {**call.query, **call.form}
        arguments = self.operations.arguments(f"{type_id}.{name}", method, raw, name)
        handler = self.operations.handler_for(type_id, name, method)
        label = f"{type_id}.{name}"
        try:
            value = handler(target, **arguments)
        except HTTPException:
            raise
        except Exception as error:
            self.handler_errors.append(error)
            raise HTTPException(
                500, f"The handler of {label} raised {type(error).__name__}: {error}"
            ) from None
        missing = self.operations.not_found(type_id, name, arguments) if value is None else None
        if missing is not None:
            raise missing
        kind, entry_type = self.operations.result_shape(method)
        try:
            return self._result(call, Result(label, kind, entry_type, value))
        except HTTPException as problem:
            if problem.status == 500:  # the value does not fit: the handler's mistake
                self.handler_errors.append(TypeError(problem.message))
            raise

    def _result(self, call: Call, result: Result) -> Answer:
        """The handler's value served as the WADL declares the operation's answer."""
        kind, value = result.kind, result.checked(self.description)
        if kind is ResultKind.CREATED:
            return Answer(201, headers={"Location": self.render.url(value)})
        if kind is ResultKind.PAGE:
            start, size = _paging(call)
            type_of = result.entry_type or (value[0].type_id if value else "")
            page = self._page(call, list(value), start, size, type_of)
            if self.total_size_link and isinstance(page, dict):
                del page["total_size"]
                query = urlencode([*_pairs(call.query, ("ws.show",)), ("ws.show", "total_size")])
                page["total_size_link"] = f"{self.render.url_of(call.path)}?{query}"
            return json_answer(page)
        if isinstance(value, FakeEntry):
            document = self.render.entry(value)
            return json_answer(document, etag=document["http_etag"])
        return json_answer(self.render.json_value(value))

    # -- hosted files ----------------------------------------------------------

    def _hosted_file(self, call: Call, entry: FakeEntry, name: str) -> Answer:
        """GET the bytes (404 when there are none), PUT new ones, DELETE them."""
        stored = entry.values.get(name)
        if call.method in ("GET", "HEAD"):
            if stored is None:
                raise HTTPException(404, f"{entry.path} has no {name} file.")
            media_type, data = stored
            etag = '"' + hashlib.sha1(data).hexdigest() + '"'
            headers = {"ETag": etag}
            stored_at = entry.file_dates.get(name)
            if stored_at is not None:  # lazr.restfulclient's HostedFile.last_modified reads it
                headers["Last-Modified"] = format_datetime(stored_at, usegmt=True)
            if _matches(call.header("If-None-Match"), etag):
                return Answer(304, headers=headers)
            return Answer(200, data, media_type, headers)
        if call.method == "PUT":
            media_type = call.header("Content-Type")
            if not media_type:
                raise HTTPException(400, "PUT to a hosted file needs a Content-Type.")
            self.store.change(entry, {name: (media_type, call.body)})
            return Answer(200)
        if call.method == "DELETE":
            self.store.change(entry, {name: None})
            return Answer(200)
        raise HTTPException(405, f"{call.method} is not allowed on a hosted file.")

    # -- entries -------------------------------------------------------------

    def _entry(self, call: Call, entry: FakeEntry) -> Answer:
        name = call.value("ws.op")
        if name is not None:
            return self._invoke(call, entry.type_id, name, entry)
        if call.method in ("GET", "HEAD"):
            document = self.render.entry(entry)
            etag = document["http_etag"]
            if _matches(call.header("If-None-Match"), etag):
                return Answer(304, headers={"ETag": etag})
            return json_answer(document, etag=etag)
        if call.method == "PATCH":
            return self._patch(call, entry)
        rtype = self.description.schema.app.resource_types.get(entry.type_id)
        if call.method == "DELETE" and rtype is not None and rtype.method("DELETE") is not None:
            self.store.delete(entry)
            return Answer(200)
        raise HTTPException(405, f"{call.method} is not allowed on a {entry.type_id} in the WADL.")

    def _patch(self, call: Call, entry: FakeEntry) -> Answer:
        """Checked whole before anything changes: a 400 lists every refused field."""
        content_type = (call.header("Content-Type") or "").split(";")[0].strip()
        if content_type != JSON:
            raise HTTPException(415, f"PATCH needs a JSON body (Content-Type: {JSON}).")
        current = self.render.entry(entry)
        if_match = call.header("If-Match")
        if if_match is not None and not _matches(if_match, current["http_etag"]):
            raise HTTPException(
                412, "The entry has changed since you fetched it (If-Match failed)."
            )
        try:
            changes = json.loads(call.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HTTPException(400, "The body is not valid JSON.") from None
        if not isinstance(changes, dict):
            raise HTTPException(400, "The body must be a JSON object of the fields to change.")
        fields, problems = self._changes(entry, current, changes)
        if not problems:
            try:
                self.store.change(entry, fields)
            except HTTPException as problem:
                problems.append(problem.message)
        if problems:
            raise HTTPException(400, "\n".join(sorted(problems)))
        document = self.render.entry(entry)
        return json_answer(document, 209, document["http_etag"])

    def _changes(
        self, entry: FakeEntry, current: dict[str, Any], changes: dict[str, Any]
    ) -> tuple[dict[str, Any], list[str]]:
        """Field name -> new value (links as entries), and a message per refused key."""
        by_key = {f.key: f for f in entry.type.info.fields.values()}
        writable = entry.type.info.writable or frozenset()
        fields: dict[str, Any] = {}
        problems: list[str] = []
        for key, value in changes.items():
            field_ = by_key.get(key)
            if field_ is None:
                problems.append(f"{key}: You tried to modify a nonexistent attribute."
                                + did_you_mean(key, list(by_key)))  # fmt: skip
            elif value == current.get(key):
                continue
            elif key in META_FIELDS or key not in writable:
                problems.append(f"{key}: You tried to modify a read-only attribute.")
            elif field_.kind is FieldKind.ENTRY:
                try:
                    fields[field_.name] = self.store.check_link(key, field_.link_type, value)
                except HTTPException as problem:
                    problems.append(problem.message)
            else:
                fields[field_.name] = value
        return fields, problems
