"""A fleet on Celery: real worker processes, a real redis-server, the service's journal.

Two workers (``celery -A wadlclient.celery worker``, two threads each)
serve the whole module, held to a budget of 20 requests a second. The
work function records each entry it worked in Redis (tests/fleet/fleet_work.py).
The test that kills a worker runs last: the module's other worker finishes
its shard.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from cookbook_service.testing import RunningService
from wadlclient.fleet import FleetSettings, ShardJob

sys.path.insert(0, str(Path(__file__).resolve().parent))
from celery_workers import Worker, worker_env  # noqa: E402
from fleet_work import WORKED, RecipeShard, worked  # noqa: E402

celery_app = pytest.importorskip("wadlclient.celery", reason="the fleet extra (Celery) is missing")

RATE = 20
#: Short, so that a killed worker's shard comes back within the test.
REDELIVERY = {"visibility_timeout": "2", "lease": "2"}
SEEDED = 60
FIRST_GENERATED = 1 + 8  # the service's seed has 8 recipes; generated ones follow


@dataclass
class Fleet:
    redis: redis.Redis
    workers: list[Worker]


@pytest.fixture(scope="module")
def fleet(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    logs = tmp_path_factory.mktemp("workers")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    celery_app.configure(
        FleetSettings(redis_url, redis_url, redis_url, visibility_timeout=2, lease=2)
    )
    env = worker_env(redis_url, rate=str(RATE), **REDELIVERY)
    workers = [Worker(f"w{n}", env, logs / f"w{n}.log", threads=2) for n in range(2)]
    try:
        for worker in workers:
            worker.wait_ready()
        yield Fleet(client, workers)
    finally:
        for worker in workers:
            worker.stop()
        client.close()


def recipe_shards(service: RunningService, shards: int) -> list[RecipeShard]:
    ids = tuple(range(FIRST_GENERATED, FIRST_GENERATED + SEEDED))
    return [RecipeShard(service.base_url, ids[n::shards]) for n in range(shards)]


def links(service: RunningService) -> set[str]:
    return {
        f"{service.base_url}1.0/recipes/{n}"
        for n in range(FIRST_GENERATED, FIRST_GENERATED + SEEDED)
    }


@pytest.fixture
def service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    return cookbook_service_factory(seed_recipes=SEEDED)


def test_a_fleet_works_every_entry_once_within_the_shared_rate(
    fleet: Fleet, service: RunningService
) -> None:
    fleet.redis.delete(WORKED)
    jobs = [
        ShardJob("once", n, shard, "fleet_work:record")
        for n, shard in enumerate(recipe_shards(service, 4))
    ]

    reports = celery_app.reports(celery_app.submit(jobs), timeout=120)

    done = [link for _pid, link in worked(fleet.redis)]
    assert sorted(done) == sorted(links(service))
    assert sum(report.worked for report in reports) == SEEDED
    starts = sorted(entry.started for entry in service.journal.entries())
    busiest = max(sum(1 for s in starts if first <= s < first + 1.0) for first in starts)
    assert busiest <= RATE * 1.1


def test_a_finished_job_submitted_again_works_nothing(
    fleet: Fleet, service: RunningService
) -> None:
    fleet.redis.delete(WORKED)
    jobs = [ShardJob("again", 0, recipe_shards(service, 6)[0], "fleet_work:record")]
    celery_app.reports(celery_app.submit(jobs), timeout=60)

    [report] = celery_app.reports(celery_app.submit(jobs), timeout=60)

    assert report.already_done and report.worked == 0
    assert len(worked(fleet.redis)) == SEEDED // 6


def test_a_worker_killed_mid_shard_loses_no_entry(fleet: Fleet, service: RunningService) -> None:
    fleet.redis.delete(WORKED)
    jobs = [
        ShardJob("killed", n, shard, "fleet_work:record")
        for n, shard in enumerate(recipe_shards(service, 2))
    ]
    result = celery_app.submit(jobs)
    deadline = time.monotonic() + 60
    while len(worked(fleet.redis)) < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    busy = worked(fleet.redis)[-1][0]
    [victim] = [worker for worker in fleet.workers if worker.pid == busy]

    victim.kill()
    reports = celery_app.reports(result, timeout=120)

    done = Counter(link for _pid, link in worked(fleet.redis))
    assert set(done) == links(service)
    # The entry worked when the worker died may be worked again: at most one per shard.
    assert sum(done.values()) - len(done) <= 1
    assert any(report.resumed for report in reports)
