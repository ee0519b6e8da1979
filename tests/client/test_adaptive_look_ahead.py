"""The adaptive look-ahead, on by default, seen on the wire (the service's journal).

An unchanged N+1 loop sends its pages and each distinct link about once,
many at a time; a sparse loop sends no more than it would with the
look-ahead off (``look_ahead=0``, one request per link read, as before);
entries fetched ahead are let go with the walk. The service answers each
request a test measures after 50 ms (not its set-up: the WADL, the root,
the links read with urllib), so requests sent together are seen in
flight together. Links of links, the in-flight limit and failures:
test_look_ahead_launchpad_shaped.py.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit
from urllib.request import Request, urlopen

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Entry, ServiceRoot
from wadlclient.objects.links import LOOK_AHEAD_VARIABLE

LATENCY_MS = 50
RECIPES = 100


@pytest.fixture
def far(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """100 recipes (6 dishes, 3 cookbooks), pages of 75; ``far.delayed(LATENCY_MS)``: 50 ms away."""
    return cookbook_service_factory(seed_recipes=RECIPES, page_size=75)


def _links(service: RunningService, name: str, count: int) -> list[str]:
    """Link ``name`` of the first ``count`` recipes as the server has them (read with urllib)."""
    url = service.url(f"recipes?ws.size={count}")
    with urlopen(Request(url, headers={"Accept": "application/json"}), timeout=10) as answer:
        return [entry[f"{name}_link"] for entry in json.load(answer)["entries"]]


def _wire(
    service: RunningService, loop: Callable[[ServiceRoot], Any], latency_ms: int, **options: Any
) -> int:
    """Requests the service answered, ``latency_ms`` away, while ``loop`` ran on a new root."""
    with ServiceRoot(None, service.base_url, **options) as root:
        service.journal.clear()
        with service.delayed(latency_ms):
            loop(root)
        return len(service.journal.entries())


def _pages(service: RunningService) -> int:
    return sum(1 for e in service.journal.entries() if e.path == "/1.0/recipes")


# -- the N+1 loop, unchanged ---------------------------------------------------


def test_an_n_plus_one_slice_sends_its_page_and_each_distinct_link_about_once(
    far: RunningService,
) -> None:
    distinct = len(set(_links(far, "dish", RECIPES)))
    with ServiceRoot(None, far.base_url) as root:
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            names = [recipe.dish.name for recipe in root.recipes[:RECIPES]]

        sent = len(far.journal.entries())
        pages = _pages(far)
    assert len(names) == RECIPES and all(names)
    assert sent <= pages + distinct + 3
    assert far.journal.most_concurrent() > 1


def test_an_n_plus_one_walk_sends_its_pages_and_each_distinct_link_about_once(
    far: RunningService,
) -> None:
    distinct = len(set(_links(far, "dish", 200)))
    with ServiceRoot(None, far.base_url) as root:
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            names = [recipe.dish.name for recipe in root.recipes]

        sent = len(far.journal.entries())
        pages = _pages(far)
    assert len(names) == len(_links(far, "dish", 200))
    assert sent <= pages + distinct + 3


def test_an_n_plus_one_loop_over_a_list_a_walk_made_reads_ahead_too(far: RunningService) -> None:
    distinct = len(set(_links(far, "dish", 200)))
    with ServiceRoot(None, far.base_url) as root:
        recipes = list(root.recipes)
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            names = [recipe.dish.name for recipe in recipes]

        sent = len(far.journal.entries())
    assert len(names) == len(recipes)
    assert sent <= distinct + 3
    assert far.journal.most_concurrent() > 1


# -- off, by the argument or the environment -------------------------------------


def _one_request_per_read(service: RunningService, count: int) -> list[str]:
    """The paths a loop reading each of ``count`` recipes' dish sends without a look-ahead."""
    return ["/1.0/recipes", *(urlsplit(link).path for link in _links(service, "dish", count))]


def test_look_ahead_zero_sends_one_request_per_link_read_one_at_a_time(
    far: RunningService,
) -> None:
    with ServiceRoot(None, far.base_url, look_ahead=0) as root:
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            [recipe.dish.name for recipe in root.recipes[:20]]

    assert [e.path for e in far.journal.entries()] == _one_request_per_read(far, 20)
    assert far.journal.most_concurrent() == 1


def test_the_environment_turns_the_look_ahead_off(
    far: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LOOK_AHEAD_VARIABLE, "0")
    with ServiceRoot(None, far.base_url) as root:
        far.journal.clear()

        [recipe.dish.name for recipe in root.recipes[:40]]

    assert [e.path for e in far.journal.entries()] == _one_request_per_read(far, 40)


def test_a_look_ahead_that_is_not_a_number_or_auto_is_a_clear_error(
    far: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LOOK_AHEAD_VARIABLE, "lots")
    with pytest.raises(ValueError, match="WADLCLIENT_LOOK_AHEAD must be a whole number"):
        ServiceRoot(None, far.base_url)


# -- sparse loops waste nothing ------------------------------------------------


def _every_tenth(root: ServiceRoot) -> None:
    [r.dish.name for i, r in enumerate(root.recipes[:RECIPES]) if i % 10 == 0]


def _one_then_break(root: ServiceRoot) -> None:
    for recipe in root.recipes:
        recipe.dish.name  # noqa: B018
        break


def _two_links_on_alternate_entries(root: ServiceRoot) -> None:
    for i, recipe in enumerate(root.recipes[:RECIPES]):
        if i % 2 == 0:
            recipe.dish.name  # noqa: B018
            recipe.cookbook.name  # noqa: B018


def _one_link_on_even_entries_another_on_odd(root: ServiceRoot) -> None:
    for i, recipe in enumerate(root.recipes):
        (recipe.dish if i % 2 == 0 else recipe.cookbook).name  # noqa: B018


def _no_link(root: ServiceRoot) -> None:
    [recipe.id for recipe in root.recipes]


def _links_not_followed(root: ServiceRoot) -> None:
    """Each recipe's dish, never read: the loop compares them, it fetches none."""
    [recipe.dish for recipe in root.recipes]


@pytest.mark.parametrize(
    "loop",
    [
        _every_tenth,
        _one_then_break,
        _two_links_on_alternate_entries,
        _one_link_on_even_entries_another_on_odd,
        _no_link,
        _links_not_followed,
    ],
)
def test_a_sparse_loop_sends_no_more_than_a_tenth_over_its_own_reads(
    far: RunningService, loop: Callable[[ServiceRoot], None]
) -> None:
    # Off, one request per read, one at a time, whatever the distance.
    plain = _wire(far, loop, latency_ms=0, look_ahead=0)

    adaptive = _wire(far, loop, latency_ms=LATENCY_MS)

    assert adaptive <= 1.1 * plain


# -- memory ------------------------------------------------------------------


def test_entries_fetched_ahead_are_let_go_with_the_walk(far: RunningService) -> None:
    def alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Entry))

    with ServiceRoot(None, far.base_url) as root:
        before = alive()
        with far.delayed(LATENCY_MS):
            for recipe in root.recipes:
                recipe.dish.name  # noqa: B018
                recipe.cookbook.name  # noqa: B018
        del recipe

        assert alive() == before
