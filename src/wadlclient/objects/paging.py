"""What a walk over pages knows of a page, and the guard that a chain of pages advances.

The types `PageWalker` (`pages`) and the look-ahead of a walk (`prefetch`)
share, in a module of their own so that neither imports the other.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from wadlclient.errors import ResponseError

__all__ = ["MAX_PAGES", "Page", "PageGuard", "PageSource", "WalkPlan"]

#: Pages one walk follows when no page states the collection's size: a chain has to end.
MAX_PAGES = 100_000


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
    """How a walk asks for pages: entries per page, pages requested ahead, what to log it as.

    ``stop`` is the offset a walk needs no entries from (a slice's end):
    no page at or past it is requested ahead, and the one that crosses it
    asks only for the entries before it. None: the collection's end.
    """

    page_size: int
    depth: int
    name: str = "a collection"
    stop: int | None = None


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
