"""Mirrors (issue 42) of 20,000 recipes at 150 ms latency: first mirror, second mirror
(unchanged, with and without the server's filter), a first mirror in 4 shards, and the
same first mirror with per-entry work that waits 5 ms in one process, in 4 local
shards and in 4 shards on 4 Celery workers.

Each sample is a fresh child process mirroring the generated recipes
(``find_recipes(search="Generated")``) into a scratch directory, timed
from opening the root to the output in place; a "second" row makes its
first mirror untimed. The service's journal counts the requests. Beside
each wall time, its limit: the pages (the requests the service saw) x the
latency / the requests a row keeps in flight (one walk keeps its page and
``Collection.PREFETCH_DEPTH`` more; 4 shards four times that; a filtered
run's few requests go one after another); for the rows with work, the
larger of that and the work's own waits (entries x 5 ms / the processes
working). Every sample's output, its lines sorted, is hashed: the section
says whether all rows wrote the same bytes. The Celery workers (``celery -A
wadlclient.mirror.tasks worker --pool=solo``, one shard each) are started
and warmed by one mirror beforehand, as a deployed fleet is.
``python -m benchmarks.mirrors [--smoke]`` prints the section.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.config import ServiceSpec
from benchmarks.jobs import WORK, WORKERS, _journal, celery_workers
from benchmarks.redis_server import redis_server
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service

LATENCY = 150
ENTRIES = 20_000
SAMPLES = 3
#: The seconds ``benchmarks.jobs.wait_5ms`` waits for each entry.
WAIT = 0.005
ONE_WORKING = "first mirror, 5 ms work an entry"
ROWS = ("first mirror", "second, unchanged, no filter", "second, unchanged, modified_since",
        "first mirror, 4 shards", ONE_WORKING, "4 shards, 5 ms work an entry",
        "4 shards on 4 Celery workers, 5 ms work an entry")  # fmt: skip
SOURCE: dict[str, Any] = {"op": "find_recipes", "args": {"search": "Generated"}}
FILTER = {"since_arg": "modified_since", "since_field": "date_last_modified"}


def in_flight(row: str) -> int:
    from wadlclient.objects import Collection

    walk = 1 + Collection.PREFETCH_DEPTH
    if "4 shards" in row:
        return WORKERS * walk
    return 1 if "modified_since" in row else walk


def limit(row: str, requests: int, entries: int) -> float:
    """The row's floor in seconds: its round trips side by side, or its work's waits."""
    trips = requests * LATENCY / 1000 / in_flight(row)
    if "work" not in row:
        return trips
    return max(trips, entries * WAIT / (WORKERS if "4 shards" in row else 1))


def _digest(path: Path) -> str:
    """The output's lines, sorted, hashed: equal digests, the same bytes after sorting."""
    return hashlib.sha256("\n".join(sorted(path.read_text().splitlines())).encode()).hexdigest()


def child(row: str, base_url: str, redis_url: str) -> dict[str, Any]:
    """In the child: one sample of ``row``: seconds, entries, requests, the output's digest."""
    from wadlclient import ServiceRoot
    from wadlclient.mirror import mirror
    from wadlclient.mirror.pool import in_processes

    options: dict[str, Any] = {**SOURCE, **(FILTER if "modified_since" in row else {})}
    if "work" in row:
        options["work"] = WORK
    if "Celery" in row:
        from wadlclient import celery as fleet_app
        from wadlclient.fleet import FleetSettings
        from wadlclient.mirror.tasks import on_celery

        fleet_app.configure(FleetSettings(redis_url, redis_url, redis_url))
        options.update(shards=WORKERS, walk_all=on_celery(timeout=1200))
    elif "4 shards" in row:
        options.update(shards=WORKERS, walk_all=in_processes(WORKERS))
    with tempfile.TemporaryDirectory() as out:
        if row.startswith("second"):
            with ServiceRoot(None, base_url) as root:
                mirror(root, "cookbooks", out, **options)
        _journal(base_url, "DELETE")
        started = time.perf_counter()
        with ServiceRoot(None, base_url) as root:
            report = mirror(root, "cookbooks", out, **options)
        seconds = time.perf_counter() - started
        digest = _digest(Path(out) / "entries.jsonl")
    return {"seconds": seconds, "entries": report.entries, "requests": _journal(base_url),
            "digest": digest}  # fmt: skip


def measure(scratch: Path, smoke: bool = False) -> dict[str, Any]:
    """``{row: samples}`` and the size measured."""
    samples, entries = (1, 600) if smoke else (SAMPLES, ENTRIES)
    spec = ServiceSpec(f"mirrors-{LATENCY}-{entries}", entries, latency_ms=LATENCY)
    results: dict[str, Any] = {"entries": entries, "rows": {}}
    with (
        redis_server() as redis,
        cookbook_service(spec, scratch) as server,
        celery_workers(redis.url, scratch, app="wadlclient.mirror.tasks"),
    ):
        # A deployed fleet's workers are warm: one mirror first, not measured.
        run_child("benchmarks.mirrors", ROWS[-1], server.base_url, redis.url)
        for row in ROWS:
            results["rows"][row] = []
            for _ in range(samples):
                got = run_child("benchmarks.mirrors", row, server.base_url, redis.url)
                results["rows"][row].append(got)
                print(f"  {row}: {got['seconds']:.2f} s, {got['entries']} entries, "
                      f"{got['requests']} requests", flush=True)  # fmt: skip
    return results


def markdown(results: dict[str, Any]) -> str:
    """Each row's wall time beside its limit; the rows with work, their speed-up."""
    rows: dict[str, list[dict[str, Any]]] = results["rows"]
    digests = {s["digest"] for samples in rows.values() for s in samples}
    one = statistics.median(s["seconds"] for s in rows[ONE_WORKING])
    lines = [
        f"## Mirrors: {results['entries']} recipes at {LATENCY} ms",
        "",
        f"Medians of {len(rows[ROWS[0]])} samples, each a fresh process timed from opening "
        "the root to the output in place (the second rows' first mirror untimed). Limit: "
        "requests x latency / requests in flight; with work, the larger of that and entries "
        "x 5 ms / the processes working. Speed-up: against the same mirror with work in one "
        "process (goal: 4 shards, locally and on Celery, at least 3x). Output of every "
        f"sample of every row, lines sorted: {'identical' if len(digests) == 1 else 'DIFFERS'} "
        f"({len(digests)} distinct).",
        "",
        "| row | wall (median) | requests | in flight | limit | entries | speed-up |",
        "|---|---|---|---|---|---|---|",
    ]
    for row, samples in rows.items():
        median = statistics.median(s["seconds"] for s in samples)
        requests = max(s["requests"] for s in samples)
        entries = min(s["entries"] for s in samples)
        floor = limit(row, requests, entries)
        speed = f"{one / median:.2f}x" if "work" in row else "-"
        lines.append(
            f"| {row} | {median:.2f} s | {requests} | {in_flight(row)} | {floor:.2f} s "
            f"| {entries} | {speed} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.mirrors", doc=__doc__, child_args=3, child=child,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
