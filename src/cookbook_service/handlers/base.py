"""What every handler takes and gives: the call, the answer, the refusal.

Handlers are synchronous and work on a :class:`Call` (the parsed request and
the caller's rights); they return an :class:`Answer` or raise
:class:`Problem`, which becomes a plain-text 4xx. Every check runs before
any change, so bad input changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cookbook_service.store import Store

JSON = "application/json"


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


@dataclass(frozen=True)
class Context:
    """What the handlers share: the store, and the page size when ``ws.size`` is absent."""

    store: Store
    page_size: int


def json_answer(document: Any, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    return Answer(status, body, JSON, dict(headers or {}))


def matches(header: str | None, etag: str) -> bool:
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


def moved(url: str) -> Answer:
    """301 to where an entry now lives (lazr clients read its Content-Type)."""
    return Answer(301, f"Moved to {url}\n".encode(), "text/plain; charset=utf-8", {"Location": url})


def not_allowed(method: str, allowed: tuple[str, ...]) -> Problem:
    return Problem(
        405,
        f"Method {method} is not allowed on this resource; allowed: {', '.join(allowed)}.",
        {"Allow": ", ".join(allowed)},
    )


def int_segment(text: str) -> int:
    """The id a path segment holds; 404 unless it is one."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise Problem(404, f"No such resource: {text!r} is not an id.")
    return int(text)


def require_write(call: Call) -> None:
    if not call.may_write:
        raise Problem(401, "Anonymous access is read-only; this request needs write access.")
