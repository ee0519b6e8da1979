"""The storage interface every non-disk cache backend implements, and the memory backend.

A backend keeps named bytes; it knows nothing of HTTP (`CacheRules` does).
Names are at most 143 characters of printable ASCII or UTF-8 (lazr's
file names of cached responses, or blob names such as the persisted
WADL model); the bytes are opaque. What the rules need of a backend:

- ``load(name)``: the bytes last saved under ``name``, whole, or None.
  A backend that cannot answer (a server down) answers None: a miss.
- ``save(name, data)``: store ``data`` so that a reader anywhere sees the
  old bytes or the new bytes, never a mixture or a part (atomic replace).
  A backend that cannot store says nothing: the next ``load`` misses.
- ``remove(name)``: forget ``name``; absent already is fine.
- ``exists(name)``: whether ``load`` would find it, without moving the bytes.
- ``close()``: release connections or files.
- ``private``: True when the store dies with the process (then the WADL
  model is not persisted in it: the process already holds it).

A backend may also offer ``claim(name, seconds) -> bool`` (see
`StoreCache`): True for the one process, among all sharing the store,
that is to fetch a missing large document, so the others wait for it;
and with it ``release(name)`` (the claimant will not store ``name``) and
``claim_state(name)``: ``"held"``, ``"released"`` or None (no claim), so
the others stop waiting at once, or take over a claim that lapsed.

A backend knows nothing of principals either: a principal's entries are
names like any other (`wadlclient.cache.sharing`).
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable

__all__ = ["CacheStore", "MemoryStore"]


@runtime_checkable
class CacheStore(Protocol):
    """Named bytes with atomic replacement: what a cache backend must do (see the module)."""

    @property
    def private(self) -> bool: ...

    def load(self, name: str) -> bytes | None: ...

    def save(self, name: str, data: bytes) -> None: ...

    def remove(self, name: str) -> None: ...

    def exists(self, name: str) -> bool: ...

    def close(self) -> None: ...


class MemoryStore:
    """A dict in this process behind a lock: for tests, and for roots sharing one process.

    ``max_bytes`` bounds it: the oldest-saved entries go first when it is exceeded.
    """

    private = True

    def __init__(self, max_bytes: int = 256 * 1024 * 1024) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        self.max_bytes = max_bytes
        self._data: dict[str, bytes] = {}
        self._size = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MemoryStore({len(self._data)} entries, {self._size} bytes)"

    def __len__(self) -> int:
        return len(self._data)

    def load(self, name: str) -> bytes | None:
        with self._lock:
            return self._data.get(name)

    def save(self, name: str, data: bytes) -> None:
        data = bytes(data)
        with self._lock:
            self._size -= len(self._data.pop(name, b""))
            if len(data) > self.max_bytes:
                return
            self._data[name] = data
            self._size += len(data)
            while self._size > self.max_bytes:
                oldest = next(iter(self._data))
                self._size -= len(self._data.pop(oldest))

    def remove(self, name: str) -> None:
        with self._lock:
            self._size -= len(self._data.pop(name, b""))

    def exists(self, name: str) -> bool:
        with self._lock:
            return name in self._data

    def close(self) -> None:
        """Nothing to release: the bytes stay for other caches sharing this store."""
