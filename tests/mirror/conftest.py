"""A cookbook service with a few hundred generated recipes, and the journal read once settled."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from cookbook_service.journal import JournalEntry
from cookbook_service.testing import RunningService

#: Generated recipes (all match ``search=Generated``): three pages of 150, the last short.
RECIPES = 400

#: What every test mirrors: the generated recipes, through ``find_recipes``.
SOURCE: dict[str, Any] = {
    "op": "find_recipes",
    "args": {"search": "Generated"},
    "since_arg": "modified_since",
    "since_field": "date_last_modified",
}


@pytest.fixture
def service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    return cookbook_service_factory(seed_recipes=RECIPES)


def requests(service: RunningService) -> list[JournalEntry]:
    """The journal once it stops growing (the service records just after it answers)."""
    deadline = time.monotonic() + 1.0
    count, stable = len(service.journal), 0
    while stable < 3 and time.monotonic() < deadline:
        time.sleep(0.002)
        now = len(service.journal)
        stable, count = (stable + 1 if now == count else 0), now
    return service.journal.entries()
