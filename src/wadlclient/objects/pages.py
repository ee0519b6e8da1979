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
from collections.abc import Callable, Generator
from typing import Any, NamedTuple, Protocol

from wadlclient.errors import ResponseError

__all__ = ["MAX_PAGES", "Page", "PageGuard", "PageSource", "PageWalker", "WalkPlan"]

#: Pages one walk follows when no page states the collection's size: a chain has to end.
MAX_PAGES = 100_000

#: An INFO line when a walk starts, with its size: a long wait is then no surprise.
logger = logging.getLogger("wadlclient.objects")


class Page(NamedTuple):
    """One page of entries, and what it says of its place in the collection."""

    entries: list[Any]
    #: The offset the page states it starts at (None when it states none).
    start: int | None
    #: The collection's size, when the page states it.
    total: int | None
    #: The link to the next page (None on the last page).
    next: str | None
    #: The offset the next link names (None when it names none).
    next_start: int | None
    #: A link to the collection's size, when the page gives one instead of the size.
    total_link: str | None

    def span(self) -> int:
        """The positions the page covers: more than its entries when the server hid some.

        lazr.restful cuts a page first and then drops the entries the caller
        may not see, so a page's place in the collection is told by its
        offsets; its entry count is only a lower bound.
        """
        start, next_start = self.start or 0, self.next_start
        if next_start is not None and next_start > start:
            return next_start - start
        if self.next is None and self.total is not None and self.total > start:
            return self.total - start
        return len(self.entries)

    def filtered(self) -> bool:
        """Whether the server hid entries of this page (its entries fall short of its span)."""
        return len(self.entries) < self.span()


class WalkPlan(NamedTuple):
    """How a walk asks for pages: entries per page, pages requested ahead, what to log it as."""

    page_size: int
    depth: int
    name: str = "a collection"


class PageSource(Protocol):
    """Where a `PageWalker` gets pages from."""

    def fetch_page(self, start: int | None, size: int | None) -> Page:
        """The page from ``start`` of ``size`` entries (the first page when neither)."""

    def follow_next(self, link: str, size: int | None) -> Page:
        """The page a next link names, of ``size`` entries when given."""

    def fetch_later(
        self, link: str | None, start: int | None, size: int | None
    ) -> Callable[[], Page]:
        """Fetch a page now (on any thread); calling the result (once) parses it.

        ``link`` None means the collection itself. A walk holds pages it
        fetched ahead in this form, which takes less memory than the page.
        """

    def count(self, page: Page) -> int | None:
        """The size the page's ``total_link`` states (None when it has none)."""


class PageGuard:
    """Checks that a chain of pages advances, so that a broken or hostile server cannot loop a walk.

    A walk ends with a `ResponseError` naming the link when a page links to
    a page already served in it, or to an offset not after its own, or when
    there are more pages than the size the server announced allows
    (`MAX_PAGES` when it announces none). A page that is empty or short is
    no loop: the server may have hidden entries after cutting it, and its
    next link is followed as long as it advances.
    """

    __slots__ = ("_floor", "_pages", "_seen", "_total")

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._floor: int | None = None
        self._pages = 0
        self._total: int | None = None

    def check(self, page: Page) -> None:
        """Accept one more page of the walk, or end it with the reason."""
        self._pages += 1
        if page.total is not None:
            self._total = page.total
        link = page.next
        if link is None:
            return
        if self._loops(page, link):
            raise ResponseError(f"the pages loop: {link} was already served in this walk")
        limit = MAX_PAGES if self._total is None else self._total + 1
        if self._pages > limit:
            raise ResponseError(
                f"more pages than the collection's size allows ({self._pages} pages, "
                f"{self._total if self._total is not None else 'no'} entries announced); "
                f"next link {link}"
            )


    def _loops(self, page: Page, link: str) -> bool:
        """Whether ``link`` goes back in the walk.

        With offsets (the dialect's ``start`` and ``ws.start``) each page must
        start at or after the offset the previous link named, and link to a
        later one: nothing is remembered per page, so a long walk stays flat.
        Without them, the links served so far are remembered.
        """
        start, next_start = page.start, page.next_start
        if start is None or next_start is None:
            if link in self._seen:
                return True
            self._seen.add(link)
            return False
        if next_start <= start or (self._floor is not None and start < self._floor):
            return True
        self._floor = next_start
        return False


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
        link = page.next
        page_size = page.span()
        guard = PageGuard()
        while len(found) < wanted and link:
            guard.check(page)
            missing = wanted - len(found)
            # Ask for no more than is still needed.
            page = self._source.follow_next(link, missing if missing < page_size else None)
            found.extend(page.entries[:missing])
            link = page.next
            page_size = page_size or page.span()
        return found

    def item(self, index: int) -> Any:
        """The entry at ``index`` (from 0; IndexError past the end)."""
        if index < 0:
            raise ValueError("Collection slices must have a nonnegative start point.")
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
