"""The fleet's Celery app: ``celery -A wadlclient.celery worker``.

Every worker reads the same environment (`wadlclient.fleet.settings`):
``WADLCLIENT_FLEET_REDIS`` is the broker, the result backend, the shards'
checkpoints and the request budget (``WADLCLIENT_FLEET_RATE``,
``WADLCLIENT_FLEET_IN_FLIGHT``), which each worker installs for all its
requests when it starts.

One task, `run_shard_task`, runs one `ShardJob`. It is acknowledged only
once done (``acks_late``), so a worker killed mid-shard leaves it on the
broker: Redis hands it to another worker after the visibility timeout,
and that one resumes from the shard's last checkpoint. A task delivered
while another worker still runs its shard waits and tries again
(`ShardBusy`). Jobs travel pickled (a shard is its position, a root a
recipe with no secret): give the broker's Redis to your own workers only,
as whoever may write there may have a worker unpickle what they wrote.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

try:
    from celery import Celery, Task, group
    from celery.result import GroupResult
    from celery.signals import worker_init, worker_process_init
except ImportError as error:
    raise ImportError(
        f"the fleet's Celery app needs Celery: pip install 'wadlclient[fleet]' ({error})"
    ) from None

from wadlclient.fleet.checkpoints import Checkpoints, ShardBusy, ShardTaken
from wadlclient.fleet.settings import FleetSettings, connect, settings_from_env
from wadlclient.fleet.work import ShardJob, ShardReport, run_shard
from wadlclient.http.budget import use_budget

__all__ = ["app", "configure", "reports", "run_shard_task", "submit"]

settings: FleetSettings = settings_from_env()


def _transport_options(fleet: FleetSettings) -> dict[str, Any]:
    """Redelivery after the visibility timeout, looked for often enough to notice it soon."""
    return {
        "visibility_timeout": fleet.visibility_timeout,
        "unacked_restore_interval": max(1, min(10, round(fleet.visibility_timeout / 4))),
        "unacked_restore_throttle": 1,
    }


app = Celery("wadlclient", broker=settings.broker_url, backend=settings.backend_url)
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_serializer="pickle",
    accept_content=["pickle", "json"],
    result_serializer="json",
    result_expires=7 * 86400,
    broker_transport_options=_transport_options(settings),
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)

_checkpoints: Checkpoints | None = None


def configure(fleet: FleetSettings) -> None:
    """Use ``fleet`` rather than the environment's settings (call before submitting anything)."""
    global settings, _checkpoints
    settings, _checkpoints = fleet, None
    app.conf.update(
        broker_url=fleet.broker_url,
        result_backend=fleet.backend_url,
        broker_transport_options=_transport_options(fleet),
    )


def _start_worker(**_: object) -> None:
    """In each worker process: the shared budget for every request, and the checkpoints."""
    global _checkpoints
    use_budget(settings.budget())
    _checkpoints = Checkpoints(connect(settings.redis_url), lease=settings.lease)


worker_init.connect(_start_worker, weak=False)
worker_process_init.connect(_start_worker, weak=False)


def _run_shard(self: Task, job: ShardJob) -> dict[str, Any]:
    """Run one shard from its last checkpoint; its `ShardReport` as a dict."""
    if _checkpoints is None:
        _start_worker()
    try:
        report = run_shard(job, _checkpoints, every=settings.checkpoint_every)
    except (ShardBusy, ShardTaken) as error:
        raise self.retry(exc=error, countdown=max(1.0, settings.lease / 4)) from error
    return dataclasses.asdict(report)


run_shard_task: Task = app.task(
    name="wadlclient.run_shard", bind=True, acks_late=True, max_retries=None
)(_run_shard)


def submit(jobs: Sequence[ShardJob]) -> GroupResult:
    """Send ``jobs`` to the fleet's workers; `reports` waits for them."""
    result: GroupResult = group(run_shard_task.s(job) for job in jobs).apply_async()
    return result


def reports(result: GroupResult, timeout: float | None = None) -> list[ShardReport]:
    """The shards' reports once every one is done (a shard's error raised)."""
    return [ShardReport(**report) for report in result.get(timeout=timeout)]
