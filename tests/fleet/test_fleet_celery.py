"""A fleet on Celery: real worker processes, a real redis-server, the service's journal.

Two workers (``celery -A wadlclient.celery worker``, two threads each)
serve the whole module, held to a budget of 20 requests a second and 3 in
flight. The work functions record each entry worked in Redis
(tests/fleet/fleet_work.py). The test that kills a worker runs last: the
module's other worker finishes its shard.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from cookbook_service.journal import JournalEntry
from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.fleet import FleetSettings, shard_jobs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from celery_workers import Worker, start_workers, worker_env
from fleet_work import WORKED, worked

celery_app = pytest.importorskip("wadlclient.celery", reason="the fleet extra (Celery) is missing")

RATE, IN_FLIGHT = 20, 3
#: Short, so that a killed worker's shard comes back within the test; a checkpoint per entry.
REDELIVERY = {"visibility_timeout": "2", "lease": "2", "checkpoint_every": "0"}


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
    env = worker_env(redis_url, rate=str(RATE), in_flight=str(IN_FLIGHT), **REDELIVERY)
    try:
        with start_workers(["w0", "w1"], env, logs, threads=2) as workers:
            for worker in workers:
                worker.wait_ready()
            yield Fleet(client, workers)
    finally:
        client.close()


@pytest.fixture
def service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """60 recipes more than the seed's, pages of 5."""
    return cookbook_service_factory(seed_recipes=60)


def most_concurrent(entries: Iterable[JournalEntry]) -> int:
    """The most of ``entries`` that were in the service at one moment."""
    events = sorted(event for e in entries for event in ((e.started, 1), (e.answered, -1)))
    busy = peak = 0
    for _when, change in events:
        busy += change
        peak = max(peak, busy)
    return peak


def every_link(service: RunningService) -> list[str]:
    """The recipes one walk yields; the journal forgets the requests it took."""
    links = [recipe.self_link for recipe in ServiceRoot(None, service.base_url).recipes]
    service.journal.clear()
    return links


def test_a_fleet_works_every_entry_once_within_the_shared_budget(
    fleet: Fleet, service: RunningService
) -> None:
    fleet.redis.delete(WORKED)
    expected = every_link(service)
    recipes = ServiceRoot(None, service.base_url).recipes
    jobs = shard_jobs(recipes, 4, "fleet_work:refresh", job="once")
    service.journal.clear()  # what the test's own root sent to make the shards is not the fleet's

    reports = celery_app.reports(celery_app.submit(jobs), timeout=120)

    done = [link for _pid, link in worked(fleet.redis)]
    assert sorted(done) == sorted(expected)
    # A shard that outlasts the broker's visibility timeout is delivered again and resumes
    # from its checkpoint: its report's `worked` counts that delivery, `total` every one.
    assert sum(report.total for report in reports) == len(expected)
    entries = service.journal.entries()
    starts = sorted(entry.started for entry in entries)
    busiest = max(sum(1 for s in starts if first <= s < first + 1.0) for first in starts)
    assert busiest <= RATE * 1.1
    # A root that opens sends its WADL request while its JSON is on the way, one request
    # over the budget while it starts (wadlclient.http.budget); every other request within.
    assert most_concurrent(e for e in entries if e.path != "/1.0/") <= IN_FLIGHT


def test_a_finished_job_submitted_again_works_nothing(
    fleet: Fleet, service: RunningService
) -> None:
    fleet.redis.delete(WORKED)
    recipes = ServiceRoot(None, service.base_url).recipes
    jobs = shard_jobs(recipes, 6, "fleet_work:record", job="again")[:1]
    [first] = celery_app.reports(celery_app.submit(jobs), timeout=60)

    [again] = celery_app.reports(celery_app.submit(jobs), timeout=60)

    assert again.already_done and again.worked == 0
    assert len(worked(fleet.redis)) == first.worked > 0


def test_an_entry_whose_work_outlasts_the_lease_is_worked_once(
    fleet: Fleet, service: RunningService
) -> None:
    # The work takes longer than the lease and the visibility timeout (2 s): Redis hands the
    # task to another worker while the first still works the entry. The first keeps renewing
    # its lease meanwhile, so the second delivery waits and then finds the shard done; a
    # lease renewed only between entries ran out, and the second delivery worked it too.
    fleet.redis.delete(WORKED)
    recipes = ServiceRoot(None, service.base_url).recipes
    [job, *_] = shard_jobs(recipes, len(recipes), "fleet_work:record_after_a_long_wait", job="slow")

    celery_app.reports(celery_app.submit([job]), timeout=60)

    assert [link for _pid, link in worked(fleet.redis)] == [recipes[0].self_link]


def test_a_worker_killed_mid_shard_loses_no_entry(fleet: Fleet, service: RunningService) -> None:
    fleet.redis.delete(WORKED)
    expected = every_link(service)
    recipes = ServiceRoot(None, service.base_url).recipes
    result = celery_app.submit(shard_jobs(recipes, 2, "fleet_work:refresh", job="killed"))
    deadline = time.monotonic() + 60
    while len(worked(fleet.redis)) < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    busy = worked(fleet.redis)[-1][0]
    [victim] = [worker for worker in fleet.workers if worker.pid == busy]

    victim.kill()
    reports = celery_app.reports(result, timeout=120)

    done = Counter(link for _pid, link in worked(fleet.redis))
    assert set(done) == set(expected)
    # The entry being worked when the worker died may be worked again: one at most.
    assert sum(done.values()) - len(done) <= 1
    assert any(report.resumed for report in reports)
