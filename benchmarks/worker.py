"""The pyperf program that takes the samples of one (workload, client) pair.

The orchestrator (``benchmarks.run``) starts it in pyperf's worker mode
(``--worker --loops 1 --warmups W --values N --output FILE``) once per round,
alternating clients between rounds; pyperf does the warm-up, the value loop,
the metadata and, for memory workloads, ``--tracemalloc`` or ``--track-memory``. It also runs on
its own as a normal pyperf benchmark, which is handy for profiling::

    python -m benchmarks.worker --workload iterate --client ours \\
        --base-url http://127.0.0.1:8080/ -p 3
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import httpx
import pyperf  # type: ignore[import-untyped]

from benchmarks.clients import VERSION, Driver, make_driver
from benchmarks.config import REPO_ROOT, SCRATCH_ROOT, measured_env
from benchmarks.lprow import script_seconds

#: Worker options forwarded when pyperf itself spawns worker processes.
_FORWARDED = ("workload", "client", "base_url", "cache", "params")


def _forward_args(args: argparse.Namespace, cmd: list[str]) -> None:
    for name in _FORWARDED:
        value = getattr(args, name)
        if value is not None:
            cmd.extend([f"--{name.replace('_', '-')}", str(value)])


def _child_seconds(workload: str, client: str, base_url: str, cache: Path) -> float:
    """Run one start-up sample in a new interpreter and return its seconds."""
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.child", workload, client, base_url, str(cache)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=measured_env(),
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"{workload}/{client} child failed ({completed.returncode}):\n{completed.stderr}"
        )
    return float(json.loads(completed.stdout.strip().splitlines()[-1])["seconds"])


def fresh_process_timer(
    workload: str, client: str, base_url: str, cache: str | None
) -> Callable[[int], float]:
    """A pyperf time function: each loop is one new interpreter.

    ``cold_start`` and ``script_start`` get a new empty cache directory per
    sample; ``warm_start``
    reuses the prefilled one it was given.
    """

    def time_func(loops: int) -> float:
        total = 0.0
        for _ in range(loops):
            if workload == "launchpadlib" and cache is not None:
                total += script_seconds(client, base_url, Path(cache))
                continue
            if cache is not None:
                total += _child_seconds(workload, client, base_url, Path(cache))
                continue
            SCRATCH_ROOT.mkdir(exist_ok=True)
            empty = Path(tempfile.mkdtemp(prefix="cold-", dir=SCRATCH_ROOT))
            try:
                total += _child_seconds(workload, client, base_url, empty)
            finally:
                shutil.rmtree(empty, ignore_errors=True)
        return total

    return time_func


def collection_size(base_url: str) -> int:
    """The ``total_size`` the server reports for ``recipes`` (untimed, to check counts)."""
    url = f"{base_url.rstrip('/')}/{VERSION}/recipes?ws.size=1"
    total: int = httpx.get(url, headers={"Accept": "application/json"}).json()["total_size"]
    return total


def operation(
    workload: str, driver: Driver, base_url: str, params: dict[str, int]
) -> Callable[[], object]:
    """The repeated operation of a ``loop`` or memory workload."""
    if workload in ("iterate", "iterate_latency", "memory", "memory_small", "rss", "rss_small"):
        expected = collection_size(base_url)

        def iterate() -> int:
            count = driver.iterate()
            if count != expected:
                raise AssertionError(f"iterated {count} entries, expected {expected}")
            return count

        return iterate
    if workload == "slice":
        start, stop = params["start"], params["stop"]

        def take_slice() -> int:
            count = driver.slice(start, stop)
            if count != stop - start:
                raise AssertionError(f"slice gave {count} entries, expected {stop - start}")
            return count

        return take_slice
    if workload == "refresh":
        driver.prepare_refresh()
        count = params["count"]
        return lambda: driver.refresh(count)
    raise ValueError(f"unknown workload {workload!r}")


def main() -> None:
    runner = pyperf.Runner(
        program_args=("-m", "benchmarks.worker"), add_cmdline_args=_forward_args
    )
    parser = runner.argparser
    parser.add_argument("--workload", required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--base-url", dest="base_url", required=True)
    parser.add_argument("--cache", default=None, help="prefilled cache (warm start)")
    parser.add_argument("--params", default="{}", help="JSON object of workload sizes")
    args = runner.parse_args()
    params: dict[str, int] = json.loads(args.params)
    name = f"{args.workload}:{args.client}"

    if args.workload in ("import", "cold_start", "script_start", "warm_start", "launchpadlib"):
        runner.bench_time_func(
            name, fresh_process_timer(args.workload, args.client, args.base_url, args.cache)
        )
        return

    driver = make_driver(args.client)
    SCRATCH_ROOT.mkdir(exist_ok=True)
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=SCRATCH_ROOT))
    try:
        driver.start(args.base_url, cache)
        runner.bench_func(name, operation(args.workload, driver, args.base_url, params))
    finally:
        driver.close()
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
