"""Shards run by `run_shard` with checkpoints in a real Redis, in this process and in a pool.

Celery's workers run the same function (tests/fleet/test_fleet_celery.py).
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.fleet import (
    Checkpoints,
    FleetError,
    ShardBusy,
    ShardJob,
    ShardTaken,
    run_in_processes,
    run_shard,
    shard_jobs,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fleet_work


@pytest.fixture
def fleet_redis(empty_redis: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    """The fleet's Redis, named in the environment as a worker finds it."""
    monkeypatch.setenv("WADLCLIENT_FLEET_REDIS", empty_redis)
    client = redis.Redis.from_url(empty_redis)
    yield client
    client.close()


def test_a_shard_run_again_after_a_crash_resumes_after_its_last_checkpoint(
    cookbook_service: RunningService, fleet_redis: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    recipes = ServiceRoot(None, cookbook_service.base_url).recipes
    [job] = shard_jobs(recipes, 1, "fleet_work:record_until_the_fifth", job="crash")
    checkpoints = Checkpoints(fleet_redis)
    monkeypatch.setattr(fleet_work, "_seen", 0)
    with pytest.raises(fleet_work.Crash):
        run_shard(job, checkpoints)

    report = run_shard(ShardJob("crash", 0, job.shard, "fleet_work:record"), checkpoints)

    done = Counter(link for _pid, link in fleet_work.worked(fleet_redis))
    assert sorted(done) == sorted(recipe.self_link for recipe in recipes)
    assert set(done.values()) == {1}  # the entry that failed was not checkpointed: worked now
    assert report.resumed and report.worked == len(done) - 4


class _HeldWalk:
    """A walk of three items whose first waits for ``go``: reading a page that takes long."""

    def __init__(self, go: threading.Event, resume: str | None) -> None:
        self._go = go
        self.token: str | None = resume

    def __iter__(self) -> Iterator[str]:
        for position in range(int(self.token or 0), 3):
            if position == 0:
                self._go.wait(10)
            self.token = str(position + 1)
            yield f"item {position}"


class SlowShard:
    def __init__(self, go: threading.Event) -> None:
        self.go = go

    def walk(self, resume: str | None = None) -> _HeldWalk:
        return _HeldWalk(self.go, resume)


def test_a_worker_whose_lease_ran_out_while_reading_stops_before_working_twice(
    fleet_redis: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    fleet_work.REMEMBERED.clear()
    slow, quick = threading.Event(), threading.Event()
    quick.set()
    checkpoints = Checkpoints(fleet_redis, lease=0.3)
    owner = checkpoints.key("lapse", 0) + ":owner"
    failed: list[BaseException] = []

    def first_worker() -> None:
        try:
            run_shard(ShardJob("lapse", 0, SlowShard(slow), "fleet_work:remember"), checkpoints)
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=first_worker)
    thread.start()
    while not fleet_redis.exists(owner):
        time.sleep(0.01)
    # A slow read no longer lets the lease run out (it is renewed meanwhile): its owner's
    # process frozen longer than the lease (SIGSTOP, a paused VM) does. The lease is taken
    # away here as it then runs out; a process cannot freeze one of its own threads.
    fleet_redis.delete(owner)
    run_shard(ShardJob("lapse", 0, SlowShard(quick), "fleet_work:remember"), checkpoints)
    deadline = time.monotonic() + 10
    while "the lease ran out" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.01)  # the first worker's renewal finds the shard another's
    slow.set()
    thread.join(10)

    assert fleet_work.REMEMBERED == ["item 0", "item 1", "item 2"]
    assert [type(error) for error in failed] == [ShardTaken]


def test_a_lease_is_renewed_while_an_entry_is_read_slowly(fleet_redis: redis.Redis) -> None:
    fleet_work.REMEMBERED.clear()
    slow = threading.Event()
    checkpoints = Checkpoints(fleet_redis, lease=0.3)
    job = ShardJob("renewed", 0, SlowShard(slow), "fleet_work:remember")
    thread = threading.Thread(target=run_shard, args=(job, checkpoints))
    thread.start()
    owner = checkpoints.key("renewed", 0) + ":owner"
    while not fleet_redis.exists(owner):
        time.sleep(0.01)
    held_for = 0
    while held_for < 10:  # more than three leases while the first entry is read
        with pytest.raises(ShardBusy):
            checkpoints.claim("renewed", 0)
        time.sleep(0.1)
        held_for += 1
    slow.set()
    thread.join(10)

    assert fleet_work.REMEMBERED == ["item 0", "item 1", "item 2"]


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("fleet_work.record", "package.module:function"),
        ("no_such_module_here:work", "cannot import"),
        ("fleet_work:no_such_function", "has no"),
        ("fleet_work:WORKED", "not callable"),
    ],
)
def test_work_that_names_nothing_callable_is_one_clear_error(path: str, why: str) -> None:
    with pytest.raises(FleetError, match=why) as caught:
        shard_jobs(_NoShards(), 2, path, job="bad")

    assert repr(path) in str(caught.value)


class _NoShards:
    def shards(self, n: int) -> list[object]:
        raise AssertionError("the work is checked before the collection is split")


def test_a_pool_of_processes_works_every_entry_once(
    cookbook_service: RunningService, fleet_redis: redis.Redis, empty_redis: str
) -> None:
    recipes = ServiceRoot(None, cookbook_service.base_url).recipes
    jobs = shard_jobs(recipes, 3, "fleet_work:record", job="pool")

    # forkserver: a child forked from this process would copy the service's threads' locks.
    fresh = multiprocessing.get_context("forkserver")
    reports = run_in_processes(jobs, processes=2, redis_url=empty_redis, mp_context=fresh)

    done = [link for _pid, link in fleet_work.worked(fleet_redis)]
    assert sorted(done) == sorted(recipe.self_link for recipe in recipes)
    assert [report.index for report in reports] == [0, 1, 2]
