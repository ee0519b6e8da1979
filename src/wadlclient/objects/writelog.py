"""`WriteLog`: the writes one service root's objects send, counted, for the walks running meanwhile.

A walk pages by offset, and a write can move the results under it (a
task marked Fix Released leaves a search for open tasks). The writes a
root's own objects send are the ones a walk can know of: `Entry.lp_save`,
`Entry.lp_delete` and named operations that write note each one here,
before it is sent and once it is answered. A walk compares the counts
around each page it fetches (`wadlclient.objects.steady`): a page asked
for and answered while no write of its root was under way shows the
results as the previous page did, or as the writes finished since left them.

Walks running meanwhile are told the URL of each write (`watch`), so
that an entry they handed out and the loop then changed is known to them
if the change moves it further along the results.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["WriteLog", "WriteWatcher"]


class WriteWatcher(Protocol):
    """Told the URL of each write that starts while it watches."""

    def wrote(self, url: str) -> None: ...


class WriteLog:
    """Counts of the writes started and finished, and the watchers to tell. Thread-safe."""

    __slots__ = ("_finished", "_lock", "_started", "_watchers")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started = 0
        self._finished = 0
        self._watchers: tuple[WriteWatcher, ...] = ()

    @property
    def started(self) -> int:
        """Writes begun so far (answered or not)."""
        return self._started

    @property
    def finished(self) -> int:
        """Writes answered (or failed) so far."""
        return self._finished

    def quiet_since(self, finished: int) -> bool:
        """Whether no write began after ``finished`` writes were done (none under way since)."""
        return self._started == finished

    @contextmanager
    def writing(self, url: str) -> Iterator[None]:
        """Count one write to ``url`` over the block (a request that may change the service)."""
        with self._lock:
            self._started += 1
            watchers = self._watchers
        for watcher in watchers:
            watcher.wrote(url)
        try:
            yield
        finally:
            with self._lock:
                self._finished += 1

    def watch(self, watcher: WriteWatcher) -> None:
        """Tell ``watcher`` of every write from now on, until `unwatch`."""
        with self._lock:
            self._watchers = (*self._watchers, watcher)

    def unwatch(self, watcher: WriteWatcher) -> None:
        with self._lock:
            self._watchers = tuple(w for w in self._watchers if w is not watcher)
