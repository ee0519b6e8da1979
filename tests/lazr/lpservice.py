"""A Launchpad-like service on loopback for the lazr compatibility tests.

It serves the real Launchpad WADL (its base moved here), a root JSON
made from it, a few people and bugs, the ``people.getByEmail`` named
operation, and can treat OAuth tokens as expired (401 "Expired token",
as Launchpad answers). Every request is written to a journal.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from benchmarks.lpserver import rewrite_wadl, root_json

from wadlclient.testing.server import LoopbackHTTPServer

PEOPLE = {
    "ada": ("Ada Lovelace", "ada@example.com"),
    "alan": ("Alan Turing", "alan@example.com"),
    "grace": ("Grace Hopper", "grace@example.com"),
}
#: In collection order, position 1 holds bug 2: ``bugs[1]`` by position would be bug 2.
BUGS = {1: "First bug", 2: "Second bug", 3: "Third bug"}
#: Links of links, for prefetch paths like ``owner.team_owner``.
BUG_OWNERS = {1: "ada", 2: "ada", 3: "alan"}
TEAM_OWNERS = {"ada": "grace", "alan": "grace", "grace": "grace"}

_TOKEN = re.compile(r'oauth_token="([^"]*)"')


@dataclass(frozen=True)
class Exchange:
    """One request as the server saw it, and the status it answered."""

    method: str
    path: str
    accept: str
    token: str | None
    status: int


@dataclass
class LaunchpadLike:
    """The service's state: its data, the tokens it treats as expired, the journal."""

    base_url: str = ""
    wadl: bytes = b""
    root: bytes = b""
    expired_tokens: set[str] = field(default_factory=set)
    #: token -> requests answered after which the server calls it expired.
    expires_after: dict[str, int] = field(default_factory=dict)
    #: Seconds each answer waits, so that requests sent together overlap.
    delay: float = 0.0
    #: Only the requests whose path starts with this wait ``delay`` (all of them by default).
    delayed: str = "/"
    in_flight: int = 0
    most_in_flight: int = 0
    #: WADL media type -> the error status a request for it gets.
    wadl_refusals: dict[str, int] = field(default_factory=dict)
    journal: list[Exchange] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, exchange: Exchange) -> None:
        with self.lock:
            self.journal.append(exchange)

    def arrived(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def left(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def is_expired(self, token: str | None) -> bool:
        if token is None:
            return False
        with self.lock:
            answered = len(self.journal)
        limit = self.expires_after.get(token)
        return token in self.expired_tokens or (limit is not None and answered >= limit)

    def requests_to(self, path: str) -> list[Exchange]:
        """The exchanges for one path (query included)."""
        with self.lock:
            return [e for e in self.journal if e.path == path]

    def person(self, name: str) -> dict[str, object]:
        display_name, _email = PEOPLE[name]
        return {
            "self_link": f"{self.base_url}~{name}",
            "resource_type_link": f"{self.base_url}#person",
            "name": name,
            "display_name": display_name,
            "team_owner_link": f"{self.base_url}~{TEAM_OWNERS[name]}",
            "http_etag": f'"{name}-1"',
        }

    def bug(self, number: int) -> dict[str, object]:
        return {
            "self_link": f"{self.base_url}bugs/{number}",
            "resource_type_link": f"{self.base_url}#bug",
            "id": number,
            "title": BUGS[number],
            "owner_link": f"{self.base_url}~{BUG_OWNERS[number]}",
            "http_etag": f'"bug-{number}-1"',
        }

    def answer(self, path: str, query: dict[str, list[str]], accept: str) -> tuple[int, str, bytes]:
        """(status, media type, body) for a GET of ``path``."""
        relative = path[len(urlsplit(self.base_url).path) :]
        if relative == "":
            if "wadl" in accept:
                wadl_type = next(t.strip() for t in accept.split(",") if "wadl" in t)
                wadl_type = wadl_type.split(";")[0]
                if wadl_type in self.wadl_refusals:
                    return self.wadl_refusals[wadl_type], "text/plain", b"no WADL here\n"
                return 200, wadl_type, self.wadl
            return 200, "application/json", self.root
        if relative == "people":
            if query.get("ws.op") == ["getByEmail"]:
                email = _argument(query.get("email", [""])[0])
                found = [n for n, (_d, e) in PEOPLE.items() if e == email]
                document: object = self.person(found[0]) if found else None
                return 200, "application/json", json.dumps(document).encode()
            return self._page([self.person(n) for n in PEOPLE], query, "people")
        if relative == "bugs":
            return self._page([self.bug(n) for n in BUGS], query, "bugs")
        if relative.startswith("~") and relative[1:] in PEOPLE:
            return 200, "application/json", json.dumps(self.person(relative[1:])).encode()
        if relative.startswith("bugs/") and relative[5:].isdigit() and int(relative[5:]) in BUGS:
            return 200, "application/json", json.dumps(self.bug(int(relative[5:]))).encode()
        return 404, "text/plain", b"Object: None, name: " + relative.encode() + b"\n"

    def write(self, method: str, path: str, body: bytes) -> tuple[int, str, bytes]:
        """(status, media type, body) for a POST or PATCH: this service is read-only."""
        return 405, "text/plain", b"read-only\n"

    def _page(
        self, entries: list[dict[str, object]], query: dict[str, list[str]], page_type: str
    ) -> tuple[int, str, bytes]:
        """One page, by ``ws.start`` and ``ws.size``."""
        start = int(query.get("ws.start", ["0"])[0])
        size = int(query.get("ws.size", ["75"])[0])
        shown = entries[start : start + size]
        page = {
            "total_size": len(entries),
            "start": start,
            "entries": shown,
            "resource_type_link": f"{self.base_url}#{page_type}",
        }
        return 200, "application/json", json.dumps(page).encode()


def _argument(text: str) -> object:
    """A named operation's argument: JSON when it parses (as lazr.restful reads them), else text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def make_handler(state: LaunchpadLike) -> type[BaseHTTPRequestHandler]:
    """The request handler class answering from ``state``."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def do_PATCH(self) -> None:
            self._serve()

        def _serve(self) -> None:
            state.arrived()
            try:
                self._answer()
            finally:
                state.left()

        def _answer(self) -> None:
            split = urlsplit(self.path)
            accept = self.headers.get("Accept", "")
            found = _TOKEN.search(self.headers.get("Authorization", ""))
            token = found.group(1) if found else None
            if state.delay and self.path.startswith(state.delayed):
                time.sleep(state.delay)
            if state.is_expired(token):
                status, media_type, body = 401, "text/plain", b"Expired token (loopback)."
            elif self.command in ("POST", "PATCH"):
                sent = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, media_type, body = state.write(self.command, self.path, sent)
            else:
                status, media_type, body = state.answer(split.path, parse_qs(split.query), accept)
            state.record(Exchange(self.command, self.path, accept, token, status))
            self.send_response(status)
            self.send_header("Content-Type", media_type)
            self.send_header("Content-Length", str(len(body)))
            if status == 200:
                self.send_header("ETag", '"' + hashlib.sha1(body).hexdigest() + '"')
            if status == 200 and split.path == urlsplit(state.base_url).path:
                # The root's WADL and JSON stay fresh for an hour, as Launchpad's do.
                self.send_header("Cache-Control", "max-age=3600")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the journal records what the tests need."""

    return Handler


class LoopbackServer:
    """The service running in a thread on an ephemeral loopback port."""

    def __init__(
        self, wadl: bytes, public_url: str | None = None, state: LaunchpadLike | None = None
    ) -> None:
        """``public_url``: where clients reach it, when that is a proxy in front of it.

        ``state``: a `LaunchpadLike` subclass's instance, for a service that
        answers more (its ``answer`` and ``write``).
        """
        self.state = state or LaunchpadLike()
        self._server = LoopbackHTTPServer(("127.0.0.1", 0), make_handler(self.state))
        self.port = self._server.server_address[1]
        self.service_root = public_url or f"http://127.0.0.1:{self.port}/"
        self.state.base_url = f"{self.service_root}1.0/"
        self.state.wadl = rewrite_wadl(wadl, self.state.base_url)
        self.state.root = root_json(self.state.wadl, self.state.base_url)
        # Polled every 0.05 s: `shutdown` waits out one poll (the default 0.5 s, per test).
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.01,), daemon=True
        )

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
