"""The page walker's walk over results that move, with any `PageSource` (no HTTP).

The source serves a Python list of entries (dicts with a ``self_link``)
in pages, by offset, as the list is when each page is asked for; the loop
changes the list under the walk, counting its writes in the `WriteLog`
the walker watches, as `Entry.lp_save` does. It covers what the cookbook
service cannot serve: results without a stated size (Launchpad's searches
give ``total_size_link``), an order that a write changes, and a server
whose pages never settle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from wadlclient.errors import ResponseError
from wadlclient.objects import Page, PageWalker, WalkPlan, steady
from wadlclient.objects.writelog import WriteLog


def entry(number: int) -> dict[str, Any]:
    return {"self_link": f"http://x/items/{number}", "n": number}


class ListSource:
    """Pages of ``items`` as they are when asked for; the size stated or not."""

    def __init__(
        self, items: list[dict[str, Any]], *, stated: bool = True, most: int = 1000
    ) -> None:
        self.items = items
        self.stated = stated
        self.most = most
        self.asked: list[tuple[int, int | None]] = []

    def _page(self, start: int, size: int | None) -> Page:
        self.asked.append((start, size))
        size = min(size or 5, self.most)
        stop = start + size
        following = stop if stop < len(self.items) else None
        return Page(
            entries=[dict(item) for item in self.items[start:stop]],
            start=start,
            total=len(self.items) if self.stated else None,
            next=None if following is None else str(following),
            next_start=following,
            total_link=None if self.stated else "size",
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
        return len(self.items)


def walk(source: ListSource, log: WriteLog, depth: int = 0) -> list[dict[str, Any]]:
    return list(PageWalker(source, None, log).walk(WalkPlan(5, depth)))


@pytest.mark.parametrize("stated", [True, False])
@pytest.mark.parametrize("depth", [0, 2])
def test_a_loop_that_takes_each_entry_out_gets_every_one(stated: bool, depth: int) -> None:
    items = [entry(n) for n in range(47)]
    source, log = ListSource(items, stated=stated), WriteLog()
    handed = []
    for document in PageWalker(source, None, log).walk(WalkPlan(5, depth)):
        handed.append(document["n"])
        with log.writing(document["self_link"]):
            items[:] = [item for item in items if item["n"] != document["n"]]

    assert handed == list(range(47))


def test_a_write_that_moves_an_entry_to_the_end_does_not_hand_it_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Longer than the walk remembers of what it handed out: the moved ones are kept apart.
    monkeypatch.setattr(steady, "RECENT", 8)
    items = [entry(n) for n in range(23)]
    source, log = ListSource(items), WriteLog()
    handed = []
    for document in PageWalker(source, None, log).walk(WalkPlan(5, 0)):
        handed.append(document["n"])
        with log.writing(document["self_link"]):  # sorted by "last changed": it goes last
            moved = next(item for item in items if item["n"] == document["n"])
            items.remove(moved)
            items.append(moved)

    assert handed == list(range(23))


def test_a_walk_with_no_write_and_no_change_asks_for_each_page_once() -> None:
    source, log = ListSource([entry(n) for n in range(23)]), WriteLog()

    assert [d["n"] for d in walk(source, log)] == list(range(23))
    assert source.asked == [(0, 5), (5, 5), (10, 5), (15, 5), (20, 5)]


class Restless(ListSource):
    """A server whose results shift by a page each time they are asked for."""

    def _page(self, start: int, size: int | None) -> Page:
        self.items[:0] = [entry(1000 + len(self.asked) * 10 + k) for k in range(5)]
        return super()._page(start, size)


def test_a_server_whose_pages_never_settle_ends_the_walk_with_an_error() -> None:
    source, log = Restless([entry(n) for n in range(10)]), WriteLog()
    handed = 0
    with pytest.raises(ResponseError, match=r"kept changing|place of a walk|keeps sending it back"):
        for _document in PageWalker(source, None, log).walk(WalkPlan(5, 0)):
            handed += 1
            assert handed < 10_000, "the walk did not end"


class ShiftingSource(ListSource):
    """A server where an entry arrives at the front after the first page is served."""

    def _page(self, start: int, size: int | None) -> Page:
        page = super()._page(start, size)
        if len(self.asked) == 1:
            self.items.insert(0, entry(-1))
        return page


def test_a_slice_over_pages_that_straddle_an_arrival_holds_each_entry_once() -> None:
    source = ShiftingSource([entry(n) for n in range(23)], most=5)
    walker = PageWalker(source)

    numbers = [d["n"] for d in walker.slice(slice(0, 15))]

    assert len(numbers) == len(set(numbers))
    assert numbers[:5] == [0, 1, 2, 3, 4]
