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

import uvicorn


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
