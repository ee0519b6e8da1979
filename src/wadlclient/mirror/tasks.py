"""A mirror's shards on the fleet's Celery workers: ``celery -A wadlclient.mirror.tasks worker``.

The same app as `wadlclient.celery` (its broker, its shared request budget,
``acks_late``) with one more task, `mirror_shard_task`: it walks one shard
into the mirror's directory, which the workers must see (one machine, or a
shared file system). A worker killed mid-shard leaves the task on the
broker; redelivered, it goes on from the shard's progress file.
"""

from __future__ import annotations

import time
from pathlib import Path

from celery import Task, group

from wadlclient.celery import app
from wadlclient.mirror.core import Progress, WalkAll
from wadlclient.mirror.parts import ShardProgress, walk_shard
from wadlclient.mirror.state import Run
from wadlclient.objects import Collection

__all__ = ["app", "mirror_shard_task", "on_celery"]


def _mirror_shard(
    self: Task, directory: str, index: int, walkable: str, work: str | None = None,
    pages_ahead: int | None = None,
) -> int:  # fmt: skip
    return walk_shard(
        directory, index, walkable, Collection.ITERATION_PAGE_SIZE, None, work, pages_ahead
    )


mirror_shard_task: Task = app.task(name="wadlclient.mirror_shard", bind=True, acks_late=True)(
    _mirror_shard
)


def on_celery(timeout: float | None = None) -> WalkAll:
    """A ``walk_all`` for `wadlclient.mirror.mirror`: one task per shard on the fleet."""

    def walk_all(directory: Path, run: Run, progress: Progress | None) -> None:
        tasks = group(
            mirror_shard_task.s(str(directory), index, walkable, run.work, run.pages_ahead)
            for index, walkable in enumerate(run.walkables)
        )
        result = tasks.apply_async()
        deadline = None if timeout is None else time.monotonic() + timeout
        shown = 0
        while not result.ready():
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the mirror's shards did not finish in {timeout} s")
            time.sleep(0.5)
            if progress is not None:
                count = len(run.walkables)
                entries = sum(ShardProgress.load(directory, i).entries for i in range(count))
                progress.advance(entries - shown)
                shown = entries
        result.get()  # a shard's error, raised here

    return walk_all
