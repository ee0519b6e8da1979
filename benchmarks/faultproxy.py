"""A fault-injecting HTTP proxy: a real socket server in front of a real service.

It stands where the service would (a reverse proxy: clients connect to it
and it passes the ``Host`` header on, so the service's links name the
proxy) and, for a seeded share of requests, does what a flaky network and
a busy gateway do instead of forwarding:

- answers 429, 502, 503 or 504 itself (keeping the connection open);
- drops the connection after reading the request, before any answer;
- loses the answer: forwards the request (the service acts on it), then
  drops the connection instead of passing the answer on;
- stalls: reads the request and never answers, until the client gives up.

``method_statuses`` adds statuses for some methods only (a 412 for 2 %
of the PATCHes, say: a save that met someone else's change).

Which request meets which fault is decided from a hash of the seed, the
request line and how often that request line was seen, not from the order
of arrival, so a run is the same whatever threads a client uses. A
request line meets at most ``max_in_a_row`` faults one after another (a
flaky network, not a service that is down). ``journal`` records every
request with its fate; requests forwarded reach the service's own journal.
The tests (tests/faults/) and the flaky-network row of ``make bench``
(`benchmarks.flaky`) both use it.
"""

from __future__ import annotations

import hashlib
import http.client
import socket
import socketserver
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

#: A fate: forwarded, answered with a status by the proxy, dropped, or stalled.
FORWARD = "forward"
DROP = "drop"
LOSE = "lose"
STALL = "stall"

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade"}


@dataclass(frozen=True)
class FaultPlan:
    """Shares (0 to 1) of requests per fault; what is left is forwarded."""

    statuses: dict[int, float] = field(default_factory=dict)
    drop: float = 0.0
    stall: float = 0.0
    #: Forwarded, and the answer dropped on the way back.
    lose: float = 0.0
    #: Shares of statuses for some methods only, besides ``statuses``: {"PATCH": {412: 0.02}}.
    method_statuses: dict[str, dict[int, float]] = field(default_factory=dict)
    #: Faults one request line meets at most in a row before it is forwarded.
    max_in_a_row: int = 3
    #: Methods that may meet a fault (all when None).
    methods: frozenset[str] | None = None
    #: How long a stalled connection is held before the proxy closes it.
    stall_seconds: float = 30.0
    #: ``Retry-After`` sent with a 429 or 503 the proxy answers (None: none).
    retry_after: str | None = None
    seed: int = 0

    def fate(self, method: str, target: str, seen: int, in_a_row: int) -> str | int:
        """The fault (a status, DROP, STALL) or FORWARD for the ``seen``-th sight of a request."""
        if in_a_row >= self.max_in_a_row or (
            self.methods is not None and method not in self.methods
        ):
            return FORWARD
        digest = hashlib.sha256(f"{self.seed} {method} {target} {seen}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        faults = (
            *self.statuses.items(),
            *self.method_statuses.get(method, {}).items(),
            (DROP, self.drop),
            (LOSE, self.lose),
            (STALL, self.stall),
        )
        for fault, share in faults:
            if draw < share:
                return fault
            draw -= share
        return FORWARD


class Hit(NamedTuple):
    """One request the proxy read, and what it did with it."""

    method: str
    target: str
    fate: str | int


class FaultProxy:
    """``with FaultProxy(port, plan) as proxy: proxy.url``: faults in front of a service."""

    def __init__(self, upstream_port: int, plan: FaultPlan) -> None:
        """``upstream_port`` may be set later, before the first request (the proxy listens now)."""
        self.upstream_port = upstream_port
        self.plan = plan
        self.journal: list[Hit] = []
        self._seen: Counter[tuple[str, str]] = Counter()
        self._in_a_row: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.proxy = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.01,), daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def faults(self) -> int:
        """How many requests met a fault so far."""
        with self._lock:
            return sum(1 for hit in self.journal if hit.fate != FORWARD)

    def count(self, fate: str | int | None = None, method: str | None = None) -> int:
        """Requests read so far, of one fate and one method when given."""
        with self._lock:
            return sum(
                1
                for hit in self.journal
                if (fate is None or hit.fate == fate) and (method is None or hit.method == method)
            )

    def decide(self, method: str, target: str) -> str | int:
        """The fate of a request just read, recorded in the journal."""
        key = (method, target)
        with self._lock:
            seen = self._seen[key]
            self._seen[key] += 1
            fate = self.plan.fate(method, target, seen, self._in_a_row[key])
            self._in_a_row[key] = 0 if fate == FORWARD else self._in_a_row[key] + 1
            self.journal.append(Hit(method, target, fate))
        return fate

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    proxy: FaultProxy


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        proxy = self.server.proxy
        upstream = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=60)
        try:
            while not proxy._closing.is_set():
                request = self._read_request()
                if request is None:
                    return
                method, target, headers, body = request
                fate = proxy.decide(method, target)
                if fate == DROP:
                    return
                if fate == STALL:
                    proxy._closing.wait(proxy.plan.stall_seconds)
                    return
                if isinstance(fate, int):
                    self._answer_status(fate)
                elif fate == LOSE:
                    self._forward(upstream, method, target, headers, body, answer=False)
                    return
                else:
                    self._forward(upstream, method, target, headers, body)
        except (OSError, http.client.HTTPException):
            return
        finally:
            upstream.close()

    def _read_request(self) -> tuple[str, str, list[tuple[str, str]], bytes] | None:
        line = self.rfile.readline(65537)
        if not line:
            return None
        method, target, _version = line.decode("latin-1").split(" ", 2)
        headers: list[tuple[str, str]] = []
        while True:
            raw = self.rfile.readline(65537)
            if raw in (b"\r\n", b"\n", b""):
                break
            name, _, value = raw.decode("latin-1").partition(":")
            headers.append((name.strip(), value.strip()))
        length = next((int(v) for k, v in headers if k.lower() == "content-length"), 0)
        body = self.rfile.read(length) if length else b""
        return method, target, headers, body

    def _answer_status(self, status: int) -> None:
        body = f"fault proxy: {status}\n".encode()
        lines = [
            f"HTTP/1.1 {status} {http.client.responses.get(status, 'Fault')}",
            "Content-Type: text/plain",
            f"Content-Length: {len(body)}",
        ]
        retry_after = self.server.proxy.plan.retry_after
        if retry_after is not None and status in (429, 503):
            lines.append(f"Retry-After: {retry_after}")
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self.wfile.flush()

    def _forward(
        self,
        upstream: http.client.HTTPConnection,
        method: str,
        target: str,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        answer: bool = True,
    ) -> None:
        """Pass the request on and, when ``answer``, its answer back."""
        upstream.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in headers:
            if name.lower() not in _HOP_BY_HOP:
                upstream.putheader(name, value)
        upstream.endheaders(body or None)
        got = upstream.getresponse()
        content = got.read()
        if not answer:
            return
        lines = [f"HTTP/1.1 {got.status} {got.reason}"]
        kept = _HOP_BY_HOP if method == "HEAD" else _HOP_BY_HOP | {"content-length"}
        lines += [f"{k}: {v}" for k, v in got.getheaders() if k.lower() not in kept]
        if method != "HEAD":
            lines.append(f"Content-Length: {len(content)}")
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + content)
        self.wfile.flush()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
