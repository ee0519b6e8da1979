"""The smoke run's worker processes: one per client for all of its rows.

A full run gives each (workload, client) pair pyperf worker processes of its
own and counts requests in yet another; at smoke sizes those interpreter
start-ups were nearly all of the smoke's cost. Here one ``benchmarks.worker
--rows`` process per client samples each row as a single-row worker does
and counts its requests in the same process (`benchmarks.worker.SampleCounter`:
a row timed in new processes counts its sample's, so the count of
``process_script`` is of its one, cold, sample). The figures of a smoke run
mean nothing; what it checks is that every row still runs for every client,
through the same worker code. The rows of `IN_WORKER` take their sample in
that worker, with the code a new interpreter would run (`benchmarks.child.measure`,
the row's script): ``cold_start`` and ``process_script`` still start one per
client, and so prove that path.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pyperf  # type: ignore[import-untyped]

from benchmarks import report
from benchmarks.config import LAUNCHPAD_WARM, REPO_ROOT, Workload, measured_env
from benchmarks.services import Server

BATCH_TIMEOUT = 600

#: Rows sampled in the smoke's worker rather than in a new interpreter: each new one
#: cost its client's imports again (about 0.3 s of CPU, lazr.restfulclient's Launchpad
#: warm start about 1 s), for figures a smoke run does not keep. ``cold_start`` and
#: ``process_script``, run in new interpreters for every client, prove that path.
IN_WORKER = ("import", "import_launchpad", "warm_start", "process_launchpad")


@dataclass(frozen=True)
class SmokeRow:
    """One row of a client's batch: where it talks to, its warm cache, whether to count."""

    workload: Workload
    base_url: str
    cache: Path | None
    count: bool

    def as_json(self) -> dict[str, object]:
        params = self.workload.params
        return {
            "workload": self.workload.key,
            "base_url": self.base_url,
            "cache": None if self.cache is None else str(self.cache),
            "params": {"size": self.workload.size, **params} if self.workload.size else params,
            "count": self.count,
            "tracemalloc": self.workload.kind == "tracemalloc",
            "fresh": self.workload.key not in IN_WORKER,
        }


@dataclass
class BatchResult:
    """What one client's batch gave, by workload key: samples, counts, errors."""

    client: str
    benches: dict[str, pyperf.Benchmark]
    counts: dict[str, report.Count]
    errors: dict[str, str]


def worker_failure(command: list[str], output: Path, label: str, timeout: float) -> str | None:
    """Run one ``benchmarks.worker`` process in the measured environment: what went wrong, if any.

    It went wrong when it timed out, exited non-zero or wrote no ``output``.
    The full run starts one per (row, client, round), the smoke run one per client.
    """
    try:
        completed = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True,
            timeout=timeout, check=False, env=measured_env(),
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        return f"{label}: timed out after {exc.timeout} s"
    if completed.returncode != 0 or not output.exists():
        tail = (completed.stderr or completed.stdout).strip().splitlines()[-15:]
        return f"{label}: worker exited {completed.returncode}: " + "\n".join(tail)
    return None


def run_batch(client: str, rows: list[SmokeRow], scratch: Path) -> BatchResult:
    """One worker process samples (and counts) every row of ``rows`` for ``client``."""
    output = Path(tempfile.mktemp(suffix=".json", dir=scratch))
    counts_file = Path(tempfile.mktemp(suffix=".counts.json", dir=scratch))
    command = [
        sys.executable, "-m", "benchmarks.worker",
        "--worker", "--loops", "1", "--warmups", "0", "--values", "1",
        "--output", str(output), "--quiet", "--client", client,
        "--rows", json.dumps([row.as_json() for row in rows]), "--counts", str(counts_file),
    ]  # fmt: skip
    keys = [row.workload.key for row in rows]
    failure = worker_failure(command, counts_file, client, BATCH_TIMEOUT)
    if failure is not None:
        return _failed(client, keys, failure)
    benches: dict[str, pyperf.Benchmark] = {}
    if output.exists():
        suite = pyperf.BenchmarkSuite.load(str(output))
        benches = {bench.get_name().split(":")[0]: bench for bench in suite.get_benchmarks()}
    result = BatchResult(client, benches, {}, {})
    for key, counted in json.loads(counts_file.read_text()).items():
        if "error" in counted:
            result.errors[key] = f"{key}/{client}: {counted['error']}"
        elif counted:
            result.counts[key] = report.Count(counted["requests"], counted["bytes"])
    for key in keys:
        if key not in benches and key not in result.errors:
            result.errors[key] = f"{key}/{client}: the worker gave no sample"
    return result


def smoke_target(
    workload: Workload,
    client: str,
    setups: dict[str, tuple[str, dict[str, Path]]],
    servers: dict[str, Server],
) -> tuple[str, Path | None]:
    """The base URL and the warm cache (if any) of one client's row."""
    if workload.key in setups:
        base_url, caches = setups[workload.key]
        return base_url, caches.get(client)
    return (servers[workload.service].base_url if workload.service else "http://127.0.0.1:9/"), None


def smoke_row(workload: Workload, results: list[BatchResult], errors: dict[str, str]) -> report.Row:
    """The report row of one workload from every client's batch."""
    failed = [errors[workload.key]] if workload.key in errors else []
    failed += [r.errors[workload.key] for r in results if workload.key in r.errors]
    if failed:
        print(f"  ERROR {failed[0]}", flush=True)
        return report.Row(workload, {}, error=failed[0])
    benches = {r.client: r.benches[workload.key] for r in results if workload.key in r.benches}
    counts = {r.client: r.counts[workload.key] for r in results if workload.key in r.counts}
    if workload.key in LAUNCHPAD_WARM:
        # Its server was stopped: any request would have failed the run.
        counts = {client: report.Count(0, 0) for client in benches}
    stats = {client: report.Stats.of(bench) for client, bench in benches.items()}
    return report.Row(workload, stats, counts=counts)


def _failed(client: str, keys: list[str], message: str) -> BatchResult:
    return BatchResult(client, {}, {}, {key: f"{key}/{message}" for key in keys})
