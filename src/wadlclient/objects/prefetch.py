"""The pages of a walk after its first, the following ones fetched ahead on a few threads.

The server decides the page size it serves and what it answers is
trusted: each page must start where the previous page's next link points,
and the walk ends on the first page without one. The pages after it are
requested ahead at the offsets the server's page size predicts; one that
turns out not to be the page the next link names (the collection changed
size, the server serves another size) is dropped with everything
requested after it, and the walk goes on from the next link as it is.

For a collection that does not change meanwhile, the entries are exactly
those of following the next links one by one, as lazr.restfulclient does.
An entry added or removed during the walk may shift later pages, showing
an entry twice or skipping one, as with any offset-paged listing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from wadlclient.objects.pages import Page, PageSource, WalkPlan

__all__ = ["pages_after"]

#: Pages requested ahead: (the offset asked for, the page to be parsed when done).
_Pending = deque[tuple[int, Future[Callable[[], Page]]]]


def _cancel(pending: _Pending) -> None:
    """Drop pages requested ahead: those not started never will be."""
    while pending:
        pending.pop()[1].cancel()


def _next_page(
    source: PageSource, pending: _Pending, link: str, start: int | None, size: int
) -> Page:
    """The page ``link`` names: the one fetched ahead for it, else fetched now."""
    if pending and (start is None or pending[0][0] != start):
        _cancel(pending)
    fetched = pending.popleft()[1].result() if pending else source.fetch_later(link, None, size)
    page = fetched()
    if start is not None and page.start not in (None, start):
        # Not the page the link names: start again from the link.
        _cancel(pending)
        page = source.fetch_later(link, None, None)()
    return page


def pages_after(
    source: PageSource, first: Page, plan: WalkPlan
) -> Generator[list[Any], None, None]:
    """The entries of the pages after ``first`` (whose own entries are not read), in order."""
    size = plan.page_size
    link, start, total = first.next, first.next_start, first.total
    pending: _Pending = deque()
    pool: ThreadPoolExecutor | None = None
    try:
        while link:
            page = _next_page(source, pending, link, start, size)
            entries = page.entries
            link, start = page.next, page.next_start
            if page.total is not None:
                total = page.total
            del page
            if not link:
                yield entries
                break
            if entries and len(entries) != size:
                # The server serves pages of another size: predict with it.
                _cancel(pending)
                size = len(entries)
            if start is not None and size > 0 and plan.depth > 0:
                if pool is None:
                    pool = ThreadPoolExecutor(plan.depth, thread_name_prefix="wadlclient-prefetch")
                ahead = pending[-1][0] + size if pending else start
                while len(pending) < plan.depth and (total is None or ahead < total):
                    pending.append((ahead, pool.submit(source.fetch_later, link, ahead, size)))
                    ahead += size
            yield entries
            del entries
    finally:
        _cancel(pending)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
