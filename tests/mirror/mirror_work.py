"""Per-entry work for the mirror's tests, by import path (``mirror_work:note``).

Each function notes the entry it worked as a line of the file
``$MIRROR_WORK_LOG`` (appended whole, so processes working shards side by
side each add whole lines), so a test counts what every process did.
"""

from __future__ import annotations

import os
import time
from typing import Any


class Crash(Exception):
    """The work's own failure, raised by `note_until_the_fifth`."""


def note(entry: Any) -> None:
    """Note ``entry``'s address."""
    with open(os.environ["MIRROR_WORK_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{entry.self_link}\n")


def note_until_the_fifth(entry: Any) -> None:
    """Note entries, and fail on the fifth this process sees (the other system went away)."""
    global _seen
    _seen += 1
    if _seen == 5:
        raise Crash(entry.self_link)
    note(entry)


_seen = 0


def note_then_stall(entry: Any) -> None:
    """Note entries; on the second, note ``stalled`` and wait (a call that hangs) until killed."""
    global _seen
    _seen += 1
    if _seen == 2:
        with open(os.environ["MIRROR_WORK_LOG"], "a", encoding="utf-8") as log:
            log.write("stalled\n")
        time.sleep(600)
    note(entry)


def noted(path: str) -> list[str]:
    """Every address noted so far, in order."""
    with open(path, encoding="utf-8") as log:
        return log.read().splitlines()
