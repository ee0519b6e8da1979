"""Mirrors (issue 42): first mirror, second mirror (unchanged, with and without the server's
filter), and a first mirror in 4 shards, at 150 ms latency.

Each sample is a fresh child process mirroring the generated recipes
(``find_recipes(search="Generated")``) into a scratch directory, timed
from opening the root to the output in place; a "second" row makes its
first mirror untimed. The service's journal counts the requests. Beside
each wall time, its limit: the pages (the requests the service saw) x the
latency / the requests a row keeps in flight (one walk keeps its page and
``Collection.PREFETCH_DEPTH`` more; 4 shards four times that; a filtered
run's few requests go one after another). ``python -m benchmarks.mirrors
[--smoke]`` prints the section.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.config import ServiceSpec
from benchmarks.jobs import _journal
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service

LATENCY = 150
ENTRIES = 20_000
SAMPLES = 3
ROWS = ("first mirror", "second, unchanged, no filter", "second, unchanged, modified_since",
        "first mirror, 4 shards")  # fmt: skip
SOURCE: dict[str, Any] = {"op": "find_recipes", "args": {"search": "Generated"}}
FILTER = {"since_arg": "modified_since", "since_field": "date_last_modified"}


def in_flight(row: str) -> int:
    from wadlclient.objects import Collection

    walk = 1 + Collection.PREFETCH_DEPTH
    return {"first mirror, 4 shards": 4 * walk, "second, unchanged, modified_since": 1}.get(
        row, walk
    )


def child(row: str, base_url: str) -> dict[str, Any]:
    """In the child: one sample of ``row``: seconds, entries, requests."""
    from wadlclient import ServiceRoot
    from wadlclient.mirror import mirror
    from wadlclient.mirror.pool import in_processes

    options = {**SOURCE, **(FILTER if "modified_since" in row else {})}
    with tempfile.TemporaryDirectory() as out:
        if row.startswith("second"):
            with ServiceRoot(None, base_url) as root:
                mirror(root, "cookbooks", out, **options)
        _journal(base_url, "DELETE")
        started = time.perf_counter()
        with ServiceRoot(None, base_url) as root:
            shards = {"shards": 4, "walk_all": in_processes(4)} if "shards" in row else {}
            report = mirror(root, "cookbooks", out, **options, **shards)
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "entries": report.entries, "requests": _journal(base_url)}


def measure(scratch: Path, smoke: bool = False) -> dict[str, Any]:
    """``{row: samples}`` and the size measured."""
    samples, entries = (1, 600) if smoke else (SAMPLES, ENTRIES)
    spec = ServiceSpec(f"mirrors-{LATENCY}-{entries}", entries, latency_ms=LATENCY)
    results: dict[str, Any] = {"entries": entries, "rows": {}}
    with cookbook_service(spec, scratch) as server:
        for row in ROWS:
            results["rows"][row] = []
            for _ in range(samples):
                got = run_child("benchmarks.mirrors", row, server.base_url)
                results["rows"][row].append(got)
                print(f"  {row}: {got['seconds']:.2f} s, {got['entries']} entries, "
                      f"{got['requests']} requests", flush=True)  # fmt: skip
    return results


def markdown(results: dict[str, Any]) -> str:
    """Each row's wall time beside its limit."""
    rows: dict[str, list[dict[str, Any]]] = results["rows"]
    lines = [
        f"## Mirrors: {results['entries']} recipes at {LATENCY} ms",
        "",
        f"Medians of {len(rows[ROWS[0]])} samples, each a fresh process timed from opening "
        "the root to the output in place (the second rows' first mirror untimed). Limit: "
        "requests x latency / requests in flight.",
        "",
        "| row | wall (median) | requests | in flight | limit | entries |",
        "|---|---|---|---|---|---|",
    ]
    for row, samples in rows.items():
        median = statistics.median(s["seconds"] for s in samples)
        requests = max(s["requests"] for s in samples)
        flight = in_flight(row)
        limit = requests * LATENCY / 1000 / flight
        entries = min(s["entries"] for s in samples)
        lines.append(
            f"| {row} | {median:.2f} s | {requests} | {flight} | {limit:.2f} s | {entries} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.mirrors", doc=__doc__, child_args=2, child=child,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
