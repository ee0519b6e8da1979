"""Profile one workload for one client with cProfile, against a service it starts.

``python -m benchmarks.profile <workload> [--client ours] [--top 25]``

Start-up workloads are profiled once in this (fresh) process; loop and
memory workloads are warmed up once, then profiled for one operation, at
the sizes ``make bench`` uses. The report lists the top functions by own
time and by cumulative time as ``file:line(function)``, which is what
``benchmarks/PROFILES.md`` quotes.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib
import io
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks.child import IMPORT_NAMES
from benchmarks.config import OURS, SCRATCH_ROOT, Workload, full_plan, measured_env


def _print_stats(profile: cProfile.Profile, top: int) -> None:
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(order).print_stats(top)
        print(f"--- top {top} by {order} ---")
        print(out.getvalue())


@contextlib.contextmanager
def _base_url(workload: Workload, scratch: Path, client: str) -> Iterator[tuple[str, Path]]:
    """A running server for ``workload`` and a cache directory for ``client``."""
    from benchmarks.services import cookbook_service, launchpad_server

    cache = scratch / f"cache-{client}"
    cache.mkdir()
    if workload.key == "warm_start":
        with launchpad_server(scratch) as server:
            subprocess.run(
                [sys.executable, "-m", "benchmarks.child", "prefill", client,
                 server.base_url, str(cache)],
                check=True, capture_output=True,
            )  # fmt: skip
            yield server.base_url, cache
        return
    if workload.service is None:
        yield "http://127.0.0.1:9/", cache
        return
    spec = next(s for s in full_plan().services if s.key == workload.service)
    with cookbook_service(spec, scratch) as server:
        yield server.base_url, cache


def _profile_in_child(workload: str, client: str, base_url: str, cache: Path, top: int) -> None:
    """Profile an import or a ``ServiceRoot(...)`` in a new interpreter, as the harness times it.

    This process has imported httpx (and httpcore) to run the servers; a start
    profiled here would hide the lazy imports a real first start pays for.
    The child gets the harness's bytecode settings (``measured_env``).
    """
    subprocess.run(
        [sys.executable, "-m", "benchmarks.profile", "--in-child",
         "--client", client, "--base-url", base_url, "--cache", str(cache),
         "--top", str(top), workload],
        check=True, env=measured_env(),
    )  # fmt: skip


def _in_child(workload: str, client: str, base_url: str, cache: Path, top: int) -> None:
    profiler = cProfile.Profile()
    if workload == "import":
        profiler.runcall(importlib.import_module, IMPORT_NAMES[client])
    else:
        importlib.import_module(IMPORT_NAMES[client])
        from benchmarks.clients import make_driver

        profiler.runcall(make_driver(client).start, base_url, cache)
    _print_stats(profiler, top)


def profile(workload: Workload, client: str, top: int) -> None:
    SCRATCH_ROOT.mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="profile-", dir=SCRATCH_ROOT))
    profiler = cProfile.Profile()
    try:
        with _base_url(workload, scratch, client) as (base_url, cache):
            if workload.kind == "fresh":
                _profile_in_child(workload.key, client, base_url, cache, top)
                return
            from benchmarks.clients import make_driver
            from benchmarks.worker import operation

            driver = make_driver(client)
            driver.start(base_url, cache)
            params = {"size": workload.size, **workload.params}
            run: Callable[[], object] = operation(workload.key, driver, base_url, params)
            run()
            profiler.runcall(run)
            driver.close()
        _print_stats(profiler, top)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    workloads = {w.key: w for w in full_plan().workloads}
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile", description=__doc__)
    parser.add_argument("workload", choices=sorted(workloads))
    parser.add_argument("--client", default=OURS, choices=sorted(IMPORT_NAMES))
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--params", default="{}", help="JSON overrides of the workload sizes")
    parser.add_argument("--in-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.in_child:
        _in_child(args.workload, args.client, args.base_url, args.cache, args.top)
        return 0
    workload = workloads[args.workload]
    overrides = json.loads(args.params)
    if overrides:
        from dataclasses import replace

        workload = replace(workload, params={**workload.params, **overrides})
    profile(workload, args.client, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
