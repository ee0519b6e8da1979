"""Run the cookbook example service in a background thread: what the tour and the tests start.

``run_service()`` starts uvicorn on a free 127.0.0.1 port and returns once
the server accepts connections (`cookbook_service.testing` has the pytest
fixtures over it). It needs the ``[server]`` extra only when called, and
not pytest at all: ``make demo`` installs the client and ``[server]`` alone.
"""

from __future__ import annotations

import contextlib
import functools
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from cookbook_service.journal import Journal

if TYPE_CHECKING:
    import uvicorn

    from cookbook_service.app import CookbookASGI
    from cookbook_service.store import Store

__all__ = ["SERVER_EXTRA_HINT", "RunningService", "ServerExtraMissing", "run_service"]


class ServerExtraMissing(ModuleNotFoundError):
    """The service's own dependencies (uvicorn, Starlette) are not installed."""


#: What to do about it, in one line.
SERVER_EXTRA_HINT = (
    "the cookbook example service needs the [server] extra: pip install 'wadlclient[server]'"
)


class RunningService:
    """A started service: where it listens, what it saw, and its data."""

    def __init__(
        self,
        base_url: str,
        journal: Journal,
        store: Store,
        options: dict[str, Any],
        handler: CookbookASGI,
    ) -> None:
        self.base_url = base_url
        self.journal = journal
        self.store = store
        self.options = options
        self._handler = handler

    @property
    def port(self) -> int:
        return int(self.base_url.rstrip("/").rsplit(":", 1)[1])

    def url(self, path: str = "", version: str = "1.0") -> str:
        """An absolute URL under a version, e.g. ``url("recipes")``."""
        return f"{self.base_url}{version}/{path}"

    def reset(self) -> None:
        """Reseed the data and clear the journal (credentials are kept)."""
        self.store.reset()
        self.journal.clear()

    @contextmanager
    def delayed(self, latency_ms: int) -> Iterator[None]:
        """Every answer sent inside the block waits ``latency_ms`` first (not the option's).

        Requests sent together are then seen in flight together in the
        journal; the set-up before the block (WADL, root, pages) is not slowed.
        """
        if latency_ms < 0:
            raise ValueError("latency_ms may not be negative")
        self._handler.latency_ms = latency_ms
        try:
            yield
        finally:
            self._handler.latency_ms = self.options["latency_ms"]

    def add_user(self, name: str, password: str) -> None:
        self.store.add_user(name, password)

    def add_consumer(self, key: str, secret: str = "") -> None:
        self.store.add_consumer(key, secret)

    def add_token(self, consumer_key: str, key: str, secret: str, access: str = "write") -> None:
        self.store.add_token(consumer_key, key, secret, access)

    def __repr__(self) -> str:
        return f"<RunningService {self.base_url} {self.options}>"


@functools.cache
def quiet_server_class() -> type[uvicorn.Server]:
    """uvicorn's server, looking for its exit once a second, and woken at once by ``stop()``.

    uvicorn's own looks ten times a second, to notice ``should_exit``
    soon: about 2 ms of CPU a second for each idle server, and a test
    session keeps a pool of them (`cookbook_service.testing`) to its end.
    Once a second is the pace of its ``Date`` header, which it refreshes
    at those looks. (A class made on first use: uvicorn is the
    ``[server]`` extra's, imported only when a service is started.)
    """
    import asyncio

    import uvicorn

    class QuietServer(uvicorn.Server):
        #: Seconds between two looks for ``should_exit`` (each refreshes the Date header).
        look_every = 1.0
        _exit: asyncio.Event | None = None
        _loop: asyncio.AbstractEventLoop | None = None

        async def main_loop(self) -> None:
            self._exit, self._loop = asyncio.Event(), asyncio.get_running_loop()
            ticks = 0
            while not await self.on_tick(ticks):
                ticks = (ticks + 10) % 864_000  # each a multiple of 10: the Date header refreshed
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._exit.wait(), self.look_every)

        def stop(self) -> None:
            """Ask the server to exit, from any thread, and wake it to do so now."""
            self.should_exit = True
            loop, exit_now = self._loop, self._exit
            if loop is not None and exit_now is not None:
                with contextlib.suppress(RuntimeError):  # its loop has closed: it has exited
                    loop.call_soon_threadsafe(exit_now.set)

    return QuietServer


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def run_service(
    *,
    auth: str = "none",
    page_size: int = 5,
    seed_recipes: int = 0,
    latency_ms: int = 0,
    db: str | None = None,
) -> Iterator[RunningService]:
    """Serve the example service on 127.0.0.1 in a background thread."""
    # Imported here so that the plugin loads where the [server] extra is absent.
    try:
        import uvicorn

        from cookbook_service.app import ServiceConfig, create_app, handler_of
        from cookbook_service.store import Store
    except ImportError as error:
        raise ServerExtraMissing(f"{SERVER_EXTRA_HINT} ({error})") from None

    config = ServiceConfig(auth=auth, page_size=page_size, latency_ms=latency_ms)
    store = Store(db, seed_recipes=seed_recipes)
    journal = Journal()
    app = create_app(store, config, journal)
    last_error: Exception | None = None
    for _attempt in range(5):
        port = _free_port()
        server = quiet_server_class()(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=port,
                log_level="warning",
                access_log=False,
                lifespan="off",
            )
        )
        thread = threading.Thread(target=server.run, name=f"cookbook-service-{port}", daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        if server.started:
            break
        server.stop()  # type: ignore[attr-defined]
        thread.join(5)
        last_error = RuntimeError(f"uvicorn did not start on port {port}")
    else:
        store.close()
        raise RuntimeError("could not start the cookbook service") from last_error
    options = {
        "auth": auth,
        "page_size": page_size,
        "seed_recipes": seed_recipes,
        "latency_ms": latency_ms,
        "db": db,
    }
    try:
        yield RunningService(f"http://127.0.0.1:{port}/", journal, store, options, handler_of(app))
    finally:
        server.stop()  # type: ignore[attr-defined]
        thread.join(10)
        store.close()
