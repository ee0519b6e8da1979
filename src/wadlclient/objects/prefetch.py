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

Each page fetched ahead runs on a daemon thread of a process-wide pool that
grows when every worker is busy, so walks never wait for one another; a
worker idle for `IDLE_SECONDS` ends (starting a thread per page cost about
as much CPU as parsing it). A worker is named ``wadlclient-prefetch`` only
while it fetches. A child forked meanwhile starts with a pool of its own. A
walk that stops normally (its end, ``break``, ``close()``) waits for the requests
already sent, so that nothing outlives it; a walk stopped by an exception
(Ctrl-C's ``KeyboardInterrupt`` above all) returns at once and abandons
them: their answers are dropped, and they never hold the process open.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future
from concurrent.futures import wait as wait_for
from typing import Any

from wadlclient.objects.paging import Page, PageGuard, PageSource, WalkPlan

__all__ = ["pages_after"]

#: A page requested ahead: it is parsed by calling the result.
_Fetched = Future[Callable[[], Page]]
#: Pages requested ahead: (the offset asked for, the entries asked for, the page to be parsed).
_Pending = deque[tuple[int, int, _Fetched]]


#: How long a pool worker with nothing to fetch waits for work before it ends.
IDLE_SECONDS = 2.0
_BUSY_NAME = "wadlclient-prefetch"
_IDLE_NAME = "wadlclient-pool-idle"

_Task = tuple[_Fetched, Callable[..., Callable[[], Page]], tuple[Any, ...]]


class _Pool:
    """Daemon workers taking fetches from one queue; a new one starts when none is idle."""

    __slots__ = ("_idle", "_tasks")

    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[_Task] = queue.SimpleQueue()
        # One release per worker waiting for a task: a submit that takes one has claimed it.
        self._idle = threading.Semaphore(0)

    def submit(self, task: _Task) -> None:
        self._tasks.put(task)
        if not self._idle.acquire(blocking=False):
            threading.Thread(target=self._work, name=_BUSY_NAME, daemon=True).start()

    def _work(self) -> None:
        current = threading.current_thread()
        while True:
            try:
                task = self._tasks.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                if self._idle.acquire(blocking=False):
                    return  # still unclaimed: no task is coming for this worker
                continue  # a submit claimed this worker: its task is on the way
            _run(current, *task)
            del task
            self._idle.release()


_pool = _Pool()


def _fresh_pool() -> None:
    """A forked child has none of its parent's workers: it starts a pool of its own."""
    global _pool
    _pool = _Pool()


os.register_at_fork(after_in_child=_fresh_pool)


class _Ahead:
    """A walk's fetches on the pool's daemon workers, that the walk may wait for or abandon."""

    __slots__ = ("_futures",)

    def __init__(self) -> None:
        self._futures: list[_Fetched] = []

    def submit(self, fetch: Callable[..., Callable[[], Page]], *args: Any) -> _Fetched:
        """Start ``fetch(*args)`` now; its future says when it is done."""
        future: _Fetched = Future()
        self._futures = [f for f in self._futures if not f.done()]
        self._futures.append(future)
        _pool.submit((future, fetch, args))
        return future

    def wait(self) -> None:
        """Wait for the fetches already running (those cancelled in time never start)."""
        wait_for(self._futures)
        self._futures.clear()


def _run(
    worker: threading.Thread,
    future: _Fetched,
    fetch: Callable[..., Callable[[], Page]],
    args: tuple[Any, ...],
) -> None:
    """A worker's task: the fetch's result or error into ``future``, unless cancelled first.

    The worker is named idle again before the walk can see the future done.
    """
    if not future.set_running_or_notify_cancel():
        return
    worker.name = _BUSY_NAME
    try:
        result = fetch(*args)
    except BaseException as error:
        worker.name = _IDLE_NAME
        future.set_exception(error)
    else:
        worker.name = _IDLE_NAME
        future.set_result(result)


def _cancel(pending: _Pending) -> None:
    """Drop pages requested ahead: those not started never will be."""
    while pending:
        pending.pop()[2].cancel()


def _next_page(
    source: PageSource, pending: _Pending, link: str, start: int | None, size: int
) -> tuple[Page, int]:
    """The page ``link`` names (fetched ahead for it, else now), and the entries it asked for."""
    if pending and (start is None or pending[0][0] != start):
        _cancel(pending)
    if pending:
        _, asked, future = pending.popleft()
        fetched = future.result()
    else:
        asked, fetched = size, source.fetch_later(link, None, size)
    page = fetched()
    if start is not None and page.start not in (None, start):
        # Not the page the link names: start again from the link.
        _cancel(pending)
        page = source.fetch_later(link, None, None)()
    return page, asked


def _ask_ahead(
    source: PageSource, pending: _Pending, workers: _Ahead, link: str, at: tuple[int, int],
    plan: WalkPlan, total: int | None,
) -> None:  # fmt: skip
    """Request the pages after offset ``at[0]`` (of ``at[1]`` entries each) up to the plan's depth.

    Nothing is asked at or past the collection's size or the plan's stop,
    and the page crossing the stop asks only for the entries before it.
    """
    start, size = at
    ahead = pending[-1][0] + size if pending else start
    bounds = [bound for bound in (total, plan.stop) if bound is not None]
    end = min(bounds) if bounds else None
    while len(pending) < plan.depth and (end is None or ahead < end):
        asked = size if plan.stop is None else min(size, plan.stop - ahead)
        pending.append((ahead, asked, workers.submit(source.fetch_later, link, ahead, asked)))
        ahead += size


def pages_after(
    source: PageSource, first: Page, plan: WalkPlan, guard: PageGuard
) -> Generator[list[Any], None, None]:
    """The entries of the pages after ``first`` (whose own entries are not read), in order.

    ``guard`` has checked ``first`` already and checks every page after it.
    """
    size = plan.page_size
    link, start, total = first.next, first.next_start, first.total
    pending: _Pending = deque()
    workers = _Ahead()
    interrupted = False
    if link and start is not None and size > 0 and plan.depth > 0 and first.span() == size:
        # The first page confirms the size: the next ones can be asked for at once.
        _ask_ahead(source, pending, workers, link, (start, size), plan, total)
    try:
        while link:
            page, asked = _next_page(source, pending, link, start, size)
            guard.check(page)
            entries = page.entries
            link, start, span = page.next, page.next_start, page.span()
            if page.total is not None:
                total = page.total
            del page
            if not link:
                yield entries
                break
            if span and span != asked:
                # The server serves pages of another size: predict with it. A
                # page it filtered is short of entries, not of positions.
                _cancel(pending)
                size = span
            if start is not None and size > 0 and plan.depth > 0:
                _ask_ahead(source, pending, workers, link, (start, size), plan, total)
            yield entries
            del entries
    except GeneratorExit:
        raise
    except BaseException:
        interrupted = True
        raise
    finally:
        _cancel(pending)
        if not interrupted:
            workers.wait()
