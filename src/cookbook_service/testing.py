"""Run the cookbook example service in tests (also a pytest plugin).

``run_service()`` starts uvicorn on a free 127.0.0.1 port in a background
thread and returns once the server accepts connections::

    with run_service(auth="basic") as service:
        service.add_user("alice", "s3cret")
        httpx.get(service.base_url + "1.0/recipes", auth=("alice", "s3cret"))
        assert service.journal.entries()[-1].status == 200

A test that measures a few requests at a distance makes only those wait,
not the WADL, root and pages it needs first::

    with ServiceRoot(None, service.base_url) as root:
        recipes = root.recipes[:40]
        with service.delayed(300):
            recipes.prefetch("dish")

The pytest fixtures ``cookbook_service`` (auth none, reset for each test)
and ``cookbook_service_factory`` (``factory(**options)``; one server per
option set for the whole session, reset on each call) are registered through
the ``pytest11`` entry point. The seed-data facts tests need are re-exported
from :mod:`cookbook_service.seed`.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from cookbook_service.journal import Journal, JournalEntry
from cookbook_service.seed import (
    COOKBOOK_NAMES,
    COOKBOOK_WITHOUT_COVER,
    DISHES,
    FEATURED_COOKBOOK,
    PRIVATE_RECIPE_COOKBOOK,
    PRIVATE_RECIPE_ID,
    PUBLIC_RECIPE_COUNT,
    PUBLIC_RECIPE_IDS,
    TOTAL_RECIPE_COUNT,
)

if TYPE_CHECKING:
    from cookbook_service.app import CookbookASGI
    from cookbook_service.store import Store

__all__ = [
    "COOKBOOK_NAMES",
    "COOKBOOK_WITHOUT_COVER",
    "DISHES",
    "FEATURED_COOKBOOK",
    "PRIVATE_RECIPE_COOKBOOK",
    "PRIVATE_RECIPE_ID",
    "PUBLIC_RECIPE_COUNT",
    "PUBLIC_RECIPE_IDS",
    "TOTAL_RECIPE_COUNT",
    "Journal",
    "JournalEntry",
    "RunningService",
    "ServerExtraMissing",
    "cookbook_service",
    "cookbook_service_factory",
    "run_service",
]


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
        server = uvicorn.Server(
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
        server.should_exit = True
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
        server.should_exit = True
        thread.join(10)
        store.close()


_DEFAULTS: dict[str, Any] = {
    "auth": "none",
    "page_size": 5,
    "seed_recipes": 0,
    "latency_ms": 0,
    "db": None,
}


def _require_server_extra() -> None:
    """Fail the test with a one-line hint (no traceback) when uvicorn or Starlette is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        missing = f"{SERVER_EXTRA_HINT} ({error})"
    else:
        return
    pytest.fail(missing, pytrace=False)


class _ServicePool:
    """Session-wide servers, one per option set."""

    def __init__(self) -> None:
        self._services: dict[tuple[tuple[str, Any], ...], RunningService] = {}
        self._exits: list[Callable[[], object]] = []

    def get(self, **options: Any) -> RunningService:
        unknown = set(options) - set(_DEFAULTS)
        if unknown:
            raise TypeError(f"unknown service options: {', '.join(sorted(unknown))}")
        key = tuple(sorted({**_DEFAULTS, **options}.items()))
        service = self._services.get(key)
        if service is None:
            _require_server_extra()
            manager = run_service(**options)
            service = manager.__enter__()
            self._exits.append(partial(manager.__exit__, None, None, None))
            self._services[key] = service
        service.reset()
        return service

    def close(self) -> None:
        for close in reversed(self._exits):
            close()


@pytest.fixture(scope="session")
def _cookbook_service_pool() -> Iterator[_ServicePool]:
    pool = _ServicePool()
    yield pool
    pool.close()


@pytest.fixture
def cookbook_service_factory(
    _cookbook_service_pool: _ServicePool,
) -> Callable[..., RunningService]:
    """``factory(auth=..., page_size=..., seed_recipes=..., latency_ms=...)``."""
    return _cookbook_service_pool.get


@pytest.fixture
def cookbook_service(_cookbook_service_pool: _ServicePool) -> RunningService:
    """A reset example service (auth none, page size 5) on loopback."""
    return _cookbook_service_pool.get()
