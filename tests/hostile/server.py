"""A scriptable hostile HTTP server: the answers a broken or malicious service could give.

One `HostileServer` listens on two loopback origins (127.0.0.1 and
127.0.0.2, each its own port) that share one route table and one journal,
so a test can tell which origin a request reached and with what headers.
A route is a function of the `Exchange`; it may answer whole
(`Exchange.send`), write raw bytes, or drip them slowly.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cookbook_service.wadl import generate_wadl
from wadlclient.testing.server import LoopbackHTTPServer

WADL_TYPE = "application/vnd.example.wadl+xml"


@dataclass(frozen=True)
class Hit:
    """One request as the server received it."""

    method: str
    origin: str  # the server's own URL that received it
    path: str
    query: str
    headers: dict[str, str]
    body: bytes
    peer: int = 0  # the client's port: one per connection


class Exchange:
    """One request being answered: what came in, and ways to answer."""

    def __init__(self, handler: http.server.BaseHTTPRequestHandler, hit: Hit) -> None:
        self._handler = handler
        self.hit = hit

    def send(
        self,
        status: int,
        body: bytes = b"",
        headers: Iterable[tuple[str, str]] = (),
        content_type: str | None = "application/json",
    ) -> None:
        lines = [f"HTTP/1.1 {status} Scripted"]
        names = set()
        for name, value in headers:
            lines.append(f"{name}: {value}")
            names.add(name.lower())
        if content_type is not None and "content-type" not in names:
            lines.append(f"Content-Type: {content_type}")
        if "content-length" not in names:
            lines.append(f"Content-Length: {len(body)}")
        self.raw("\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + body)

    def json(self, document: Any, status: int = 200) -> None:
        self.send(status, json.dumps(document).encode())

    def raw(self, data: bytes) -> None:
        self._handler.wfile.write(data)
        self._handler.wfile.flush()

    def drip(self, data: bytes, every: float) -> None:
        """Write ``data`` one byte at a time, ``every`` seconds apart."""
        for index in range(len(data)):
            try:
                self.raw(data[index : index + 1])
            except OSError:
                return
            time.sleep(every)

    def close(self) -> None:
        self._handler.close_connection = True


Route = Callable[[Exchange], None]


@dataclass(repr=False)
class HostileServer:
    """Two origins, one route table (by path), one journal."""

    url: str
    other_url: str
    routes: dict[str, Route] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __repr__(self) -> str:
        return f"<HostileServer {self.url} {self.other_url}>"

    def journal(self) -> list[Hit]:
        with self.lock:
            return list(self.hits)

    def reset(self) -> None:
        with self.lock:
            self.hits.clear()
            self.routes.clear()

    def count(self, path: str) -> int:
        return sum(1 for hit in self.journal() if hit.path == path)

    def answer(self, handler: http.server.BaseHTTPRequestHandler, origin: str) -> None:
        path, _, query = handler.path.partition("?")
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in handler.headers.items()}
        peer = handler.client_address[1]
        hit = Hit(handler.command, origin, path, query, headers, body, peer)
        with self.lock:
            self.hits.append(hit)
            route = self.routes.get(path)
        exchange = Exchange(handler, hit)
        if route is None:
            exchange.json({"error": "no such route"}, status=404)
        else:
            route(exchange)

    # -- a service root the client accepts: the cookbook WADL, and a root document.

    def serve_root(self, root_path: str = "/1.0/", document: dict[str, Any] | None = None) -> str:
        """Serve the cookbook WADL and ``document`` (a default root) at ``root_path``."""
        root = self.url + root_path
        wadl = generate_wadl(root, WADL_TYPE)
        body = document if document is not None else default_root(root)

        def serve(exchange: Exchange) -> None:
            if "wadl" in exchange.hit.headers.get("accept", ""):
                cacheable = [("Cache-Control", "max-age=3600"), ("ETag", '"wadl-1"')]
                exchange.send(200, wadl, cacheable, content_type=WADL_TYPE)
            else:
                exchange.json(body)

        self.routes[root_path] = serve
        return root


def default_root(root: str) -> dict[str, Any]:
    """The root document: links to the three collections."""
    return {
        "resource_type_link": root + "#service-root",
        "recipes_collection_link": root + "recipes",
        "dishes_collection_link": root + "dishes",
        "cookbooks_collection_link": root + "cookbooks",
    }


def recipe(url: str, number: int) -> dict[str, Any]:
    """A recipe entry as a page holds it."""
    return {
        "self_link": url,
        "resource_type_link": "#recipe",
        "http_etag": f'"{number}"',
        "id": number,
        "title": f"recipe {number}",
    }


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except OSError:
            self.close_connection = True

    def _answer(self) -> None:
        self.server.hostile.answer(self, self.server.origin)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _answer

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Server(LoopbackHTTPServer):
    """The testing kit's loopback server: it sleeps between connections (it lives all session)."""

    hostile: HostileServer
    origin: str


def _start(host: str) -> _Server:
    server = _Server((host, 0), _Handler)
    server.origin = f"http://{host}:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def running_server() -> Iterator[HostileServer]:
    """Start the two origins; yield the server; stop them."""
    first, second = _start("127.0.0.1"), _start("127.0.0.2")
    hostile = HostileServer(first.origin, second.origin)
    first.hostile = second.hostile = hostile
    try:
        yield hostile
    finally:
        for server in (first, second):
            server.shutdown()
            server.server_close()
