"""Helpers for the client tests: a tiny ASGI app served by uvicorn on loopback.

The cookbook service fixtures (``cookbook_service``, ``cookbook_service_factory``)
come from the ``cookbook_service.testing`` plugin; this file only adds a way
to serve small purpose-built Starlette apps (the Launchpad WADL, say).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn

from cookbook_service.testing import JournalEntry, RunningService
from wadlclient import ServiceRoot, schema
from wadlclient.wadl import Application


@contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """Run ``app`` in uvicorn on 127.0.0.1 (a free port); yield its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


# --------------------------------------------------------------------------
# The cookbook service, seen through a client root.


@pytest.fixture(params=["1.0", "devel"])
def version(request: pytest.FixtureRequest) -> str:
    """Every scenario runs against both versions of the service."""
    return str(request.param)


@pytest.fixture
def service(cookbook_service: RunningService) -> RunningService:
    return cookbook_service


def settle(service: RunningService) -> None:
    """Wait until the journal stops growing.

    The service records a request just after sending its answer, so the
    client can hold the answer a moment before the journal shows it.
    """
    deadline = time.monotonic() + 1.0
    count, stable = len(service.journal), 0
    while stable < 3 and time.monotonic() < deadline:
        time.sleep(0.002)
        now = len(service.journal)
        stable = stable + 1 if now == count else 0
        count = now


def clear_journal(service: RunningService) -> None:
    """Forget the requests of the setup steps (after they have all been recorded)."""
    settle(service)
    service.journal.clear()


@pytest.fixture
def root(service: RunningService, version: str) -> Iterator[ServiceRoot]:
    """A fresh client root (own temporary cache); the journal cleared after its creation."""
    with ServiceRoot(None, service.base_url, version=version) as client:
        clear_journal(service)
        yield client


def wire(service: RunningService) -> list[tuple[str, str, int]]:
    """The requests the service answered: (method, path, status)."""
    settle(service)
    return [(e.method, e.path, e.status) for e in service.journal.entries()]


def wire_with_query(service: RunningService) -> list[tuple[str, str, str, int]]:
    """The requests the service answered: (method, path, query, status)."""
    settle(service)
    return [(e.method, e.path, e.query, e.status) for e in service.journal.entries()]


def journal_entries(service: RunningService) -> list[JournalEntry]:
    """Every journal entry, once the journal has settled."""
    settle(service)
    return service.journal.entries()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The URL of every WADL parse, from an empty in-process memo of models."""
    calls: list[str | None] = []
    real = schema.parse_wadl

    def counting(data: bytes | str, url: str | None = None, **options: Any) -> Application:
        calls.append(url)
        return real(data, url, **options)

    monkeypatch.setattr(schema, "parse_wadl", counting)
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())
    return calls
