"""Iteration reads big pages and fetches the following ones ahead (issue 6).

SPEC "Collections" rule 1 (iteration yields all entries) must hold whatever
the page size the server serves; what a slice or ``len()`` sends is checked
in test_collections.py and does not change.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot

from .conftest import clear_journal, settle, wire_with_query


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> int:
    """Iteration asks for pages of 6, so that small collections span many pages."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 6)
    return 6


def prefetch_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("wadlclient-prefetch")]


def test_a_for_loop_asks_the_collection_path_for_a_big_page(
    cookbook_service: RunningService,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root:
        clear_journal(cookbook_service)

        ids = [recipe.id for recipe in root.recipes]

    assert len(ids) == len(set(ids)) > 5  # more than the server's default page of 5
    size = Collection.ITERATION_PAGE_SIZE
    assert wire_with_query(cookbook_service) == [("GET", "/1.0/recipes", f"ws.size={size}", 200)]


def test_iteration_over_pages_not_dividing_the_size_yields_each_entry_once_in_order(
    cookbook_service_factory: Callable[..., RunningService], small_pages: int
) -> None:
    service = cookbook_service_factory(seed_recipes=35, page_size=5)
    with ServiceRoot(None, service.base_url) as root:
        total = len(root.recipes)
        expected = [recipe.id for recipe in root.recipes[0:total]]  # the slice path
        assert total % small_pages != 0
        clear_journal(service)

        ids = [recipe.id for recipe in root.recipes]

    assert ids == expected
    pages = wire_with_query(service)
    assert len(pages) == -(-total // small_pages)  # one GET per page, none beyond the end
    assert all(f"ws.size={small_pages}" in query for _, _, query, _ in pages)


def test_a_server_serving_smaller_pages_than_asked_still_gives_every_entry(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 500)  # the service caps at 300
    service = cookbook_service_factory(seed_recipes=700, page_size=75)
    with ServiceRoot(None, service.base_url) as root:
        total = len(root.recipes)

        ids = [recipe.id for recipe in root.recipes]

    assert total > 600
    assert len(ids) == len(set(ids)) == total


def test_breaking_early_stops_fetching_and_leaves_no_thread(
    cookbook_service_factory: Callable[..., RunningService], small_pages: int
) -> None:
    service = cookbook_service_factory(seed_recipes=35, page_size=5)
    with ServiceRoot(None, service.base_url) as root:
        clear_journal(service)

        for number, _recipe in enumerate(root.recipes):
            if number == small_pages:  # the first entry of the second page
                break
        settle(service)

        assert prefetch_threads() == []
        sent = len(wire_with_query(service))
        # The first page, the second, and at most PREFETCH_DEPTH ahead of it.
        assert 2 <= sent <= 2 + Collection.PREFETCH_DEPTH
        assert len(wire_with_query(service)) == sent  # nothing more afterwards


def test_an_abandoned_iterator_is_closed_and_stops(
    cookbook_service_factory: Callable[..., RunningService], small_pages: int
) -> None:
    service = cookbook_service_factory(seed_recipes=35, page_size=5)
    with ServiceRoot(None, service.base_url) as root:
        entries = iter(root.recipes)
        for _ in range(small_pages + 1):
            next(entries)

        entries.close()  # what dropping the last reference does

        assert prefetch_threads() == []
        assert list(entries) == []


def test_an_entry_added_during_iteration_never_hides_another(
    cookbook_service: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are offsets, as in lazr: an insertion may show an entry twice, never skip one."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 1)
    when = datetime(2020, 1, 1, tzinfo=timezone.utc)
    with ServiceRoot(None, cookbook_service.base_url) as root:
        before = {book.name for book in root.cookbooks}
        seen = []

        for number, book in enumerate(root.cookbooks):
            seen.append(book.name)
            if number == 1:
                root.cookbooks.create(
                    name="A newly added cookbook",
                    cuisine="General",
                    copyright_date=when,
                    price=Decimal("1.00"),
                    last_printing=when,
                )

    assert len(before) > 1 + Collection.PREFETCH_DEPTH  # more pages than fetched ahead
    assert before <= set(seen)


#: A walk before a fork and one in the child: the child's pages come from workers of its own.
WALK_AFTER_FORK = """
import os, signal, sys
from wadlclient import Collection, ServiceRoot
Collection.ITERATION_PAGE_SIZE = 5
root = ServiceRoot(None, sys.argv[1])
ids = [recipe.id for recipe in root.recipes]  # leaves pool workers waiting for work
pid = os.fork()
if pid == 0:
    signal.alarm(20)  # a page no worker takes would wait forever
    child = ServiceRoot(None, sys.argv[1])
    os._exit(0 if [recipe.id for recipe in child.recipes] == ids else 3)
_, status = os.waitpid(pid, 0)
print(len(ids) > 15, os.waitstatus_to_exitcode(status))  # pages fetched ahead
"""


def test_a_child_forked_after_a_walk_walks_on_fetch_workers_of_its_own(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    service = cookbook_service_factory(seed_recipes=35, page_size=5)
    done = subprocess.run(
        [sys.executable, "-c", WALK_AFTER_FORK, service.base_url],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["True", "0"]
