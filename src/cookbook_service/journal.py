"""The request journal: one line per request the service answered.

Tests read it to count and inspect requests. It records the authorization
scheme (``Basic``, ``OAuth``) but never the credentials.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(frozen=True)
class JournalEntry:
    """One answered request.

    ``path`` and ``query`` are as sent on the wire (still percent-encoded).
    ``started`` and ``answered`` (``time.monotonic()``) bracket the request's
    time in the service, latency included: overlapping intervals show
    requests served concurrently. ``sent_bytes`` counts the answer's status
    line, headers and body. These three take no part in comparisons.
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
    started: float = field(default=0.0, compare=False)
    answered: float = field(default=0.0, compare=False)
    sent_bytes: int = field(default=0, compare=False)


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

    def most_concurrent(self) -> int:
        """The most requests that were in the service at one moment."""
        with self._lock:
            events = [(e.started, 1) for e in self._entries]
            events += [(e.answered, -1) for e in self._entries]
        busy = peak = 0
        for _when, change in sorted(events):
            busy += change
            peak = max(peak, busy)
        return peak

    def totals(self) -> tuple[int, int]:
        """How many requests were answered, and how many bytes were sent in all."""
        with self._lock:
            return len(self._entries), sum(e.sent_bytes for e in self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
