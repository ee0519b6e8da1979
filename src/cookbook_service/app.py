"""The Starlette application: HTTP plumbing around :mod:`cookbook_service.handlers`.

Per request: read the body (413 past the limit), authenticate through
:mod:`cookbook_service.auth`, answer, wait ``latency_ms``, send, record the
request in the journal.

Who sees what:

* mode ``none``: every caller may read and write, but is not privileged, so
  private recipes are hidden (absent from pages and ``total_size``, 404 by
  URL). This keeps privacy observable in the default tests.
* a verified Basic user, or an OAuth token with access ``write``: may write
  and sees private recipes.
* OAuth anonymous access (empty token key and secret, or a token whose
  access is ``anonymous``): read-only (writes get 401), private recipes
  hidden, and a recipe's ``cookbook_link`` is served as
  ``tag:launchpad.net:2008:redacted``.
* a failed verification: 401 with ``WWW-Authenticate`` and a plain-text body.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from cookbook_service.auth import AUTH_MODES, AuthenticationFailed, authenticate_request
from cookbook_service.handlers import Answer, Call, Problem, Service
from cookbook_service.journal import Journal, JournalEntry
from cookbook_service.store import Store

log = logging.getLogger("cookbook_service")

#: The largest request body accepted (413 beyond).
MAX_BODY_BYTES = 4 * 1024 * 1024
REALM = "cookbook"
#: With ``journal_endpoint``: the path answering the journal's totals (benchmarks read it).
JOURNAL_PATH = "/_journal"


@dataclass(frozen=True)
class ServiceConfig:
    auth: str = "none"
    page_size: int = 5
    latency_ms: int = 0
    realm: str = REALM
    max_body_bytes: int = MAX_BODY_BYTES
    journal_endpoint: bool = False

    def __post_init__(self) -> None:
        if self.auth not in AUTH_MODES:
            raise ValueError(f"auth must be one of {', '.join(AUTH_MODES)}, not {self.auth!r}")
        if self.latency_ms < 0:
            raise ValueError("latency_ms may not be negative")


class _BodyTooLarge(Exception):
    pass


def _text(status: int, reason: str, headers: dict[str, str] | None = None) -> Answer:
    return Answer(
        status, (reason + "\n").encode("utf-8"), "text/plain; charset=utf-8", headers or {}
    )


class CookbookASGI:
    """The raw ASGI handler behind the Starlette route (every method, every path)."""

    def __init__(self, store: Store, config: ServiceConfig, journal: Journal) -> None:
        self.store = store
        self.config = config
        self.journal = journal
        self.service = Service(store, page_size=config.page_size)
        #: The wait before each answer; ``config.latency_ms`` unless a test changes it
        #: for the requests it measures (`cookbook_service.testing.RunningService.delayed`).
        self.latency_ms = config.latency_ms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        raw_path: bytes = scope.get("raw_path") or quote(scope["path"]).encode("ascii")
        path = raw_path.decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        if self.config.journal_endpoint and path == JOURNAL_PATH:
            await self._journal_totals(scope, receive, send)
            return
        answer = await self._answer(scope, receive, headers, path, query)
        if self.latency_ms:
            await asyncio.sleep(self.latency_ms / 1000)
        body = b"" if scope["method"] == "HEAD" else answer.body
        response = Response(body, answer.status, answer.headers, answer.media_type)
        # Recorded before sending, so a client that has its answer finds it here.
        authorization = headers.get("authorization")
        self.journal.record(
            JournalEntry(
                method=scope["method"],
                path=path,
                query=query,
                accept=headers.get("accept"),
                if_none_match=headers.get("if-none-match"),
                if_match=headers.get("if-match"),
                auth_scheme=authorization.split(" ", 1)[0] if authorization else None,
                user_agent=headers.get("user-agent"),
                status=answer.status,
                started=started,
                answered=time.monotonic(),
                sent_bytes=_bytes_on_wire(response),
            )
        )
        await response(scope, receive, send)

    async def _journal_totals(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``GET /_journal``: requests and bytes answered so far; ``DELETE`` starts again."""
        if scope["method"] == "DELETE":
            self.journal.clear()
        requests, sent = self.journal.totals()
        await JSONResponse({"requests": requests, "bytes": sent})(scope, receive, send)

    async def _read_body(self, receive: Receive, headers: dict[str, str]) -> bytes:
        limit = self.config.max_body_bytes
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise _BodyTooLarge
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _BodyTooLarge
            chunks.append(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)

    async def _answer(
        self, scope: Scope, receive: Receive, headers: dict[str, str], path: str, query: str
    ) -> Answer:
        try:
            body = await self._read_body(receive, headers)
        except _BodyTooLarge:
            return _text(
                413, f"The request body is larger than {self.config.max_body_bytes} bytes."
            )
        host = headers.get("host")
        if not host:
            server = scope.get("server") or ("127.0.0.1", 80)
            host = f"{server[0]}:{server[1]}"
        host_url = f"{scope.get('scheme', 'http')}://{host}/"
        full_url = host_url + path.lstrip("/") + (f"?{query}" if query else "")
        try:
            principal = authenticate_request(
                self.config.auth,
                scope["method"],
                full_url,
                headers,
                self.store,
                self.config.realm,
                body=body,
            )
        except AuthenticationFailed as failure:
            log.info("401 for %s %s: %s", scope["method"], path, failure.reason)
            return _text(
                401,
                "Unauthorized: " + failure.reason,
                {"WWW-Authenticate": failure.www_authenticate},
            )
        try:
            segments = [unquote(s, errors="strict") for s in path.split("/")[1:]]
        except UnicodeDecodeError:
            return _text(404, "No such resource: the path is not UTF-8.")
        call = Call(
            method=scope["method"],
            segments=segments,
            query=parse_qsl(query, keep_blank_values=True),
            headers=headers,
            body=body,
            host_url=host_url,
            may_write=principal.access == "write",
            sees_private=principal.scheme is not None and principal.access == "write",
            anonymous=principal.access != "write",
        )
        try:
            return self.service.answer(call)
        except Problem as problem:
            return _text(problem.status, problem.reason, problem.headers)
        except Exception:
            log.exception("error answering %s %s", scope["method"], path)
            return _text(500, "Internal server error.")


def _bytes_on_wire(response: Response) -> int:
    """The length of an HTTP/1.1 answer as the app makes it: status line, headers, body.

    uvicorn adds its ``date`` and ``server`` headers (about 60 bytes) beyond this.
    """
    head = len("HTTP/1.1 200 OK\r\n") + 2
    head += sum(len(name) + len(value) + 4 for name, value in response.raw_headers)
    return head + len(response.body)


def create_app(
    store: Store, config: ServiceConfig | None = None, journal: Journal | None = None
) -> Starlette:
    """The Starlette application serving ``store``; ``journal`` records requests."""
    handler = CookbookASGI(
        store, config or ServiceConfig(), journal if journal is not None else Journal()
    )
    app = Starlette(routes=[Route("/{path:path}", endpoint=handler)])
    app.state.handler = handler
    return app


def handler_of(app: Any) -> CookbookASGI:
    """The :class:`CookbookASGI` inside an app made by :func:`create_app`."""
    handler: CookbookASGI = app.state.handler
    return handler
