"""Shards in a pool of processes on one machine: the fleet without Celery.

The same `ShardJob` pickles go to `concurrent.futures.ProcessPoolExecutor`
workers. With a Redis (``redis_url``) each shard checkpoints there, so a
run started again after a crash resumes, and the processes share one
request budget (``rate``, ``in_flight``); without one, each shard is walked
from its start and each process keeps its own limits.
"""

from __future__ import annotations

import multiprocessing.context
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from wadlclient.fleet.budget import RedisBudget
from wadlclient.fleet.checkpoints import Checkpoints
from wadlclient.fleet.settings import connect
from wadlclient.fleet.work import ShardJob, ShardReport, run_shard
from wadlclient.http.budget import use_budget

__all__ = ["run_in_processes", "start_worker"]

_checkpoints: Checkpoints | None = None


def start_worker(
    redis_url: str | None,
    rate: float | None = None,
    in_flight: int | None = None,
    then: Callable[[], object] | None = None,
) -> None:
    """Set up one worker process: its checkpoints and the shared budget (a pool's initializer).

    ``then``: the caller's own set-up, after (`wadlclient.supply_credentials`, say).
    """
    global _checkpoints
    if then is not None:
        then()
    if redis_url is None:
        if rate is not None or in_flight is not None:
            raise ValueError("a budget shared by processes needs a Redis: give redis_url")
        _checkpoints = None
        return
    client = connect(redis_url)
    _checkpoints = Checkpoints(client)
    if rate is not None or in_flight is not None:
        use_budget(RedisBudget(client, rate=rate, in_flight=in_flight))


def _run(job: ShardJob) -> ShardReport:
    return run_shard(job, _checkpoints)


def run_in_processes(
    jobs: Sequence[ShardJob],
    *,
    processes: int = 4,
    redis_url: str | None = None,
    rate: float | None = None,
    in_flight: int | None = None,
    mp_context: multiprocessing.context.BaseContext | None = None,
    initializer: Callable[[], object] | None = None,
) -> list[ShardReport]:
    """Run ``jobs`` in ``processes`` worker processes; their reports, in order.

    ``initializer``: called in each worker process first (credentials for
    the revived roots: ``wadlclient.supply_credentials``), a picklable function.

    The first error of a shard is raised once every shard has run or failed.
    """
    if (rate is not None or in_flight is not None) and redis_url is None:
        raise ValueError("a budget shared by processes needs a Redis: give redis_url")
    with ProcessPoolExecutor(
        processes,
        mp_context=mp_context,
        initializer=start_worker,
        initargs=(redis_url, rate, in_flight, initializer),
    ) as pool:
        return list(pool.map(_run, jobs))
