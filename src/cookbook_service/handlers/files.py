"""Hosted files: a cookbook's cover (303 to the file, PUT, DELETE) and the files themselves.

Files are served from ``/files/<id>/<name>``, as Launchpad's librarian
serves them, with an ETag, Last-Modified and a Content-Disposition that
keeps a non-ASCII name (RFC 5987).
"""

from __future__ import annotations

import re
from datetime import datetime
from email.message import Message
from email.utils import format_datetime
from urllib.parse import quote, unquote

from cookbook_service.handlers.base import (
    Answer,
    Call,
    Context,
    Problem,
    matches,
    not_allowed,
    require_write,
)
from cookbook_service.render import Renderer, etag_of
from cookbook_service.store import Row


def answer_cover(ctx: Context, call: Call, render: Renderer, book: Row) -> Answer:
    if call.method in ("GET", "HEAD"):
        if book["cover_id"] is None:
            raise Problem(404, f"The cookbook {book['name']!r} has no cover.")
        stored = ctx.store.file(int(book["cover_id"]))
        name = quote(str(stored["filename"]) if stored and stored["filename"] else "cover")
        location = f"{call.host_url}files/{book['cover_id']}/{name}"
        return Answer(303, headers={"Location": location})
    if call.method == "PUT":
        require_write(call)
        content_type = call.header("Content-Type")
        if not content_type:
            raise Problem(400, "PUT to a hosted file needs a Content-Type.")
        filename = _disposition_filename(call.header("Content-Disposition"))
        ctx.store.set_cover(int(book["id"]), content_type, call.body, filename)
        return Answer(200)
    if call.method == "DELETE":
        require_write(call)
        ctx.store.delete_cover(int(book["id"]))
        return Answer(200)
    raise not_allowed(call.method, ("GET", "HEAD", "PUT", "DELETE"))


def answer_file(ctx: Context, call: Call, file_id: int) -> Answer:
    if call.method not in ("GET", "HEAD"):
        raise not_allowed(call.method, ("GET", "HEAD"))
    stored = ctx.store.file(file_id)
    if stored is None:
        raise Problem(404, f"No such file: {file_id}.")
    etag = etag_of([file_id, stored["last_modified"]])
    modified = datetime.fromisoformat(stored["last_modified"])
    headers = {
        "ETag": etag,
        "Last-Modified": format_datetime(modified, usegmt=True),
        "Content-Disposition": _attachment(str(stored["filename"] or file_id)),
    }
    if matches(call.header("If-None-Match"), etag):
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
