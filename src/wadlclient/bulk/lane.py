"""The lanes of a bulk change: items worked on by a few threads, their writes through a narrow lane.

`run` hands the items, as the caller's iterable yields them (a walk is
not read ahead of the work by more than a few items), to ``reads``
worker threads; each writes only through the `WriteLane`: at most
``writes`` requests in flight, starting at least ``min_interval`` apart
(measured between the starts it grants, however late a thread wakes).
The results come back in input order. Ctrl-C (or an error of the
iterable) stops the handing out: the items under way finish, the others
are left out, and the caller raises the error with the report so far.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any

from wadlclient.bulk.policy import BulkPolicy
from wadlclient.bulk.report import FAILED, ItemResult

__all__ = ["WriteLane", "run"]

#: What a worker does with one item: its result, given its index and the lane.
Work = Callable[[int, Any, "WriteLane"], ItemResult]
_DONE: Any = object()


class WriteLane:
    """At most ``writes`` writes in flight, each starting at least ``min_interval`` after the last.

    The interval is kept between the starts the lane grants, measured
    when each is granted: a write whose thread wakes late (a busy machine)
    pushes the next one back, rather than leaving it its booked time on a
    grid (two starts closer than the interval). ``clock`` and ``sleep``:
    the monotonic clock and the wait (tests pass their own).
    """

    __slots__ = ("_clock", "_interval", "_last", "_pace", "_sleep", "_slots")

    def __init__(
        self,
        writes: int,
        min_interval: float = 0.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._slots = threading.BoundedSemaphore(writes)
        self._interval = min_interval
        self._clock, self._sleep = clock, sleep
        self._pace = threading.Lock()
        self._last: float | None = None

    @contextlib.contextmanager
    def slot(self) -> Iterator[float]:
        """Hold one place in the lane for a write; gives the time (``clock``) its start was granted.

        Waits for a place, then for the pace: starts are granted one at a
        time, each once ``min_interval`` has passed since the one before.
        """
        with self._slots:
            if not self._interval:
                yield self._clock()
                return
            with self._pace:
                while self._last is not None:
                    wait = self._last + self._interval - self._clock()
                    if wait <= 0:
                        break
                    self._sleep(wait)
                started = self._last = self._clock()
            yield started


class _Progress:
    """A tqdm bar on stderr when asked for (the ``progress`` extra), else nothing."""

    def __init__(self, wanted: bool, items: Iterable[Any], what: str) -> None:
        self._bar: Any = None
        if not wanted:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            raise ImportError(
                "progress=True needs tqdm: pip install 'wadlclient[progress]'"
            ) from None
        total = len(items) if isinstance(items, Sized) else None
        self._bar = tqdm(total=total, unit="item", desc=what, file=sys.stderr, leave=False)
        self._lock = threading.Lock()

    def advance(self, result: ItemResult) -> None:
        if self._bar is not None:
            with self._lock:
                self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def run(
    items: Iterable[Any], work: Work, policy: BulkPolicy, *, progress: bool, what: str
) -> tuple[list[ItemResult], list[Any], BaseException | None]:
    """``work`` on every item: (results in input order, failed items, what stopped the run).

    The error that stopped the handing out (Ctrl-C, the iterable's) is
    returned, not raised: the caller makes the report first.
    """
    bar = _Progress(progress, items, what)
    lane = WriteLane(policy.writes, policy.min_interval)
    todo: queue.Queue[Any] = queue.Queue(maxsize=2 * policy.reads)
    results: dict[int, ItemResult] = {}
    failed: dict[int, Any] = {}

    def worker() -> None:
        while True:
            task = todo.get()
            if task is _DONE:
                return
            index, item = task
            try:
                result = work(index, item, lane)
            except BaseException as error:  # a worker thread must not die with its item
                result = ItemResult(index, repr(item)[:200], FAILED, {}, error)
            results[index] = result
            if result.error is not None:
                failed[index] = item
            bar.advance(result)

    threads = [
        threading.Thread(target=worker, name="wadlclient-bulk", daemon=True)
        for _ in range(policy.reads)
    ]
    for thread in threads:
        thread.start()
    stopped: BaseException | None = None
    try:
        for index, item in enumerate(items):
            todo.put((index, item))
    except BaseException as error:  # Ctrl-C included: finish what is under way, then report
        stopped = error
        with contextlib.suppress(queue.Empty):
            while True:  # items handed out but not started are left out
                todo.get_nowait()
    finally:
        for _ in threads:
            todo.put(_DONE)
        for thread in threads:
            thread.join()
        bar.close()
    ordered = [results[index] for index in sorted(results)]
    return ordered, [failed[index] for index in sorted(failed)], stopped
