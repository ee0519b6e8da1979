"""The fake's journal: every request it answered, for a test's assertions.

It keeps the authorization scheme (``OAuth``, ``Basic``) but never the
credentials, so a journal printed in a failing test leaks nothing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FakeJournal", "Served"]


@dataclass(frozen=True)
class Served:
    """One answered request. ``path`` is below the service root (``~ada``, ``""`` for the root)."""

    method: str
    path: str
    query: dict[str, list[str]]
    status: int
    ws_op: str | None = None
    body: Any = None
    if_match: str | None = None
    if_none_match: str | None = None
    auth_scheme: str | None = None
    accept: str | None = None
    #: Signed OAuth with an empty token (``login_anonymously``): the token itself is never kept.
    anonymous: bool = False
    message: str = field(default="", compare=False)


class FakeJournal:
    """A thread-safe list of `Served`, oldest first, with the filters tests use most."""

    def __init__(self) -> None:
        self._served: list[Served] = []
        self._lock = threading.Lock()

    def record(self, served: Served) -> None:
        with self._lock:
            self._served.append(served)

    def __iter__(self) -> Any:
        return iter(self.entries())

    def __len__(self) -> int:
        with self._lock:
            return len(self._served)

    def entries(self) -> list[Served]:
        with self._lock:
            return list(self._served)

    def requests(self, method: str | None = None, path: str | None = None) -> list[Served]:
        """The requests of one method and/or path."""
        return [
            s
            for s in self.entries()
            if (method is None or s.method == method) and (path is None or s.path == path)
        ]

    def operations(self, name: str) -> list[Served]:
        """The calls of one named operation (``ws.op``)."""
        return [s for s in self.entries() if s.ws_op == name]

    def clear(self) -> None:
        with self._lock:
            self._served.clear()
