"""Real loopback servers for the transport tests.

``scripted`` is a small Starlette app served by uvicorn on three loopback
sockets at once (127.0.0.1, 127.0.0.2, and 127.0.0.1 on another port: three
origins, one journal). Its
paths produce the answers the cookbook service never gives: 503 N times,
redirect chains, malformed JSON, a bare 304. ``raw_server`` is a plain socket
server for faults below HTTP (a dropped connection, no answer at all).
"""

from __future__ import annotations

import asyncio
import gzip
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cookbook_service.running import quiet_server_class
from wadlclient.http import Transport

ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


@dataclass(frozen=True)
class Seen:
    """One request as the scripted server received it."""

    method: str
    host: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes
    client_port: int
    header_list: tuple[tuple[str, str], ...] = ()  # as received: repeats and order kept


@dataclass
class ScriptedServer:
    """Handle on the running scripted app: its two origins and its journal."""

    url: str  # http://127.0.0.1:<port>
    other_url: str  # http://127.0.0.2:<port2>, a second origin
    other_port_url: str  # http://127.0.0.1:<port3>, a third origin (same host)
    seen: list[Seen] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def clear(self) -> None:
        with self.lock:
            self.seen.clear()
            self.counters.clear()

    def requests(self) -> list[Seen]:
        with self.lock:
            return list(self.seen)


def _build_app(state: ScriptedServer) -> Starlette:
    async def record(request: Request) -> Seen:
        body = await request.body()
        seen = Seen(
            method=request.method,
            host=request.url.hostname or "",
            path=request.url.path,
            query=request.url.query,
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
            client_port=request.client.port if request.client else 0,
            header_list=tuple((k.lower(), v) for k, v in request.headers.items()),
        )
        with state.lock:
            state.seen.append(seen)
        return seen

    async def echo(request: Request) -> Response:
        seen = await record(request)
        return JSONResponse(
            {"method": seen.method, "body": seen.body.decode("latin-1"), "host": seen.host}
        )

    async def status(request: Request) -> Response:
        await record(request)
        code = int(request.path_params["code"])
        return Response(b'{"problem": "scripted"}', status_code=code, media_type="application/json")

    async def flaky(request: Request) -> Response:
        await record(request)
        key = request.path_params["key"]
        fail = int(request.query_params.get("fail", "1"))
        code = int(request.query_params.get("code", "503"))
        with state.lock:
            count = state.counters.get(key, 0)
            state.counters[key] = count + 1
        if count < fail:
            headers = {}
            if "retry_after" in request.query_params:
                headers["Retry-After"] = request.query_params["retry_after"]
            return Response(b"busy", status_code=code, headers=headers)
        return JSONResponse({"tries": count + 1})

    async def redirect(request: Request) -> Response:
        await record(request)
        code = int(request.path_params["code"])
        return Response(status_code=code, headers={"Location": request.query_params["to"]})

    async def chain(request: Request) -> Response:
        await record(request)
        hops = int(request.path_params["hops"])
        target = f"/chain/{hops - 1}" if hops > 1 else "/echo"
        return Response(status_code=302, headers={"Location": target})

    async def bad_json(request: Request) -> Response:
        await record(request)
        return Response(b'{"name": "soup",,}', media_type="application/json")

    async def etag(request: Request) -> Response:
        seen = await record(request)
        tag = '"' + request.query_params.get("tag", "v1") + '"'
        headers = {
            "ETag": tag,
            "Cache-Control": f"max-age={request.query_params.get('max_age', '0')}",
        }
        if seen.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        body = {"tag": tag, "path": seen.path}
        return JSONResponse(body, headers=headers)

    async def versioned(request: Request) -> Response:
        # The representation's version is ``counters[name]`` (1 unless a test bumps it).
        seen = await record(request)
        name = request.path_params["name"]
        with state.lock:
            version = state.counters.get(name, 1)
        tag = f'"v{version}"'
        headers = {"ETag": tag, "Cache-Control": "max-age=0"}
        if seen.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return JSONResponse({"version": version}, headers=headers)

    async def always_304(request: Request) -> Response:
        await record(request)
        return Response(status_code=304)

    async def entry(request: Request) -> Response:
        seen = await record(request)
        if seen.method == "PATCH":
            return JSONResponse({"name": "patched"}, status_code=209, headers={"ETag": '"v2"'})
        if seen.method == "DELETE":
            return Response(status_code=200)
        return JSONResponse({"name": "original"}, headers={"ETag": '"v1"'})

    async def cookie(request: Request) -> Response:
        await record(request)
        return JSONResponse({}, headers={"Set-Cookie": "session=abc; Path=/"})

    async def gzipped(request: Request) -> Response:
        await record(request)
        body = gzip.compress(b'{"compressed": true}')
        return Response(body, media_type="application/json", headers={"Content-Encoding": "gzip"})

    async def slow(request: Request) -> Response:
        await record(request)
        await asyncio.sleep(float(request.query_params.get("seconds", "1")))
        return JSONResponse({"slow": True})

    routes = [
        Route("/echo", echo, methods=ALL_METHODS),
        Route("/status/{code:int}", status, methods=ALL_METHODS),
        Route("/flaky/{key}", flaky, methods=ALL_METHODS),
        Route("/redirect/{code:int}", redirect, methods=ALL_METHODS),
        Route("/chain/{hops:int}", chain, methods=ALL_METHODS),
        Route("/bad-json", bad_json),
        Route("/etag/{name}", etag),
        Route("/versioned/{name}", versioned),
        Route("/always-304", always_304),
        Route("/entry", entry, methods=ALL_METHODS),
        Route("/slow", slow),
        Route("/gzip", gzipped),
        Route("/cookie", cookie),
    ]
    return Starlette(routes=routes)


