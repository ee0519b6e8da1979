"""A mirror's shards walked in a pool of processes (the fleet's worker set-up, its budget).

Each worker walks one shard into its own part files and progress file
(`wadlclient.mirror.parts`), so they share nothing but the directory; the
parent shows progress by reading the shards' progress files.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from pathlib import Path

from wadlclient.fleet.pool import start_worker
from wadlclient.mirror.core import Progress, WalkAll
from wadlclient.mirror.parts import ShardProgress, walk_shard
from wadlclient.mirror.state import Run
from wadlclient.objects import Collection

__all__ = ["in_processes"]


def in_processes(
    processes: int,
    *,
    redis_url: str | None = None,
    rate: float | None = None,
    in_flight: int | None = None,
    initializer: Callable[[], object] | None = None,
) -> WalkAll:
    """A ``walk_all`` for `wadlclient.mirror.mirror`: its shards in ``processes`` processes.

    ``redis_url``/``rate``/``in_flight``: the fleet's shared request budget;
    ``initializer``: the caller's set-up in each worker (credentials).
    """

    def walk_all(directory: Path, run: Run, progress: Progress | None) -> None:
        with ProcessPoolExecutor(
            processes, initializer=start_worker, initargs=(redis_url, rate, in_flight, initializer)
        ) as pool:
            futures = [
                pool.submit(walk_shard, str(directory), index, walkable,
                            Collection.ITERATION_PAGE_SIZE, None, run.work, run.pages_ahead)
                for index, walkable in enumerate(run.walkables)
            ]  # fmt: skip
            _watch(directory, futures, progress)
        failures = [(i, f.exception()) for i, f in enumerate(futures) if f.exception()]
        for index, error in failures:
            print(f"wadlclient: shard {index}: {error}", file=sys.stderr)
        if failures:
            raise failures[0][1]  # type: ignore[misc]

    return walk_all


def _watch(directory: Path, futures: list[Future[int]], progress: Progress | None) -> None:
    shown = 0
    pending = set(futures)
    while pending:
        _done, pending = wait(pending, timeout=0.5, return_when=FIRST_EXCEPTION)
        if progress is not None:
            entries = sum(ShardProgress.load(directory, i).entries for i in range(len(futures)))
            progress.advance(entries - shown)
            shown = entries
