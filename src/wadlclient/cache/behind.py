"""Writing behind: cache files written by a background thread, not the caller's.

A file creation costs more than the request it records on a fast network,
so `HTTPCache` hands each write (or removal) to a `WriteBehind`, which
keeps the latest bytes per file name until a background thread has written
them with the cache's own atomic write. Readers of the same cache look here
first, so a process always reads its own writes. ``flush()`` writes
everything now; it runs at interpreter exit and when the cache is closed.

One thread writes, in the order the names were first queued; a name queued
again while its write is in progress is written again afterwards, so the
last bytes always win and nothing is written twice at once.
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from collections.abc import Callable

__all__ = ["WriteBehind", "queue_for", "queue_of"]

#: What the background writer does with one name: bytes to write, None to remove.
Pending = bytes | None

#: Seconds an idle writer thread waits for more work before it ends.
_IDLE_SECONDS = 1.0


class WriteBehind:
    """A queue of file writes keyed by file name, drained by one background thread."""

    def __init__(self, write: Callable[[str, bytes], object], remove: Callable[[str], object]):
        self._write = write
        self._remove = remove
        self._pending: dict[str, Pending] = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._writing = threading.Lock()
        self._thread: threading.Thread | None = None
        self._owner = os.getpid()
        self._at_exit = _flush_later(self)
        atexit.register(self._at_exit)

    def submit(self, name: str, data: Pending, *, background: bool = True) -> None:
        """Queue ``data`` (None: a removal) as the next state of file ``name``.

        ``background=False`` starts no writer: the caller flushes at once.
        """
        with self._lock:
            self._pending[name] = data
            if not background:
                return
            self._changed.notify()
            if self._thread is None or self._owner != os.getpid():
                self._owner = os.getpid()
                self._thread = threading.Thread(
                    target=self._run, name="wadlclient-cache-writer", daemon=True
                )
                self._thread.start()

    def pending(self, name: str) -> tuple[bool, Pending]:
        """Whether ``name`` waits to be written, and what will be written."""
        with self._lock:
            if name in self._pending:
                return True, self._pending[name]
        return False, None

    def flush(self) -> None:
        """Write every queued file now, in this thread; return when all are on disk."""
        while self._write_one():
            pass
        with self._writing:
            pass  # a write the background thread had started is finished too

    def close(self) -> None:
        """Flush, and stop running at exit."""
        self.flush()
        atexit.unregister(self._at_exit)

    def _run(self) -> None:
        """Write until nothing has been queued for a while; the end is decided under the lock."""
        me = threading.current_thread()
        try:
            while True:
                with self._lock:
                    if not self._pending:
                        self._changed.wait(_IDLE_SECONDS)
                    if not self._pending:
                        if self._thread is me:
                            self._thread = None
                        return
                self._write_one()
        except BaseException:
            with self._lock:
                if self._thread is me:
                    self._thread = None
            raise

    def _write_one(self) -> bool:
        """Write the oldest queued file; False when nothing was queued."""
        with self._writing:
            with self._lock:
                if not self._pending:
                    return False
                name = next(iter(self._pending))
                data = self._pending[name]
            if data is None:
                self._remove(name)
            else:
                self._write(name, data)
            with self._lock:
                if name in self._pending and self._pending[name] is data:
                    del self._pending[name]
        return True


_queues: weakref.WeakValueDictionary[str, WriteBehind] = weakref.WeakValueDictionary()
_queues_lock = threading.Lock()


def queue_for(
    directory: str, write: Callable[[str, bytes], object], remove: Callable[[str], object]
) -> WriteBehind:
    """The one queue of ``directory`` in this process, made with ``write``/``remove`` if new.

    Sharing it lets a second cache object on the same directory read what
    the first has queued, as it would read the files.
    """
    key = os.path.realpath(directory)
    with _queues_lock:
        queue = _queues.get(key)
        if queue is None:
            queue = _queues[key] = WriteBehind(write, remove)
        return queue


def queue_of(directory: str) -> WriteBehind | None:
    """The queue of ``directory`` in this process, if a cache writing behind made one."""
    with _queues_lock:
        return _queues.get(os.path.realpath(directory))


def _flush_later(behind: WriteBehind) -> Callable[[], None]:
    """An exit hook that flushes ``behind`` if it still exists (it does not keep it alive)."""
    reference = weakref.ref(behind)

    def flush() -> None:
        alive = reference()
        if alive is not None:
            alive.flush()

    return flush
