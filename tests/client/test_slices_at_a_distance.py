"""A slice over several pages asks for them together, each for no more than it still needs.

The example service serves pages of 5 and answers each request a test
measures after 300 ms (not its set-up: the WADL, the root, the pages
read first), so pages asked for one after another are plain to see in
its journal.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, Entry, ServiceRoot
from wadlclient.objects.pages import SLICE_DEPTH

LATENCY_MS = 300


@pytest.fixture
def far(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """40 recipes in pages of 5; ``far.delayed(LATENCY_MS)`` puts them 300 ms away."""
    return cookbook_service_factory(seed_recipes=40)


def _pages(service: RunningService) -> list[str]:
    """The pages asked for, by offset (requests in flight together arrive in any order)."""
    queries = [e.query for e in service.journal.entries() if e.path == "/1.0/recipes"]
    return sorted(queries, key=lambda query: int(query.split("ws.start=")[1].split("&")[0]))


def _held(root: ServiceRoot) -> tuple[Collection[Entry], list[int]]:
    """The recipes, their first page held (``len()`` fetched it), and every id in order."""
    recipes = root.recipes
    len(recipes)
    return recipes, [recipe.id for recipe in recipes]


def test_the_pages_after_the_held_first_page_are_asked_for_together(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes, ids = _held(root)
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            found = recipes[3:32]

        assert [recipe.id for recipe in found] == ids[3:32]
        assert _pages(far) == [
            f"ws.start={start}&ws.size={size}"
            for start, size in ((5, 5), (10, 5), (15, 5), (20, 5), (25, 5), (30, 2))
        ]
        assert far.journal.most_concurrent() == 6


def test_at_most_slice_depth_pages_are_in_flight(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes, ids = _held(root)
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            found = recipes[0:len(ids)]

        assert [recipe.id for recipe in found] == ids
        assert len(_pages(far)) == -(-(len(ids) - 5) // 5)
        assert far.journal.most_concurrent() == SLICE_DEPTH


def test_no_page_past_the_slice_is_asked_for(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes, ids = _held(root)
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            found = recipes[0:10]

        assert [recipe.id for recipe in found] == ids[:10]
        assert _pages(far) == ["ws.start=5&ws.size=5"]


def test_the_last_page_asks_only_for_what_the_slice_still_needs(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes, ids = _held(root)
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            found = recipes[3:7]

        assert [recipe.id for recipe in found] == ids[3:7]
        assert _pages(far) == ["ws.start=5&ws.size=2"]
