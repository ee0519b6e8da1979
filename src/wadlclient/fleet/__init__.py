"""Jobs that outgrow one process: shards run by many workers under one request budget.

`run_shard` runs one `ShardJob` (a shard of a collection and the user's
function, by import path) from its last checkpoint in Redis; a pool of
processes (`run_in_processes`) or Celery's workers (`wadlclient.celery`)
run many. `RedisBudget` holds the rate and the requests in flight of every
process that shares it. docs/fleet.md shows a job grow from one process
to a pool, then to Celery.
"""

from wadlclient.fleet.budget import RedisBudget
from wadlclient.fleet.checkpoints import Checkpoints, ShardBusy, ShardTaken
from wadlclient.fleet.pool import run_in_processes
from wadlclient.fleet.settings import FleetSettings, settings_from_env
from wadlclient.fleet.work import FleetError, ShardJob, ShardReport, run_shard, shard_jobs

__all__ = [
    "Checkpoints",
    "FleetError",
    "FleetSettings",
    "RedisBudget",
    "ShardBusy",
    "ShardJob",
    "ShardReport",
    "ShardTaken",
    "run_in_processes",
    "run_shard",
    "settings_from_env",
    "shard_jobs",
]
