"""One shard of a job, run anywhere: the user's function over each entry, a checkpoint after each.

Celery's task (`wadlclient.celery`) and a process pool (`wadlclient.fleet.pool`)
both run a `ShardJob` with `run_shard`: the job pickles (the shard pickles
as its position, the root as a recipe; the work as its import path, so the
worker imports the user's code itself), and the checkpoints make a task
run again after a crash resume from the entry after the last one worked.

An entry is worked at least once: a worker killed between an entry's work
and the next checkpoint (at most a second later, by default) works it
again when the shard resumes; the work should not mind (an upsert, not an
append).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from wadlclient.errors import RestfulError
from wadlclient.fleet.checkpoints import Checkpoints, ShardTaken

__all__ = ["FleetError", "ShardJob", "ShardReport", "Walkable", "resolve_work", "run_shard"]


#: Seconds between two checkpoints of a shard, at most.
DEFAULT_EVERY = 1.0


class FleetError(RestfulError, ValueError):
    """A job the fleet cannot run (its work path names nothing callable); the message says why."""


class _Walk(Protocol):
    """A walk: entries one by one, and after each the token that resumes after it."""

    @property
    def token(self) -> str | None: ...

    def __iter__(self) -> Iterator[Any]: ...


class Walkable(Protocol):
    """A shard of a collection (or a whole collection): walked from the start or from a token."""

    def walk(self, resume: str | None = None) -> _Walk: ...


@dataclass(frozen=True)
class ShardJob:
    """Shard ``index`` of job ``job``: what a worker needs to run it, pickled.

    ``work``: the function called with each entry, as ``"package.module:function"``.
    ``job`` and ``index`` name the shard's checkpoint: the same job run again
    resumes (or skips the shards it finished); a new run needs a new name.
    """

    job: str
    index: int
    shard: Walkable
    work: str


@dataclass(frozen=True)
class ShardReport:
    """What one run of a shard did: entries worked now, and in all runs of it so far."""

    job: str
    index: int
    worked: int
    total: int
    resumed: bool
    already_done: bool = False


def resolve_work(path: str) -> Callable[[Any], object]:
    """The function ``"package.module:function"`` names (dotted attributes after the colon)."""
    module_name, colon, attributes = path.partition(":")
    if not colon or not module_name or not attributes:
        raise FleetError(f"work must be given as 'package.module:function', not {path!r}")
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise FleetError(f"work {path!r}: cannot import {module_name!r} ({error})") from None
    for name in attributes.split("."):
        try:
            found = getattr(found, name)
        except AttributeError:
            raise FleetError(f"work {path!r}: {module_name!r} has no {attributes!r}") from None
    if not callable(found):
        raise FleetError(f"work {path!r} is not callable ({type(found).__name__})")
    return found  # type: ignore[no-any-return]


def run_shard(
    job: ShardJob, checkpoints: Checkpoints | None = None, *, every: float = DEFAULT_EVERY
) -> ShardReport:
    """Work each entry of ``job``'s shard not worked yet, checkpointing as it goes.

    A checkpoint is written at most every ``every`` seconds (0: after each
    entry), when the work raises, and at the end: a worker killed outright
    works again at most the entries of its last ``every`` seconds; a round
    trip to Redis per entry would cost more than a short work does.
    Raises `ShardBusy` when another worker runs the shard now, and
    `ShardTaken` when this one lost it midway (both: try again later).
    """
    work = resolve_work(job.work)
    if checkpoints is None:
        worked = 0
        for entry in job.shard.walk():
            work(entry)
            worked += 1
        return ShardReport(job.job, job.index, worked, worked, resumed=False)
    claim = checkpoints.claim(job.job, job.index)
    if claim.done:
        checkpoints.release(claim)
        return ShardReport(job.job, job.index, 0, claim.entries, resumed=True, already_done=True)
    resumed, worked, token = claim.token is not None, 0, claim.token
    saved = time.monotonic()
    try:
        # The lease is renewed on a thread of its own while the shard runs: a slow page,
        # a wait for the budget or a long work cannot let it run out midway.
        with checkpoints.renewing(claim) as lease:
            walk = job.shard.walk(resume=token)
            for entry in walk:
                lease.check()
                work(entry)
                token, worked, claim.entries = walk.token, worked + 1, claim.entries + 1
                if time.monotonic() - saved >= every:
                    saved = time.monotonic()
                    checkpoints.save(claim, token)
                    lease.confirmed()
        checkpoints.save(claim, token, done=True)
    except ShardTaken:
        raise
    except BaseException:
        with contextlib.suppress(Exception):
            checkpoints.save(claim, token)  # what was worked before the error
        checkpoints.release(claim)
        raise
    return ShardReport(job.job, job.index, worked, claim.entries, resumed)


class _Shardable(Protocol):
    def shards(self, n: int) -> list[Any]: ...


def shard_jobs(collection: _Shardable, n: int, work: str, *, job: str) -> list[ShardJob]:
    """``collection`` split into ``n`` shards, each a `ShardJob` of ``job`` with ``work``.

    The work path is checked here, before anything is sent to a worker.
    """
    resolve_work(work)
    return [ShardJob(job, index, shard, work) for index, shard in enumerate(collection.shards(n))]
