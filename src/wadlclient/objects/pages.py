"""Paging written once: length, indexing, slicing and iteration over pages of entries.

A `PageWalker` knows nothing of HTTP. It asks a `PageSource` for a page by
offset and size, or by the opaque link a page gives to the next one, and
remembers the first page and the total once known. Random access
(``len()``, indexes, slices) fetches exactly the pages it needs; a walk
(iteration) asks for big pages and fetches the following ones ahead on a
few threads (`wadlclient.objects.prefetch`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Generator
from typing import Any

from wadlclient.objects.paging import MAX_PAGES, Page, PageGuard, PageSource, WalkPlan

__all__ = ["MAX_PAGES", "Page", "PageGuard", "PageSource", "PageWalker", "WalkPlan"]

#: Pages a slice asks for at once, beyond its first.
SLICE_DEPTH = 8

#: An INFO line when a walk starts, with its size: a long wait is then no surprise.
logger = logging.getLogger("wadlclient.objects")


class PageWalker:
    """The entries of a paged collection, read by index, slice, length or walk."""

    __slots__ = ("_first", "_source", "_total")

    def __init__(self, source: PageSource, first: Page | None = None) -> None:
        self._source = source
        self._first = first
        self._total: int | None = None

    def first_page(self) -> Page:
        """The first page, fetched once."""
        page = self._first
        if page is None:
            page = self._source.fetch_page(None, None)
            self._first = page
        return page

    def length(self, plan: WalkPlan) -> int:
        """The number of entries: as stated, else counted by a walk along ``plan``."""
        total = self._total
        if total is not None:
            return total
        page = self.first_page()
        total = page.total
        if total is None:
            total = self._source.count(page)
        if total is None:
            if not page.next:
                total = (page.start or 0) + len(page.entries)
            else:
                total = sum(1 for _ in self.walk(plan))
        self._total = total
        return total

    def entries(self, start: int, stop: int) -> list[Any]:
        """Entries ``start`` to ``stop - 1`` (fewer at the end), from the pages they are on."""
        wanted = stop - start
        if wanted <= 0:
            return []
        page = self._first
        if page is None or page.start or page.filtered() or start >= len(page.entries):
            # A first page the server filtered does not tell which entry sits
            # at a position: ask the server from that position, as lazr does.
            page = self._source.fetch_page(start, wanted)
            start = 0
        found = list(page.entries[start : start + wanted])
        if len(found) < wanted and page.next:
            stop = (page.start or 0) + start + wanted
            found.extend(self._entries_after(page, stop, wanted - len(found)))
        return found

    def _entries_after(self, page: Page, stop: int, wanted: int) -> list[Any]:
        """``wanted`` entries (fewer at the end) from the pages after ``page``, up to ``stop``.

        The pages a slice needs are asked for together, at the offsets the
        first page's span predicts (at most `SLICE_DEPTH` in flight), each
        for no more entries than the slice still needs; following the next
        links checks each one, so a filtered page only makes the slice read on.
        """
        guard = PageGuard()
        guard.check(page)
        plan = WalkPlan(page.span() or wanted, SLICE_DEPTH, stop=stop)
        found: list[Any] = []
        # Imported here: thread pools are needed only by slices beyond one page.
        from wadlclient.objects.prefetch import pages_after

        with contextlib.closing(pages_after(self._source, page, plan, guard)) as following:
            for entries in following:
                found.extend(entries[: wanted - len(found)])
                if len(found) >= wanted:
                    break
        return found

    def item(self, index: int) -> Any:
        """The entry at ``index`` (from 0; IndexError past the end)."""
        if index < 0:
            # Counting from the end needs the size, which may cost a request or a walk.
            raise ValueError(
                f"Collection indices must be nonnegative, not {index}: for the last "
                "entries, use coll[len(coll) - 1] (len() may cost a request)."
            )
        found = self.entries(index, index + 1)
        if not found:
            raise IndexError("list index out of range")
        return found[0]

    def slice(self, key: slice) -> list[Any]:
        """The entries of a slice with a definite, nonnegative start and stop."""
        start, stop, step = key.start, key.stop, key.step
        if start is None:
            start = 0
        if not isinstance(start, int) or not isinstance(stop, (int, type(None))):
            raise TypeError("collection slice indices must be integers or None")
        if start < 0:
            raise ValueError("Collection slices must have a nonnegative start point.")
        if stop is None or stop < 0:
            raise ValueError("Collection slices must have a definite, nonnegative end point.")
        if step is None:
            step = 1
        if not isinstance(step, int):
            raise TypeError("collection slice step must be an integer or None")
        if step == 0:
            raise ValueError("slice step cannot be zero")
        if step > 0:
            return self.entries(start, stop)[::step]
        # items[start:stop:-n] are items[stop + 1 : start + 1], reversed, every n-th.
        return self.entries(stop + 1, start + 1)[::-1][::-step]

    def walk(self, plan: WalkPlan) -> Generator[Any, None, None]:
        """Every entry, in order, the following pages fetched ahead while the caller reads.

        Memory stays flat whatever the collection's size: a page fetched
        for the walk is let go of entry by entry as they are handed out (a
        first page kept for ``len()`` and slices is read without being
        emptied). Stopping early (``break``, closing or dropping the
        iterator) cancels what has not started and waits for what has.
        """
        with contextlib.closing(self._pages(plan)) as pages:
            for entries, owned in pages:
                if not owned:
                    yield from entries
                    continue
                for index, document in enumerate(entries):
                    entries[index] = None
                    yield document

    def _pages(self, plan: WalkPlan) -> Generator[tuple[list[Any], bool], None, None]:
        """``(entries, owned)`` page by page; ``owned`` lists may be emptied as they are read.

        The first page is the one already held (after ``len()`` or from a
        named operation), else a page of ``plan.page_size`` entries, of
        which only the total is kept, for ``len()``.
        """
        page = self._first
        owned = page is None
        if page is None:
            page = self._source.fetch_later(None, None, plan.page_size)()
            if not page.start and page.total is not None and self._total is None:
                self._total = page.total
        guard = PageGuard()
        guard.check(page)
        entries = page.entries
        rest = page._replace(entries=[])
        del page
        if logger.isEnabledFor(logging.INFO):
            total = self._total if self._total is not None else rest.total
            size = "size not stated" if total is None else f"{total} entries"
            logger.info("walking %s: %s", plan.name, size)
        yield entries, owned
        del entries
        if not rest.next:
            return
        # Imported here: thread pools are needed only by walks beyond one page.
        from wadlclient.objects.prefetch import pages_after

        with contextlib.closing(pages_after(self._source, rest, plan, guard)) as following:
            for entries in following:
                yield entries, True
