"""A job that outgrows one process (issue 41): one process, 4 processes, 4 Celery workers.

The job walks the example service's recipes at 150 ms latency and works
each entry for 5 ms (a wait, as a call to another service is: this machine
has 2 cores, so the fleet's gain is in waiting side by side, not in CPU).

- one process: ``for recipe in root.recipes: work(recipe)``;
- 4 processes: the collection's 4 shards in a process pool
  (`wadlclient.fleet.run_in_processes`), checkpoints in Redis;
- 4 Celery workers: the same 4 shards sent to 4 ``celery -A wadlclient.celery
  worker --pool=solo`` processes started and warmed by one job beforehand
  (as a deployed fleet is), checkpoints in Redis.

The shards' rows share the HTTP cache in the same Redis, as a fleet
should: each worker's root reads the WADL from there, not the service.

Each sample is a fresh child process, timed from opening the root (the
shards are made in that time) to the last entry worked; the service's
journal counts the requests. Goal: 4 workers at least 3x faster than one
process. ``python -m benchmarks.jobs [--smoke]`` prints the section.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.config import REPO_ROOT, ServiceSpec, measured_env
from benchmarks.redis_server import redis_server
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service

LATENCY = 150
ENTRIES = 4000
SAMPLES = 3
WORKERS = 4
ROWS = ("one process", "4 processes", "4 Celery workers")


def wait_5ms(entry: object) -> None:
    """The per-entry work: 5 ms of waiting, as a call to another service."""
    time.sleep(0.005)


WORK = "benchmarks.jobs:wait_5ms"


def _journal(base_url: str, method: str = "GET") -> int:
    import httpx

    # No CA bundle (about 70 ms of CPU per client): the service is plain HTTP on loopback.
    with httpx.Client(timeout=30, verify=False) as client:
        answer = client.request(method, base_url + "_journal")
    requests: int = answer.json()["requests"]
    return requests


def child(row: str, base_url: str, redis_url: str) -> dict[str, Any]:
    """In the child: one sample of ``row``, its seconds, entries worked and requests."""
    from wadlclient import ServiceRoot
    from wadlclient.fleet import run_in_processes, shard_jobs

    job = f"bench-{uuid.uuid4().hex}"
    if row == "4 Celery workers":
        from wadlclient import celery as fleet_app
        from wadlclient.fleet import FleetSettings

        fleet_app.configure(FleetSettings(redis_url, redis_url, redis_url))
    _journal(base_url, "DELETE")
    started = time.perf_counter()
    # The fleet's rows share the HTTP cache in Redis: a worker's root finds the WADL there.
    root = ServiceRoot(None, base_url, cache=None if row == "one process" else redis_url)
    if row == "one process":
        worked = sum(1 for recipe in root.recipes if wait_5ms(recipe) is None)
    else:
        jobs = shard_jobs(root.recipes, WORKERS, WORK, job=job)
        if row == "4 processes":
            reports = run_in_processes(jobs, processes=WORKERS, redis_url=redis_url)
        else:
            reports = fleet_app.reports(fleet_app.submit(jobs), timeout=600)
        worked = sum(report.worked for report in reports)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "worked": worked, "requests": _journal(base_url)}


@contextmanager
def celery_workers(redis_url: str, logs: Path, app: str = "wadlclient.celery") -> Iterator[None]:
    """``WORKERS`` worker processes of the fleet's ``app`` on ``redis_url``, stopped at the end."""
    env = measured_env()
    env["WADLCLIENT_FLEET_REDIS"] = redis_url
    if os.geteuid() == 0:
        env["C_FORCE_ROOT"] = "1"  # Celery refuses pickled jobs as root unless told
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(WORKERS):
            command = [
                sys.executable, "-m", "celery", "-A", app, "worker",
                "--pool=solo", f"--hostname=bench{n}@%h", "--without-gossip",
                "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
            ]  # fmt: skip
            with (logs / f"celery-{n}.log").open("wb") as out:
                processes.append(
                    subprocess.Popen(
                        command, cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
                    )
                )
        for n, process in enumerate(processes):
            log = logs / f"celery-{n}.log"
            deadline = time.monotonic() + 120
            while b" ready." not in log.read_bytes():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"celery worker {n} did not start: {log.read_text()}")
                time.sleep(0.1)
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)


def measure(scratch: Path, smoke: bool = False) -> dict[str, Any]:
    """``{row: samples}`` and the size measured."""
    samples, entries = (1, 200) if smoke else (SAMPLES, ENTRIES)
    spec = ServiceSpec(f"jobs-{LATENCY}-{entries}", entries, latency_ms=LATENCY, page_size=75)
    results: dict[str, Any] = {"entries": entries, "rows": {}}
    with (
        redis_server() as redis,
        cookbook_service(spec, scratch) as server,
        celery_workers(redis.url, scratch),
    ):
        # A deployed fleet's workers are warm: one job first, not measured.
        run_child("benchmarks.jobs", ROWS[2], server.base_url, redis.url)
        for row in ROWS:
            results["rows"][row] = []
            for _ in range(samples):
                got = run_child("benchmarks.jobs", row, server.base_url, redis.url)
                results["rows"][row].append(got)
                print(f"  {row}: {got['seconds']:.2f} s, {got['worked']} entries, "
                      f"{got['requests']} requests", flush=True)  # fmt: skip
    return results


def markdown(results: dict[str, Any]) -> str:
    """The rows side by side, the speed-up against one process."""
    rows: dict[str, list[dict[str, Any]]] = results["rows"]
    one = statistics.median(s["seconds"] for s in rows["one process"])
    lines = [
        f"## A job that outgrows one process: {results['entries']} entries at {LATENCY} ms",
        "",
        f"Medians of {len(rows['one process'])} samples, each a fresh process timed from "
        "opening the root to the last entry worked (shards made in that time). Each entry "
        "is worked for 5 ms of waiting; pages of 75. The shards checkpoint in Redis and share "
        "the HTTP cache there (the workers find the WADL the first process read). "
        "Goal: 4 Celery workers at least 3x faster than one process.",
        "",
        "| row | wall (median) | speed-up | entries | requests |",
        "|---|---|---|---|---|",
    ]
    for row, samples in rows.items():
        median = statistics.median(s["seconds"] for s in samples)
        worked = min(s["worked"] for s in samples)
        requests = max(s["requests"] for s in samples)
        lines.append(f"| {row} | {median:.2f} s | {one / median:.2f}x | {worked} | {requests} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.jobs", doc=__doc__, child_args=3, child=child,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
