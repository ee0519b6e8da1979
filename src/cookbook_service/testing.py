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

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from cookbook_service.journal import Journal, JournalEntry
from cookbook_service.running import (
    SERVER_EXTRA_HINT,
    RunningService,
    ServerExtraMissing,
    run_service,
)
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
