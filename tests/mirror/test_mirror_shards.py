"""Sharded mirrors give the same output as one process, after sorting (issue 42, point 4).

Locally the shards run in a pool of processes; on Celery, in a real worker
(``celery -A wadlclient.mirror.tasks worker``) on a real redis-server.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.fleet import FleetSettings
from wadlclient.mirror import mirror
from wadlclient.mirror.pool import in_processes

from .conftest import RECIPES, SOURCE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fleet"))
from celery_workers import Worker, start_workers, worker_env


def sorted_lines(path: Path) -> list[str]:
    return sorted(path.read_text().splitlines())


def one_process(service: RunningService, out: Path, format: str) -> list[str]:
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", out, format=format, **SOURCE)
    return sorted_lines(out / f"entries.{format}")


@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_four_local_shards_write_what_one_process_writes(
    service: RunningService, tmp_path: Path, format: str
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        report = mirror(
            root, "cookbooks", tmp_path / "sharded", format=format,
            shards=4, walk_all=in_processes(4), **SOURCE,
        )  # fmt: skip
    assert report.entries == RECIPES
    sharded = sorted_lines(tmp_path / "sharded" / f"entries.{format}")
    assert sharded == one_process(service, tmp_path / "single", format)


@pytest.fixture
def celery_worker(redis_url: str, tmp_path: Path) -> Iterator[Worker]:
    pytest.importorskip("celery", reason="the fleet extra (Celery) is missing")
    from wadlclient import celery as fleet_app

    fleet_app.configure(FleetSettings(redis_url, redis_url, redis_url))
    # A worker of the app with the mirror's task (``celery -A wadlclient.mirror.tasks worker``).
    env = worker_env(redis_url)
    with start_workers(["mirror"], env, tmp_path, threads=4, app="wadlclient.mirror.tasks") as [w]:
        w.wait_ready()
        yield w


def test_four_shards_on_celery_write_what_one_process_writes(
    service: RunningService, tmp_path: Path, celery_worker: Worker
) -> None:
    from wadlclient.mirror.tasks import on_celery

    with ServiceRoot(None, service.base_url) as root:
        report = mirror(
            root, "cookbooks", tmp_path / "sharded",
            shards=4, walk_all=on_celery(timeout=120), **SOURCE,
        )  # fmt: skip
    assert report.entries == RECIPES
    sharded = sorted_lines(tmp_path / "sharded" / "entries.jsonl")
    assert sharded == one_process(service, tmp_path / "single", "jsonl")


def test_a_shard_starting_leaves_the_other_shards_writes_alone(
    service: RunningService, tmp_path: Path
) -> None:
    """A shard that starts removes its own leftovers only: the others are mid-write beside it.

    The pool starts its shards one after another; a shard that removed every
    unfinished file on its start took a part the shard before it was writing
    (its rename then failed: seen on a CI run).
    """
    from wadlclient.mirror.parts import PARTS, dump_walkable, walk_shard

    out = tmp_path / "mirror"
    (out / PARTS).mkdir(parents=True)
    others = ["001-000001.jsonl.partial", "shard-001.json.partial", "001-000001.jsonl"]
    own = ["000-000009.jsonl", "000-000010.jsonl.partial", "shard-000.json.partial"]
    for name in others + own:
        (out / PARTS / name).write_text("{}\n")
    with ServiceRoot(None, service.base_url) as root:
        shard = root.cookbooks.find_recipes(search=SOURCE["args"]["search"]).shards(2)[0]

    walk_shard(str(out), 0, dump_walkable(shard), batch=50)

    left = {path.name for path in (out / PARTS).iterdir()}
    assert set(others) <= left
    assert not set(own) & left
