"""Fixtures of the bulk-change tests: the example service, with recipes a search finds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cookbook_service.testing import RunningService

#: The search of the issue: it finds the generated recipes, and only them.
SEARCH = "Generated"


def generated(service: RunningService) -> list[int]:
    """The ids of the recipes the search finds now, from the service's own database."""
    rows, _total = service.store.recipes(0, 10_000, sees_private=True, search=SEARCH)
    return [int(row["id"]) for row in rows]


def instructions(service: RunningService, recipe_id: int) -> str:
    row = service.store.recipe(recipe_id, sees_private=True)
    assert row is not None
    return str(row["instructions"])


@pytest.fixture
def recipes(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """40 recipes the search finds, in pages of 5."""
    return cookbook_service_factory(seed_recipes=40)


@pytest.fixture
def slow_recipes(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """20 recipes the search finds, each answer 30 ms late: requests in flight overlap."""
    return cookbook_service_factory(seed_recipes=20, latency_ms=30)
