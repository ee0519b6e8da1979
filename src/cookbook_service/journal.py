"""The request journal: one line per request the service answered.

Tests read it to count and inspect requests. It records the authorization
scheme (``Basic``, ``OAuth``) but never the credentials.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class JournalEntry:
    """One answered request.

    ``path`` and ``query`` are as sent on the wire (still percent-encoded).
    """

    method: str
    path: str
    query: str
    accept: str | None
    if_none_match: str | None
    if_match: str | None
    auth_scheme: str | None
    user_agent: str | None
    status: int


class Journal:
    """A thread-safe list of :class:`JournalEntry`, oldest first."""

    def __init__(self) -> None:
        self._entries: list[JournalEntry] = []
        self._lock = threading.Lock()

    def record(self, entry: JournalEntry) -> None:
        with self._lock:
            self._entries.append(entry)

    def entries(self) -> list[JournalEntry]:
        """A copy of the entries so far."""
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
