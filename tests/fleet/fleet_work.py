"""What the fleet's tests give their workers: work functions by import path, and helpers.

Importable by a Celery worker as ``fleet_work`` (the tests put this folder
on its ``PYTHONPATH``). Each work function records the entry it worked in
the fleet's Redis (``WADLCLIENT_FLEET_REDIS``), with the process that
worked it, so a test counts what every worker did.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis

WORKED = "test:worked"


def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ["WADLCLIENT_FLEET_REDIS"])


def record(entry: Any) -> None:
    """Note ``entry``'s address, and which process worked it."""
    _redis().rpush(WORKED, f"{os.getpid()} {entry.self_link}")


def refresh(entry: Any) -> None:
    """Read ``entry`` again from the service (one request each), then note it."""
    entry.lp_refresh()
    record(entry)


def record_after_a_wait(entry: Any) -> None:
    """As a call to another service does: wait 5 ms, then note the entry."""
    time.sleep(0.005)
    record(entry)


def record_after_a_long_wait(entry: Any) -> None:
    """Wait 5 s (more than the test fleet's lease and visibility timeout), then note the entry."""
    time.sleep(5)
    record(entry)


def worked(client: redis.Redis) -> list[tuple[int, str]]:
    """(process, entry address) for every entry worked so far, in order."""
    rows = [row.decode().split(" ", 1) for row in client.lrange(WORKED, 0, -1)]
    return [(int(pid), link) for pid, link in rows]


class Crash(Exception):
    """The work's own failure, raised by `record_until_the_fifth`."""


def record_until_the_fifth(entry: Any) -> None:
    """Note entries, and fail on the fifth this process sees (a crash midway through a shard)."""
    global _seen
    _seen += 1
    if _seen == 5:
        raise Crash(entry.self_link)
    record(entry)


_seen = 0
REMEMBERED: list[object] = []


def remember(item: object) -> None:
    """Keep ``item`` in this process (for tests that run shards in their own process)."""
    REMEMBERED.append(item)
