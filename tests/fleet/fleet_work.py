"""What the fleet's tests give their workers: work functions by import path, and helpers.

Importable by a Celery worker as ``fleet_work`` (the tests put this folder
on its ``PYTHONPATH``). Each work function records the entry it worked in
the fleet's Redis (``WADLCLIENT_FLEET_REDIS``), with the process that
worked it, so a test counts what every worker did.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import redis

WORKED = "test:worked"


def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ["WADLCLIENT_FLEET_REDIS"])


def record(entry: Any) -> None:
    """Note ``entry``'s address, and which process worked it."""
    _redis().rpush(WORKED, f"{os.getpid()} {entry.self_link}")


def record_after_a_wait(entry: Any) -> None:
    """As a call to another service does: wait 5 ms, then note the entry."""
    time.sleep(0.005)
    record(entry)


def worked(client: redis.Redis) -> list[tuple[int, str]]:
    """(process, entry address) for every entry worked so far, in order."""
    rows = [row.decode().split(" ", 1) for row in client.lrange(WORKED, 0, -1)]
    return [(int(pid), link) for pid, link in rows]


class RecipeShard:
    """A stand-in shard: recipes by id, one request each; its token is the position reached.

    Stands for ``Collection.shards(n)``'s shards (the walks of issue 41,
    built apart) while those are not merged: the same contract (picklable,
    ``walk(resume=None)``, a token after every entry), nothing more.
    """

    def __init__(self, base_url: str, ids: tuple[int, ...]) -> None:
        self.base_url = base_url
        self.ids = ids

    def walk(self, resume: str | None = None) -> RecipeWalk:
        return RecipeWalk(self, int(resume or 0))


class RecipeWalk:
    def __init__(self, shard: RecipeShard, start: int) -> None:
        self._shard = shard
        self.token: str | None = str(start)

    def __iter__(self) -> Iterator[Any]:
        from wadlclient import ServiceRoot

        root = ServiceRoot(None, self._shard.base_url)
        for position in range(int(self.token or 0), len(self._shard.ids)):
            entry = root.recipes[str(self._shard.ids[position])]
            self.token = str(position + 1)
            yield entry
