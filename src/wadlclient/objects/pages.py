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

from wadlclient.objects.budget import WalkBudget
from wadlclient.objects.kept import KeptPages
from wadlclient.objects.paging import MAX_PAGES, Page, PageGuard, PageSource, WalkPlan
from wadlclient.objects.resume import Cursor, find_place, kept_place
from wadlclient.objects.steady import Resumed, TaggedSource, link_hash, steady_walk
from wadlclient.objects.tokens import Position
from wadlclient.objects.writelog import WriteLog

__all__ = ["MAX_PAGES", "Page", "PageGuard", "PageSource", "PageWalker", "WalkPlan"]

#: Pages a slice asks for at once, beyond its first.
SLICE_DEPTH = 8

#: An INFO line when a walk starts, with its size: a long wait is then no surprise.
logger = logging.getLogger("wadlclient.objects")


class PageWalker:
    """The entries of a paged collection, read by index, slice, length or walk."""

    __slots__ = ("_first", "_log", "_quiet", "_source", "_total")

    def __init__(
        self, source: PageSource, first: Page | None = None, writes: WriteLog | None = None
    ) -> None:
        """``writes``: the root's `WriteLog`, so that walks notice the loop's own writes."""
        self._source = source
        self._log = writes if writes is not None else WriteLog()
        self._first = first
        #: The writes finished when the first page held came, if none was under way (else None).
        self._quiet = self._log.finished if self._log.quiet_since(self._log.finished) else None
        self._total: int | None = None

    @property
    def source(self) -> PageSource:
        """Where the pages come from."""
        return self._source

    def first_page(self) -> Page:
        """The first page, fetched once."""
        page = self._first
        if page is None:
            log = self._log
            before = log.finished
            page = self._source.fetch_page(None, None)
            self._quiet = before if log.quiet_since(before) else None
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
            # Pages asked for together may straddle a change: an entry once.
            found = list({link_hash(document): document for document in found}.values())
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

    def walk(
        self,
        plan: WalkPlan,
        start: Position | None = None,
        cursor: Cursor | None = None,
        kept: KeptPages | None = None,
    ) -> Generator[Any, None, None]:
        """Every entry, in order and once, the following pages fetched ahead while the caller reads.

        The results may change meanwhile, by the loop's own writes or
        others': `wadlclient.objects.steady` notices and asks again from
        the right place. Memory stays flat whatever the collection's size:
        a page fetched for the walk is let go of entry by entry as they
        are handed out (a first page kept for ``len()`` and slices is read
        without being emptied). Stopping early (``break``, closing or
        dropping the iterator) cancels what has not started and waits for
        what has.

        The first page is the one already held (after ``len()`` or from a
        named operation), else a page of ``plan.page_size`` entries, of
        which only the total is kept, for ``len()``. A walk that resumes
        (``start``, from a token: `resume.find_place`) starts with a page
        from just before its place instead, or with the pages the walk
        killed before it kept (`resume.kept_place`). ``cursor`` is told of
        each page as its entries start going out (`resume.Cursor`).
        ``kept``: where the walk keeps each page it receives until it is
        handed out (`wadlclient.objects.kept`); removed at the end or on
        ``close()``, left for a resume when the walk is stopped by an error.
        """
        if start is not None and start.done:
            return
        source = TaggedSource(self._source, self._log, WalkBudget(plan), kept)
        page = self._first
        owned = page is None
        resumed: Resumed | None = None
        if start is not None and (start.pos or start.anchors):
            found = None
            if kept is not None and start.walk == kept.walk:
                found = kept_place(kept, source, start, plan)
            if found is not None:
                page, resumed = found
            else:
                page = find_place(source, start, plan)
            owned = True
        elif page is None:
            page = source.fetch_later(None, None, plan.page_size)()
            if not page.start and page.total is not None and self._total is None:
                self._total = page.total
        else:
            source.note(page, self._log.finished, self._quiet)
        PageGuard().check(page)
        if logger.isEnabledFor(logging.INFO):
            total = self._total if self._total is not None else page.total
            size = "size not stated" if total is None else f"{total} entries"
            logger.info("walking %s: %s", plan.name, size)
        pages = steady_walk(source, self._log, page, owned, plan, _pages_after, resumed)
        del page, resumed  # the walk lets go of its pages as it hands them out
        handing: int | None = None
        finished = False
        try:
            with contextlib.closing(pages):
                for entries, emptied in pages:
                    if cursor is not None:
                        cursor.page(len(entries), source)
                    if kept is not None:
                        if handing is not None and handing != (source.start or 0):
                            kept.drop(handing)  # handed out: a resume will not need it
                        handing = source.start or 0
                    if not emptied:
                        yield from entries
                        continue
                    for index, document in enumerate(entries):
                        entries[index] = None
                        yield document
                    del entries
            finished = True
        except GeneratorExit:
            finished = True  # closed: the caller is done with the walk
            raise
        finally:
            if kept is not None and finished:
                kept.drop_all()


def _pages_after(
    source: PageSource, first: Page, plan: WalkPlan, guard: PageGuard
) -> Generator[list[Any], None, None]:
    """`prefetch.pages_after`, imported on the first walk past one page (it needs threads)."""
    from wadlclient.objects.prefetch import pages_after

    return pages_after(source, first, plan, guard)
