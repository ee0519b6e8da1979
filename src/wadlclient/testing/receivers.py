"""`serving`: a test's webhook receiver (an ASGI or WSGI app) on loopback HTTP, for a while.

    with serving(app) as url:            # uvicorn for ASGI, wsgiref for WSGI
        hooks.register(repository, url + "/launchpad", ["git:push:0.1"], secret=...)

The app runs in a thread of the test's process on a free port of
127.0.0.1, and stops when the block ends: the fake's deliveries reach it
over real HTTP, as Launchpad's reach a deployed receiver.
"""

from __future__ import annotations

import inspect
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

__all__ = ["serving"]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _is_asgi(app: Callable[..., Any]) -> bool:
    """An ASGI app is a coroutine function of three arguments (or an object whose call is)."""
    call = app if inspect.isfunction(app) or inspect.ismethod(app) else app.__call__  # type: ignore[operator]
    return inspect.iscoroutinefunction(call)


@contextmanager
def serving(
    app: Callable[..., Any], *, kind: Literal["asgi", "wsgi"] | None = None
) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 until the block ends; yields its root URL (no slash).

    ``kind`` is guessed (an ASGI app is a coroutine function); say it when
    the guess fails (an app object whose ``__call__`` wraps one).
    """
    chosen = kind or ("asgi" if _is_asgi(app) else "wsgi")
    if chosen == "asgi":
        with _uvicorn(app) as url:
            yield url
    else:
        with _wsgiref(app) as url:
            yield url


@contextmanager
def _uvicorn(app: Callable[..., Any]) -> Iterator[str]:
    try:
        import uvicorn
    except ImportError:
        raise ModuleNotFoundError(
            "serving an ASGI receiver needs uvicorn: pip install 'wadlclient[server]'"
        ) from None
    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"webhook-receiver-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    if not server.started:
        server.should_exit = True
        thread.join(5)
        raise RuntimeError(f"uvicorn did not start the receiver on 127.0.0.1:{port}")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """A test's output stays its own (the fake's `deliveries` record each answer)."""


@contextmanager
def _wsgiref(app: Callable[..., Any]) -> Iterator[str]:
    server: WSGIServer = make_server("127.0.0.1", 0, app, handler_class=_QuietHandler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
