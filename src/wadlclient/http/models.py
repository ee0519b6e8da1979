"""The transport's value types: what a sender is given and gives back, and what callers get."""

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from wadlclient.errors import ResponseError
from wadlclient.headers import Headers
from wadlclient.redact import shown_url

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_BODY",
    "DEFAULT_TIMEOUT",
    "HTTPResponse",
    "PendingResponse",
    "Request",
    "Response",
    "Timeout",
]


class Timeout(NamedTuple):
    """Seconds allowed to open a connection, and to send the request and receive the whole answer.

    ``read`` bounds the whole answer, not each read of it: a server that
    drips one byte a second cannot keep a call alive. None means no limit.
    """

    connect: float | None
    read: float | None

    @classmethod
    def of(cls, value: "float | Timeout | None") -> "Timeout":
        """A timeout from what `Transport` accepts: None (the default), seconds for both, or one.

        Any object with ``connect`` and ``read`` attributes (an ``httpx.Timeout``) is read too.
        """
        if value is None:
            return DEFAULT_TIMEOUT
        if isinstance(value, Timeout):
            return value
        if isinstance(value, int | float):
            return cls(float(value), float(value))
        return cls(getattr(value, "connect", None), getattr(value, "read", None))


#: Used when the caller passes ``timeout=None``: waiting forever is never what a script wants.
DEFAULT_TIMEOUT = Timeout(connect=10.0, read=60.0)
#: Seconds one `Transport.request` may take, redirects and retries (and their waits) included.
DEFAULT_DEADLINE = 300.0
#: Bytes a decoded answer may hold: far above Launchpad's 1.5 MB WADL, far below a bomb's output.
DEFAULT_MAX_BODY = 64 * 1024 * 1024


# Timeout, Request, Response and HTTPResponse are named tuples: immutable
# values made on every request, and cheaper to define at import than
# dataclasses. Cheaper still without ``from __future__ import annotations``:
# a named tuple compiles each field annotation that is a string.


class Request(NamedTuple):
    """One request as a sender puts it on the wire (it adds ``Host`` and ``Content-Length``)."""

    method: str
    url: str
    headers: Headers
    body: bytes | None = None

    def __repr__(self) -> str:
        return f"<Request {self.method} {shown_url(self.url)}>"


class Response(NamedTuple):
    """One answer as a sender read it: the body whole and decoded (no gzip/deflate left)."""

    status: int
    reason: str
    headers: Headers
    content: bytes
    url: str

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.reason} {shown_url(self.url)}>"


class HTTPResponse(NamedTuple):
    """An answer, complete and immutable: safe to share between threads.

    ``url`` is the final URL after any redirects. ``from_cache`` is true
    when the body came from the cache (fresh, or revalidated by a 304);
    ``not_modified`` when the caller's own conditional request got a 304.
    """

    status: int
    reason: str
    headers: Headers
    content: bytes
    url: str
    from_cache: bool = False
    not_modified: bool = False

    def json(self) -> Any:
        """The body parsed as JSON; `ResponseError` says where it is malformed."""
        try:
            return json.loads(self.content)
        except json.JSONDecodeError as exc:
            raise ResponseError(
                f"malformed JSON in the response from {shown_url(self.url)}: {exc.msg} "
                f"at line {exc.lineno} column {exc.colno} (char {exc.pos})"
            ) from exc
        except UnicodeDecodeError as exc:
            raise ResponseError(
                f"the response from {shown_url(self.url)} is not UTF-8 text "
                f"(bad byte at position {exc.start})"
            ) from exc
        except RecursionError:
            shown = shown_url(self.url)
            raise ResponseError(f"the JSON from {shown} is nested too deeply") from None

    def __repr__(self) -> str:
        # Headers and body stay out: a repr ends up in logs and tracebacks.
        flags = ", from_cache" if self.from_cache else ""
        flags += ", not_modified" if self.not_modified else ""
        return f"<HTTPResponse {self.status} {self.reason} {shown_url(self.url)}{flags}>"


class PendingResponse:
    """A request `Transport.begin` put on the wire; its answer is read when asked for.

    `result` returns (or raises) what `Transport.request` would have, once;
    `discard` gives the answer up and closes its connection.
    """

    __slots__ = ("_discard", "_finish")

    def __init__(self, finish: Callable[[], HTTPResponse], discard: Callable[[], None]) -> None:
        self._finish: Callable[[], HTTPResponse] | None = finish
        self._discard = discard

    def result(self) -> HTTPResponse:
        """The answer, as `Transport.request` gives it."""
        finish, self._finish = self._finish, None
        if finish is None:
            raise RuntimeError("this answer was already taken or discarded")
        return finish()

    def discard(self) -> None:
        """Give the answer up (nothing happens once it was taken)."""
        if self._finish is not None:
            self._finish = None
            self._discard()
