"""What each resource answers: routing, validation and the lazr.restful rules.

Handlers are synchronous and work on a :class:`Call` (the parsed request and
the caller's rights); they return an :class:`Answer` or raise
:class:`Problem`, which becomes a plain-text 4xx. Every check runs before
any change, so bad input changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from email.message import Message
from email.utils import format_datetime
from typing import Any
from urllib.parse import quote, unquote, urlencode, urlsplit

from cookbook_service.forms import FORM, MULTIPART, FormError, FormValue, parse_form
from cookbook_service.render import Renderer, etag_of
from cookbook_service.schema import (
    COOKBOOK,
    DISH,
    ENTRY_TYPES,
    RECIPE,
    TOP_LEVEL_ENTRIES,
    VERSIONS,
    WADL_MEDIA_TYPES,
    EntryType,
    Field,
    Operation,
    Param,
)
from cookbook_service.store import NameTaken, Row, Store
from cookbook_service.wadl import generate_wadl

#: The largest page a caller may ask for with ``ws.size``.
MAX_PAGE_SIZE = 300
#: The longest cookbook name accepted.
MAX_NAME_LENGTH = 1000

JSON = "application/json"
_READ_ONLY_META = ("self_link", "resource_type_link", "http_etag")


class Problem(Exception):
    """A request the service refuses: status, plain-text reason, extra headers."""

    def __init__(self, status: int, reason: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.headers = headers or {}


@dataclass
class Answer:
    status: int
    body: bytes = b""
    media_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Call:
    """One request, parsed, with what the caller may do."""

    method: str
    segments: list[str]
    query: list[tuple[str, str]]
    headers: dict[str, str]  # lower-case names
    body: bytes
    host_url: str  # "http://host:port/"
    may_write: bool
    sees_private: bool
    anonymous: bool

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def query_value(self, name: str) -> str | None:
        for key, value in self.query:
            if key == name:
                return value
        return None


def _json_answer(document: Any, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    return Answer(status, body, JSON, dict(headers or {}))


def _matches(header: str | None, etag: str) -> bool:
    """Whether an If-None-Match / If-Match header names ``etag`` (or is ``*``)."""
    if header is None:
        return False
    for candidate in header.split(","):
        tag = candidate.strip()
        if tag == "*":
            return True
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag == etag:
            return True
    return False


def _moved(url: str) -> Answer:
    """301 to where an entry now lives (lazr clients read its Content-Type)."""
    return Answer(301, f"Moved to {url}\n".encode(), "text/plain; charset=utf-8", {"Location": url})


def _not_allowed(method: str, allowed: tuple[str, ...]) -> Problem:
    return Problem(
        405,
        f"Method {method} is not allowed on this resource; allowed: {', '.join(allowed)}.",
        {"Allow": ", ".join(allowed)},
    )


def _int_segment(text: str) -> int:
    if not text.isdigit() or len(text) > 18:
        raise Problem(404, f"No such resource: {text!r} is not an id.")
    return int(text)


def _parse_datetime(text: str) -> str:
    """Normalise an ISO 8601 date or date-time to an ISO string with a timezone."""
    value = datetime.fromisoformat(text.strip())
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


class Service:
    """Answers calls against a :class:`Store`; caches the WADL per root URL."""

    def __init__(self, store: Store, *, page_size: int = 5) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page size must be between 1 and {MAX_PAGE_SIZE}, not {page_size}")
        self.store = store
        self.page_size = page_size
        self._root_cache: dict[tuple[str, str], tuple[bytes, str]] = {}

    # -- dispatch ------------------------------------------------------------

    def answer(self, call: Call) -> Answer:
        segments = call.segments
        if len(segments) in (2, 3) and segments[0] == "files":
            # /files/<id>/<name>, as a librarian serves it; /files/<id> also works.
            return self._file(call, _int_segment(segments[1]))
        if not segments or segments[0] not in VERSIONS:
            raise Problem(404, "No such resource: the path must start with a version (1.0, devel).")
        version = segments[0]
        root = f"{call.host_url}{version}/"
        rest = segments[1:]
        if not rest:
            return Answer(301, headers={"Location": root})
        if rest == [""]:
            return self._service_root(call, version, root)
        if "" in rest:
            raise Problem(404, "No such resource.")
        render = Renderer(root, self.store, anonymous=call.anonymous)
        kind, *more = rest
        if kind == "recipes":
            if not more:
                return self._collection(call, render, RECIPE, None)
            if len(more) == 1:
                row = self._recipe(call, _int_segment(more[0]))
                return self._entry(call, render, RECIPE, row)
        elif kind == "dishes":
            if not more:
                return self._collection(call, render, DISH, None)
            dish = self.store.dish(_int_segment(more[0]))
            if dish is None:
                raise Problem(404, f"No such dish: {more[0]}.")
            if len(more) == 1:
                return self._entry(call, render, DISH, dish)
            if more[1:] == ["recipes"]:
                return self._collection(call, render, RECIPE, ("dish", dish))
        elif kind == "cookbooks":
            if not more:
                return self._collection(call, render, COOKBOOK, None)
            book = self.store.cookbook_named(more[0])
            if book is None:
                raise Problem(404, f"No such cookbook: {more[0]!r}.")
            if len(more) == 1:
                return self._entry(call, render, COOKBOOK, book)
            if more[1:] == ["recipes"]:
                return self._collection(call, render, RECIPE, ("cookbook", book))
            if more[1:] == ["cover"]:
                return self._cover(call, book)
        raise Problem(404, "No such resource.")

    # -- service root --------------------------------------------------------

    def _service_root(self, call: Call, version: str, root: str) -> Answer:
        if call.method not in ("GET", "HEAD"):
            raise _not_allowed(call.method, ("GET", "HEAD"))
        media_type = self._wanted_wadl(call.header("Accept"))
        key = (root, media_type or JSON)
        cached = self._root_cache.get(key)
        if cached is None:
            if media_type is not None:
                body = generate_wadl(root, media_type)
            else:
                document: dict[str, str | None] = {
                    f"{t.plural}_collection_link": f"{root}{t.plural}" for t in ENTRY_TYPES
                }
                featured = self.store.featured_cookbook()
                for name in TOP_LEVEL_ENTRIES:
                    document[f"{name}_link"] = (
                        Renderer(root, self.store, anonymous=False).cookbook_url(featured["name"])
                        if featured is not None
                        else None
                    )
                document["resource_type_link"] = f"{root}#service-root"
                body = json.dumps(document, ensure_ascii=False).encode("utf-8")
            cached = (body, '"' + hashlib.sha1(body).hexdigest() + '"')
            if len(self._root_cache) > 64:
                self._root_cache.clear()
            if media_type is not None:
                self._root_cache[key] = cached
        body, etag = cached
        headers = {
            "ETag": etag,
            "Cache-Control": f"max-age={VERSIONS[version]}",
            "Vary": "Accept",
        }
        if _matches(call.header("If-None-Match"), etag):
            return Answer(304, headers=headers)
        return Answer(200, body, media_type or JSON, headers)

    @staticmethod
    def _wanted_wadl(accept: str | None) -> str | None:
        if not accept:
            return None
        for item in accept.split(","):
            media_type = item.split(";")[0].strip().lower()
            if media_type in WADL_MEDIA_TYPES:
                return media_type
        return None

    # -- collections ---------------------------------------------------------

    def _paging(self, call: Call) -> tuple[int, int]:
        start_text = call.query_value("ws.start")
        size_text = call.query_value("ws.size")
        start, size = 0, self.page_size
        if start_text is not None:
            if not start_text.isdigit() or len(start_text) > 18:
                raise Problem(400, f"ws.start must be a non-negative integer, not {start_text!r}.")
            start = int(start_text)
        if size_text is not None:
            if not size_text.isdigit() or int(size_text) < 1 or len(size_text) > 18:
                raise Problem(400, f"ws.size must be a positive integer, not {size_text!r}.")
            size = min(int(size_text), MAX_PAGE_SIZE)
        return start, size

    def _page_url(self, call: Call) -> Callable[[int, int], str]:
        base = call.host_url + "/".join(quote(s, safe="") for s in call.segments)
        others = [(k, v) for k, v in call.query if k not in ("ws.start", "ws.size")]

        def build(start: int, size: int) -> str:
            return (
                f"{base}?{urlencode([*others, ('ws.size', str(size)), ('ws.start', str(start))])}"
            )

        return build

    def _collection(
        self, call: Call, render: Renderer, entry_type: EntryType, owner: tuple[str, Row] | None
    ) -> Answer:
        op_name = self._op_name(call)
        if call.method == "POST":
            if op_name is None:
                raise _not_allowed("POST without ws.op", ("GET", "HEAD"))
        elif call.method not in ("GET", "HEAD"):
            raise _not_allowed(call.method, ("GET", "HEAD", "POST"))
        if op_name is not None:
            op = entry_type.operation(op_name, on_collection=True) if owner is None else None
            return self._operation(call, render, op, op_name, None)
        start, size = self._paging(call)
        if entry_type is RECIPE:
            dish_id = owner[1]["id"] if owner and owner[0] == "dish" else None
            book_id = owner[1]["id"] if owner and owner[0] == "cookbook" else None
            rows, total = self.store.recipes(
                start, size, sees_private=call.sees_private, dish_id=dish_id, cookbook_id=book_id
            )
        elif entry_type is DISH:
            rows, total = self.store.dishes(start, size)
        else:
            rows, total = self.store.cookbooks(start, size)
        return self._page_answer(call, render, entry_type, rows, total, start, size)

    def _page_answer(
        self,
        call: Call,
        render: Renderer,
        entry_type: EntryType,
        rows: list[Row],
        total: int,
        start: int,
        size: int,
    ) -> Answer:
        """A page, or with ``ws.show=total_size`` the bare size (lazr.restful's size link)."""
        show = call.query_value("ws.show")
        if show == "total_size":
            return _json_answer(total)
        if show is not None:
            raise Problem(400, f"ws.show may only be 'total_size', not {show!r}.")
        return _json_answer(render.page(entry_type, rows, total, start, size, self._page_url(call)))

    # -- entries -------------------------------------------------------------

    def _recipe(self, call: Call, recipe_id: int) -> Row:
        row = self.store.recipe(recipe_id, sees_private=call.sees_private)
        if row is None:
            raise Problem(404, f"No such recipe: {recipe_id}.")
        return row

    def _entry(self, call: Call, render: Renderer, entry_type: EntryType, row: Row) -> Answer:
        if call.method in ("GET", "HEAD"):
            op_name = call.query_value("ws.op")
            if op_name is not None:
                return self._operation(call, render, entry_type.operation(op_name), op_name, row)
            document = render.entry(entry_type, row)
            etag = document["http_etag"]
            if _matches(call.header("If-None-Match"), etag):
                return Answer(304, headers={"ETag": etag})
            return _json_answer(document, headers={"ETag": etag})
        if call.method == "POST":
            op_name = self._op_name(call)
            if op_name is None:
                raise _not_allowed("POST without ws.op", self._entry_methods(entry_type))
            return self._operation(call, render, entry_type.operation(op_name), op_name, row)
        if call.method in ("PATCH", "PUT"):
            return self._modify(call, render, entry_type, row)
        if call.method == "DELETE" and entry_type.deletable:
            self._require_write(call)
            self.store.delete_recipe(int(row["id"]))
            return Answer(200)
        raise _not_allowed(call.method, self._entry_methods(entry_type))

    @staticmethod
    def _entry_methods(entry_type: EntryType) -> tuple[str, ...]:
        methods = ("GET", "HEAD", "PUT", "PATCH", "POST")
        return (*methods, "DELETE") if entry_type.deletable else methods

    @staticmethod
    def _require_write(call: Call) -> None:
        if not call.may_write:
            raise Problem(401, "Anonymous access is read-only; this request needs write access.")

    def _modify(self, call: Call, render: Renderer, entry_type: EntryType, row: Row) -> Answer:
        self._require_write(call)
        content_type = (call.header("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != JSON:
            raise Problem(415, f"{call.method} needs a JSON body (Content-Type: {JSON}).")
        current = render.entry(entry_type, row)
        if_match = call.header("If-Match")
        if if_match is not None and not _matches(if_match, current["http_etag"]):
            raise Problem(412, "The entry has changed since you fetched it (If-Match failed).")
        try:
            changes = json.loads(call.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise Problem(400, f"The body is not valid JSON: {error}.") from None
        if not isinstance(changes, dict):
            raise Problem(400, "The body must be a JSON object of the fields to change.")
        columns, errors = self._validate_changes(render, entry_type, row, current, changes)
        if errors:
            raise Problem(400, "\n".join(sorted(errors)))
        moved_to: str | None = None
        if entry_type is RECIPE:
            self.store.update_recipe(int(row["id"]), columns)
        elif entry_type is DISH:
            self.store.update_dish(int(row["id"]), columns)
        else:
            try:
                self.store.update_cookbook(int(row["id"]), columns)
            except NameTaken:
                raise Problem(
                    409, f"A cookbook named {columns['name']!r} already exists."
                ) from None
            if "name" in columns and columns["name"] != row["name"]:
                moved_to = render.cookbook_url(str(columns["name"]))
        if moved_to is not None:
            return _moved(moved_to)
        fresh = self._reload(entry_type, row, call)
        document = render.entry(entry_type, fresh)
        return _json_answer(document, 209, {"ETag": document["http_etag"]})

    def _reload(self, entry_type: EntryType, row: Row, call: Call) -> Row:
        row_id = int(row["id"])
        fresh = (
            self.store.recipe(row_id, sees_private=True)
            if entry_type is RECIPE
            else self.store.dish(row_id)
            if entry_type is DISH
            else self.store.cookbook(row_id)
        )
        assert fresh is not None
        return fresh

    def _validate_changes(
        self,
        render: Renderer,
        entry_type: EntryType,
        row: Row,
        current: dict[str, Any],
        changes: dict[str, Any],
    ) -> tuple[dict[str, object], list[str]]:
        columns: dict[str, object] = {}
        errors: list[str] = []
        for key, value in changes.items():
            if key in _READ_ONLY_META:
                if value != current[key]:
                    errors.append(f"{key}: You tried to modify a read-only attribute.")
                continue
            spec = entry_type.field(key)
            if spec is None:
                errors.append(f"{key}: You tried to modify a nonexistent attribute.")
                continue
            if value == current[key]:
                continue
            if not spec.writable:
                errors.append(f"{key}: You tried to modify a read-only attribute.")
                continue
            try:
                column, stored = self._field_value(render, spec, value)
            except ValueError as error:
                errors.append(f"{key}: {error}")
                continue
            columns[column] = stored
        return columns, errors

    def _field_value(self, render: Renderer, spec: Field, value: Any) -> tuple[str, object]:
        """The column and stored value for a new field value; ValueError if invalid."""
        if spec.kind == "string":
            if not isinstance(value, str):
                raise ValueError(f"Expected a string, got {json.dumps(value)}.")
            if spec.options and value not in spec.options:
                raise ValueError(
                    f'Invalid value "{value}". Acceptable values are: {", ".join(spec.options)}'
                )
            if spec.name in ("name", "description"):
                value = value.strip()
            if spec.name == "name":
                _check_name(value)
            return spec.name, value
        if spec.kind == "decimal":
            return spec.name, str(_decimal(value))
        if spec.kind == "datetime":
            if value is None:
                return spec.name, None
            if not isinstance(value, str):
                raise ValueError("Value doesn't look like a date.")
            try:
                return spec.name, _parse_datetime(value)
            except ValueError:
                raise ValueError("Value doesn't look like a date.") from None
        if spec.kind == "link":
            return f"{spec.name}_id", self._link_target(render, spec, value)
        raise ValueError("You tried to modify a read-only attribute.")

    def _link_target(self, render: Renderer, spec: Field, value: Any) -> int:
        """The id of the entry a link points to; ValueError unless it is one of ours."""
        if not isinstance(value, str) or not value.startswith(render.root):
            raise ValueError(f"{json.dumps(value)} is not a link to a {spec.target}.")
        parts = [unquote(p) for p in urlsplit(value[len(render.root) :]).path.split("/")]
        if spec.target == "dish" and len(parts) == 2 and parts[0] == "dishes":
            dish_id = int(parts[1]) if parts[1].isdigit() else -1
            if self.store.dish(dish_id) is not None:
                return dish_id
        if spec.target == "cookbook" and len(parts) == 2 and parts[0] == "cookbooks":
            book = self.store.cookbook_named(parts[1])
            if book is not None:
                return int(book["id"])
        raise ValueError(f"{value} is not a link to a {spec.target}.")

    # -- named operations ----------------------------------------------------

    def _form(self, call: Call) -> dict[str, FormValue]:
        try:
            form = parse_form(call.header("Content-Type"), call.body)
        except FormError as error:
            raise Problem(400, str(error)) from None
        if form is None:
            if not call.body:
                return {}
            raise Problem(415, f"A named POST operation needs a {FORM} or {MULTIPART} body.")
        return form

    def _op_name(self, call: Call) -> str | None:
        """``ws.op`` from the query string or, for a POST, the form body."""
        name = call.query_value("ws.op")
        if name is None and call.method == "POST":
            value = self._form(call).get("ws.op")
            name = value if isinstance(value, str) else None
        return name

    def _operation(
        self, call: Call, render: Renderer, op: Operation | None, name: str, row: Row | None
    ) -> Answer:
        if op is None:
            raise Problem(400, f"No such operation: {name}")
        wanted = "GET" if call.method == "HEAD" else call.method
        if op.http_method != wanted:
            raise _not_allowed(call.method, (op.http_method,))
        if op.http_method == "POST":
            self._require_write(call)
            raw: dict[str, FormValue] = {**dict(call.query), **self._form(call)}
        else:
            raw = dict(call.query)
        args = self._decode_args(render, op, raw)
        if op.name == "find_recipes":
            start, size = self._paging(call)
            rows, total = self.store.recipes(
                start,
                size,
                sees_private=call.sees_private,
                cookbook_id=None if row is None else int(row["id"]),
                search=str(args["search"]),
            )
            return self._page_answer(call, render, RECIPE, rows, total, start, size)
        if op.name == "find_for_cuisine":
            start, size = self._paging(call)
            rows, total = self.store.cookbooks(start, size, cuisine=str(args["cuisine"]))
            return self._page_answer(call, render, COOKBOOK, rows, total, start, size)
        if op.name == "create":
            return self._create_cookbook(render, args)
        if op.name == "find_recipe_for" and row is not None:
            rows, _total = self.store.recipes(
                0,
                1,
                sees_private=call.sees_private,
                cookbook_id=int(row["id"]),
                dish_id=int(str(args["dish"])),
            )
            return _json_answer(render.entry(RECIPE, rows[0]) if rows else None)
        if op.name == "replace_cover" and row is not None:
            cover = args["cover"]
            assert isinstance(cover, bytes)
            self.store.set_cover(int(row["id"]), "application/octet-stream", cover)
            return _json_answer(None)
        if op.name == "make_more_interesting" and row is not None:
            new_name = f"The New {row['name']}"
            _check_name_or_problem(new_name)
            try:
                self.store.update_cookbook(int(row["id"]), {"name": new_name})
            except NameTaken:
                raise Problem(409, f"A cookbook named {new_name!r} already exists.") from None
            return _moved(render.cookbook_url(new_name))
        raise Problem(400, f"No such operation: {name}")

    def _create_cookbook(self, render: Renderer, args: dict[str, object]) -> Answer:
        name = str(args["name"]).strip()
        _check_name_or_problem(name)
        values: dict[str, object] = {
            "name": name,
            "cuisine": args["cuisine"],
            "copyright_date": args["copyright_date"],
            "price": str(args["price"]),
            "last_printing": args.get("last_printing"),
        }
        try:
            self.store.create_cookbook(values)
        except NameTaken:
            raise Problem(409, f"A cookbook named {name!r} already exists.") from None
        return Answer(201, headers={"Location": render.cookbook_url(name)})

    def _decode_args(
        self, render: Renderer, op: Operation, raw: dict[str, FormValue]
    ) -> dict[str, object]:
        """Every argument decoded and checked; a 400 lists every problem."""
        args: dict[str, object] = {}
        errors: list[str] = []
        for param in op.params:
            value = raw.get(param.name)
            if value is None or (value in ("", b"") and param.kind not in ("string", "binary")):
                if param.required:
                    errors.append(f"{param.name}: Required input is missing.")
                continue
            try:
                decoded = _decode_arg(param, value)
                if param.kind == "link":
                    spec = Field(param.name, "link", param.doc, target=param.target)
                    decoded = self._link_target(render, spec, decoded)
                args[param.name] = decoded
            except ValueError as error:
                errors.append(f"{param.name}: {error}")
        if errors:
            raise Problem(400, "\n".join(sorted(errors)))
        return args

    # -- hosted files --------------------------------------------------------

    def _cover(self, call: Call, book: Row) -> Answer:
        if call.method in ("GET", "HEAD"):
            if book["cover_id"] is None:
                raise Problem(404, f"The cookbook {book['name']!r} has no cover.")
            stored = self.store.file(int(book["cover_id"]))
            name = quote(str(stored["filename"]) if stored and stored["filename"] else "cover")
            location = f"{call.host_url}files/{book['cover_id']}/{name}"
            return Answer(303, headers={"Location": location})
        if call.method == "PUT":
            self._require_write(call)
            content_type = call.header("Content-Type")
            if not content_type:
                raise Problem(400, "PUT to a hosted file needs a Content-Type.")
            filename = _disposition_filename(call.header("Content-Disposition"))
            self.store.set_cover(int(book["id"]), content_type, call.body, filename)
            return Answer(200)
        if call.method == "DELETE":
            self._require_write(call)
            self.store.delete_cover(int(book["id"]))
            return Answer(200)
        raise _not_allowed(call.method, ("GET", "HEAD", "PUT", "DELETE"))

    def _file(self, call: Call, file_id: int) -> Answer:
        if call.method not in ("GET", "HEAD"):
            raise _not_allowed(call.method, ("GET", "HEAD"))
        stored = self.store.file(file_id)
        if stored is None:
            raise Problem(404, f"No such file: {file_id}.")
        etag = etag_of([file_id, stored["last_modified"]])
        modified = datetime.fromisoformat(stored["last_modified"])
        headers = {
            "ETag": etag,
            "Last-Modified": format_datetime(modified, usegmt=True),
            "Content-Disposition": _attachment(str(stored["filename"] or file_id)),
        }
        if _matches(call.header("If-None-Match"), etag):
            return Answer(304, headers=headers)
        return Answer(200, bytes(stored["data"]), str(stored["content_type"]), headers)


def _disposition_filename(value: str | None) -> str:
    """The file name a Content-Disposition header gives, or ''.

    The RFC 5987 form (``filename*=UTF-8''...``) wins over the plain one,
    which a client sends only as an ASCII fallback (RFC 6266, section 4.3).
    """
    if not value:
        return ""
    extended = re.search(r"filename\*\s*=\s*([^;\s]+)", value, re.IGNORECASE)
    name: str | None = None
    if extended:
        charset, _, encoded = extended.group(1).partition("''")
        try:
            name = unquote(encoded, encoding=charset or "utf-8", errors="strict")
        except (LookupError, UnicodeDecodeError):
            name = None
    if not name:
        header = Message()
        header["Content-Disposition"] = value
        name = header.get_filename()
    return name.replace("/", "_").replace("\\", "_") if name else ""


def _attachment(filename: str) -> str:
    """A Content-Disposition for ``filename``, with an RFC 5987 form when not ASCII."""
    ascii_name = filename.encode("ascii", "replace").decode("ascii").replace('"', "'")
    if ascii_name == filename:
        return f'attachment; filename="{filename}"'
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename, safe='')}"


def _check_name(name: str) -> None:
    if not name:
        raise ValueError("A cookbook's name may not be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"A cookbook's name may be at most {MAX_NAME_LENGTH} characters long.")


def _check_name_or_problem(name: str) -> None:
    try:
        _check_name(name)
    except ValueError as error:
        raise Problem(400, f"name: {error}") from None


def _decimal(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"got {json.dumps(value)}, expected a number.")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("expected a finite number.")
    return Decimal(str(value))


def _decode_arg(param: Param, value: FormValue) -> object:
    """A named-operation argument from its wire form (JSON unless options or binary)."""
    if param.kind == "binary":
        return value if isinstance(value, bytes) else value.encode("utf-8")
    raw = value if isinstance(value, str) else value.decode("utf-8", "replace")
    if param.kind == "options":
        if raw in param.options:
            return raw
        try:
            decoded = json.loads(raw)
        except ValueError:
            decoded = None
        if isinstance(decoded, str) and decoded in param.options:
            return decoded
        raise ValueError(
            f'Invalid value "{raw}". Acceptable values are: {", ".join(param.options)}'
        )
    try:
        decoded = json.loads(raw)
    except ValueError:
        decoded = raw
    if param.kind == "string":
        return decoded if isinstance(decoded, str) else raw
    if param.kind == "decimal":
        if isinstance(decoded, bool) or not isinstance(decoded, (int, float)):
            raise ValueError(f"got {raw!r}, expected a JSON number.")
        return _decimal(decoded)
    if param.kind == "datetime":
        if not isinstance(decoded, str):
            raise ValueError("Value doesn't look like a date.")
        try:
            return _parse_datetime(decoded)
        except ValueError:
            raise ValueError("Value doesn't look like a date.") from None
    return decoded