def _listening_socket(host: str) -> socket.socket:
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted sockets only when
    # the listener's proto says TCP; with proto 0, Nagle + delayed ACK add 40 ms a request.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(64)
    return sock


@pytest.fixture(scope="session")
def _scripted_session() -> Iterator[ScriptedServer]:
    first, second = _listening_socket("127.0.0.1"), _listening_socket("127.0.0.2")
    third = _listening_socket("127.0.0.1")
    state = ScriptedServer(
        url=f"http://127.0.0.1:{first.getsockname()[1]}",
        other_url=f"http://127.0.0.2:{second.getsockname()[1]}",
        other_port_url=f"http://127.0.0.1:{third.getsockname()[1]}",
    )
    config = uvicorn.Config(_build_app(state), log_level="warning", lifespan="off")
    server = quiet_server_class()(config)  # idles without polling
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [first, second, third]}, daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the scripted server did not start")
        time.sleep(0.01)
    yield state
    server.stop()  # type: ignore[attr-defined]
    thread.join(timeout=5)


@pytest.fixture
def scripted(_scripted_session: ScriptedServer) -> ScriptedServer:
    """The scripted server, with an empty journal."""
    _scripted_session.clear()
    return _scripted_session


@dataclass
class RawServer:
    """A socket server that reads a request head, then does what it is told."""

    url: str
    connections: int = 0


@pytest.fixture
def raw_server() -> Iterator[Callable[[str], RawServer]]:
    """Factory: ``raw_server("drop")`` closes after the request, ``"hang"`` never answers."""
    sockets: list[socket.socket] = []
    stop = threading.Event()
    held: list[socket.socket] = []

    def start(behaviour: str) -> RawServer:
        listener = _listening_socket("127.0.0.1")
        listener.settimeout(0.1)
        sockets.append(listener)
        handle = RawServer(url=f"http://127.0.0.1:{listener.getsockname()[1]}/")

        def serve() -> None:
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                handle.connections += 1
                conn.settimeout(5)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if behaviour == "drop":
                    conn.close()
                else:
                    held.append(conn)

        threading.Thread(target=serve, daemon=True).start()
        return handle

    yield start
    stop.set()
    for sock in sockets + held:
        sock.close()


class RecordingAuthorizer:
    """A tiny authorizer implementing the auth.py contract, recording its calls.

    ``stale`` records whether an Authorization header was already present
    when it was called (the transport must remove it first).
    """

    SECRET = "Token sekrit-value-1234"

    def __init__(self, params: dict[str, str] | None = None) -> None:
        self.params = params or {}
        self.calls: list[tuple[str, str, bytes | str | None]] = []
        self.stale: list[bool] = []
        self._lock = threading.Lock()

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: bytes | str | None, headers: Any
    ) -> None:
        with self._lock:
            self.calls.append((absolute_uri, method, body))
            self.stale.append("authorization" in headers)
        headers["Authorization"] = self.SECRET

    @property
    def user_agent_params(self) -> dict[str, str]:
        return self.params

    @property
    def principal(self) -> str:
        """Whose answers the cache keeps for it (one principal for every instance)."""
        return "recording-authorizer"

    def authorizeSession(self, client: object) -> None:
        """Nothing to do (lazr compatibility)."""


@dataclass
class Sleeps:
    """An injectable ``sleep`` that records instead of sleeping."""

    delays: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def pool_kind() -> str:
    """The pool under `make_transport`: the default one, unless a test parametrises this."""
    return "stdlib"


@pytest.fixture
def make_transport(sleeps: Sleeps, pool_kind: str) -> Iterator[Callable[..., Transport]]:
    """Factory for transports that never really sleep; all closed afterwards."""
    made: list[Transport] = []

    def make(**options: Any) -> Transport:
        options.setdefault("pool", pool_kind)
        options.setdefault("authorizer", None)
        options.setdefault("cache", None)
        options.setdefault("timeout", None)
        options.setdefault("max_retries", 6)
        options.setdefault("base_client_name", "")
        options.setdefault("sleep", sleeps)
        options.setdefault("jitter", lambda backoff: backoff)  # the backoff itself: exact sleeps
        transport = Transport(**options)
        made.append(transport)
        return transport

    yield make
    for transport in made:
        transport.close()


@pytest.fixture
def recording_authorizer() -> RecordingAuthorizer:
    return RecordingAuthorizer()


@pytest.fixture
def authorizer_with_params() -> Callable[[dict[str, str]], RecordingAuthorizer]:
    """Factory: a recording authorizer whose ``user_agent_params`` are given."""
    return RecordingAuthorizer


@pytest.fixture
def self_signed_tls_port(tmp_path: Path) -> Iterator[int]:
    """A TLS listener on loopback with a self-signed certificate; serves one handshake.

    The key is an elliptic-curve one: made in a millisecond, where an RSA key
    took a few hundred of CPU; which kind does not matter to an untrusted certificate.
    """
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)
    port = listener.getsockname()[1]

    def serve_one_handshake() -> None:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        try:
            with context.wrap_socket(connection, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass  # the client is expected to abort the handshake

    thread = threading.Thread(target=serve_one_handshake, daemon=True)
    thread.start()
    yield port
    listener.close()
    thread.join(timeout=5)
