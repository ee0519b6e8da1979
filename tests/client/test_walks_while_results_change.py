"""A walk hands out every entry still in the results exactly once while the results move (issue 31).

The loop's own edits take entries out of a search (the offsets of the
later pages shift back), others add or remove entries (they shift), and
a collection nobody changes is walked with exactly the requests it always
was. Every change here is real: a PATCH of the loop, or a write to the
service's database by "someone else" (``service.store``), seen on the wire
through the service's journal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot
from wadlclient.lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot
from wadlclient.objects import session_of

from .conftest import clear_journal, journal_entries

#: The issue's search: every generated recipe, and only those.
SEARCH = "Generated"
#: A size that keeps each walk to a few pages of a small service.
PAGE = 5


def generated(service: RunningService) -> list[int]:
    """The ids of the recipes the search finds now, from the service's own database."""
    rows, _total = service.store.recipes(0, 10_000, sees_private=True, search=SEARCH)
    return [int(row["id"]) for row in rows]


def page_requests(service: RunningService) -> list[dict[str, str]]:
    """The query of each GET of a page of the search, in order."""
    return [
        dict(parse_qsl(entry.query))
        for entry in journal_entries(service)
        if entry.method == "GET" and "ws.op=find_recipes" in entry.query
    ]


@pytest.fixture
def many(cookbook_service_factory: Callable[..., RunningService]) -> Iterator[RunningService]:
    """The issue's service: 308 recipes the search finds, served in pages of 75."""
    yield cookbook_service_factory(seed_recipes=308, page_size=75)


@pytest.fixture
def small(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> RunningService:
    """30 recipes the search finds, walked five at a time."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    return cookbook_service_factory(seed_recipes=30, page_size=PAGE)


def test_the_loop_that_edits_what_it_walks_updates_all_308(many: RunningService) -> None:
    with ServiceRoot(None, many.base_url) as root:
        clear_journal(many)
        seen = []
        for recipe in root.cookbooks.find_recipes(search=SEARCH):
            recipe.instructions = "Done by the loop."
            recipe.lp_save()
            seen.append(recipe.id)

    assert len(seen) == 308 and len(set(seen)) == 308
    assert generated(many) == []
    saves = [e for e in journal_entries(many) if e.method == "PATCH"]
    assert len(saves) == 308 and {e.status for e in saves} == {209}
    # Each page after the first asked again from where the saves left the results.
    starts = [query.get("ws.start") for query in page_requests(many)]
    assert starts[0] is None and "0" in starts[1:]


def test_the_same_loop_on_the_lazr_compatibility_layer_updates_all_308(
    many: RunningService,
) -> None:
    root = LazrServiceRoot(None, many.base_url, version="1.0")
    seen = []
    for recipe in root.cookbooks.find_recipes(search=SEARCH):
        recipe.instructions = "Done by the loop."
        recipe.lp_save()
        seen.append(recipe.id)

    assert len(seen) == 308 and len(set(seen)) == 308
    assert generated(many) == []


def test_a_walk_nobody_changes_sends_the_requests_it_always_did(many: RunningService) -> None:
    with ServiceRoot(None, many.base_url) as root:
        clear_journal(many)
        ids = [recipe.id for recipe in root.cookbooks.find_recipes(search=SEARCH)]
        walked = [recipe.id for recipe in root.recipes]

    assert ids == generated(many) and len(walked) == 316
    # The pages fetched ahead go out together: the journal's order among them varies.
    pages = sorted((e.path, e.query) for e in journal_entries(many))
    op = "search=%22Generated%22&ws.op=find_recipes"
    assert pages == [
        ("/1.0/cookbooks", op),
        ("/1.0/cookbooks", f"{op}&ws.start=225&ws.size=150"),
        ("/1.0/cookbooks", f"{op}&ws.start=75&ws.size=150"),
        ("/1.0/recipes", "ws.size=150"),
        ("/1.0/recipes", "ws.start=150&ws.size=150"),
        ("/1.0/recipes", "ws.start=300&ws.size=150"),
    ]


def test_saves_that_leave_entries_in_the_results_cost_no_page_twice(
    small: RunningService,
) -> None:
    with ServiceRoot(None, small.base_url) as root:
        clear_journal(small)
        seen = []
        for recipe in root.cookbooks.find_recipes(search=SEARCH):
            recipe.instructions = f"{recipe.instructions} Generated, and checked."
            recipe.lp_save()
            seen.append(recipe.id)

    assert seen == generated(small)
    # Six pages of five: each asked for once, from one entry before its place.
    assert len(page_requests(small)) <= 7


def test_entries_added_before_the_walks_place_are_not_handed_out_twice(
    small: RunningService,
) -> None:
    before = generated(small)
    with ServiceRoot(None, small.base_url) as root:
        seen = []
        for index, recipe in enumerate(root.cookbooks.find_recipes(search=SEARCH)):
            if index == 7:  # someone else: a recipe that sorts first now matches
                small.store.update_recipe(1, {"instructions": "Generated by hand."})
            seen.append(recipe.id)

    assert len(seen) == len(set(seen))
    assert set(before) <= set(seen) <= {1, *before}


def test_an_arrival_and_a_departure_that_keep_the_size_hand_out_nothing_twice(
    small: RunningService,
) -> None:
    before = generated(small)
    with ServiceRoot(None, small.base_url) as root:
        seen = []
        for index, recipe in enumerate(root.cookbooks.find_recipes(search=SEARCH)):
            if index == 7:  # one arrives before the walk's place, one leaves after it
                small.store.update_recipe(1, {"instructions": "Generated by hand."})
                small.store.update_recipe(before[-1], {"instructions": "Hand-made."})
            seen.append(recipe.id)

    assert len(seen) == len(set(seen))
    assert set(before[:-1]) <= set(seen)


def test_entries_others_remove_behind_the_walk_make_it_skip_nothing(
    small: RunningService,
) -> None:
    before = generated(small)
    with ServiceRoot(None, small.base_url) as root:
        seen = []
        for index, recipe in enumerate(root.cookbooks.find_recipes(search=SEARCH)):
            if index == 7:  # someone else takes two handed-out recipes out of the results
                for done in before[:2]:
                    small.store.update_recipe(done, {"instructions": "Hand-made."})
            seen.append(recipe.id)

    assert seen == before


def test_walks_are_told_of_saves_and_of_named_operations_that_write(
    small: RunningService,
) -> None:
    with ServiceRoot(None, small.base_url) as root:
        writes = session_of(root).writes
        assert writes is not None
        book = root.cookbooks[0]
        book.replace_cover(cover=b"A cover.")  # a POST
        len(root.cookbooks.find_recipes(search=SEARCH))  # a GET operation: a read
        book.price = 2.5
        book.lp_save()

    assert (writes.started, writes.finished) == (2, 2)
