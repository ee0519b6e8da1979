"""The page walker knows nothing of HTTP: any `PageSource` gives a list's answers.

The source here serves a Python list in pages of a fixed size, its next
links being plain offsets; it counts the pages it serves.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from wadlclient.objects import Page, PageWalker, WalkPlan

ITEMS = list(range(23))


class ListSource:
    """Pages of ``items``, at most ``served`` entries each, whatever size is asked for."""

    def __init__(self, items: list[int], served: int) -> None:
        self.items = items
        self.served = served
        self.fetched = 0

    def _page(self, start: int, size: int | None) -> Page:
        self.fetched += 1
        size = min(size or self.served, self.served)
        stop = start + size
        following = stop if stop < len(self.items) else None
        return Page(
            entries=list(self.items[start:stop]),
            start=start,
            total=len(self.items),
            next=None if following is None else str(following),
            next_start=following,
            total_link=None,
        )

    def fetch_page(self, start: int | None, size: int | None) -> Page:
        return self._page(start or 0, size)

    def follow_next(self, link: str, size: int | None) -> Page:
        return self._page(int(link), size)

    def fetch_later(
        self, link: str | None, start: int | None, size: int | None
    ) -> Callable[[], Page]:
        return partial(self._page, start if start is not None else int(link or 0), size)

    def count(self, page: Page) -> int | None:
        return None


@pytest.mark.parametrize("served", [1, 4, 5, 23, 50])
@pytest.mark.parametrize("depth", [0, 2])
def test_a_walk_gives_every_entry_once_in_order(served: int, depth: int) -> None:
    walker = PageWalker(ListSource(ITEMS, served))

    assert list(walker.walk(WalkPlan(page_size=5, depth=depth))) == ITEMS


@pytest.mark.parametrize(
    "key",
    [slice(0, 5), slice(3, 17), slice(20, 40), slice(2, 20, 3), slice(19, 2, -4), slice(5, 5)],
)
def test_slices_are_those_of_the_list(key: slice) -> None:
    walker = PageWalker(ListSource(ITEMS, 4))

    assert walker.slice(key) == ITEMS[key]


def test_an_index_fetches_the_one_page_it_is_on() -> None:
    source = ListSource(ITEMS, 4)
    walker = PageWalker(source)

    assert walker.item(13) == 13
    assert source.fetched == 1
    with pytest.raises(IndexError):
        walker.item(len(ITEMS))


def test_the_length_is_read_once_from_the_first_page() -> None:
    source = ListSource(ITEMS, 4)
    walker = PageWalker(source)
    plan = WalkPlan(page_size=5, depth=2)

    assert walker.length(plan) == walker.length(plan) == len(ITEMS)
    assert source.fetched == 1


@pytest.mark.usefixtures("python_gc_thresholds")
def test_the_loop_guard_remembers_nothing_per_page_when_pages_state_their_offsets() -> None:
    """A long walk stays flat: pages that advance by offset leave no trace in the guard."""
    import tracemalloc

    from wadlclient.objects.pages import PageGuard

    guard = PageGuard()
    size = 75
    base = "http://service.example/1.0/recipes"
    links = [f"{base}?ws.size={size}&ws.start={n}" for n in range(1, 20_001)]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for n, link in enumerate(links):
        guard.check(Page([n], n * size, None, link, (n + 1) * size, None))
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()

    assert grown < 16 * 1024


def test_the_loop_guard_catches_a_page_that_goes_back_before_the_offset_it_was_asked_for() -> None:
    from wadlclient.errors import ResponseError
    from wadlclient.objects.pages import PageGuard

    guard = PageGuard()
    guard.check(Page([1], 0, None, "http://s/c?ws.start=5", 5, None))

    with pytest.raises(ResponseError, match="loop"):
        guard.check(Page([2], 0, None, "http://s/c?ws.start=5", 5, None))
