"""The pyperf program that takes the samples of one (workload, client) pair.

The orchestrator (``benchmarks.run``) starts it in pyperf's worker mode
(``--worker --loops 1 --warmups W --values N --output FILE``) once per round,
alternating clients between rounds; pyperf does the warm-up, the value loop,
the metadata and, for the allocation rows, ``--tracemalloc``. The process-memory
rows (`PEAK_MEMORY`) take their value from `benchmarks.peakmem` instead of
pyperf's ``--track-memory`` (why: that module's docstring). It also runs on
its own as a normal pyperf benchmark, which is handy for profiling::

    python -m benchmarks.worker --workload iterate --client ours \\
        --base-url http://127.0.0.1:8080/ -p 3

The smoke run (`benchmarks.smoke`) instead passes ``--rows`` and ``--counts``:
one worker process takes every row of one client, one after the other.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pyperf  # type: ignore[import-untyped]

from benchmarks.clients import VERSION, Driver, make_driver
from benchmarks.config import SCRATCH_ROOT
from benchmarks.peakmem import peak_timer
from benchmarks.startups import START_UPS, fresh_process_timer, whole_process_timer

ITERATIONS = (
    "iterate", "iterate_latency", "iterate_same_pages", "iterate_100k",
    "memory", "memory_small", "rss", "rss_small",
)  # fmt: skip

#: Workloads whose value is the peak private memory of the worker while it walks.
PEAK_MEMORY = ("rss", "rss_small")

#: Worker options forwarded when pyperf itself spawns worker processes.
_FORWARDED = ("workload", "client", "base_url", "cache", "params")


def _forward_args(args: argparse.Namespace, cmd: list[str]) -> None:
    for name in _FORWARDED:
        value = getattr(args, name)
        if value is not None:
            cmd.extend([f"--{name.replace('_', '-')}", str(value)])


#: The two untimed questions below are asked once per process and answered from then on:
#: a worker of a full run asks once anyway; the smoke run's worker takes every row and
#: would ask again per row. Their answers are shared: not to be changed.


def untimed_json(base_url: str, path: str, method: str = "GET") -> Any:
    """The service's JSON answer to ``method`` on ``path`` (from its root), on a bare connection.

    Not httpx: importing it cost each worker about 0.2 s of CPU, and each
    ``httpx.get`` built a client that loaded the CA bundle (about 80 ms) that
    a loopback URL never uses.
    """
    base = urlsplit(base_url)
    connection = http.client.HTTPConnection(base.netloc, timeout=30)
    try:
        connection.request(
            method, base.path.rstrip("/") + path, headers={"Accept": "application/json"}
        )
        answer = connection.getresponse()
        body = answer.read()
    finally:
        connection.close()
    if answer.status != 200:
        raise RuntimeError(f"{method} {base_url} {path} answered {answer.status}: {body[:200]!r}")
    return json.loads(body)


@functools.cache
def recipe_ids(base_url: str, count: int) -> list[int]:
    """The ids of the first ``count`` recipes (untimed: what the lookups ask for)."""
    entries = untimed_json(base_url, f"/{VERSION}/recipes?ws.size={min(count, 300)}")["entries"]
    ids = [int(entry["id"]) for entry in entries]
    return (ids * (count // len(ids) + 1))[:count]


@functools.cache
def collection_size(base_url: str) -> int:
    """The ``total_size`` the server reports for ``recipes`` (untimed, to check counts)."""
    total: int = untimed_json(base_url, f"/{VERSION}/recipes?ws.size=1")["total_size"]
    return total


def operation(
    workload: str, driver: Driver, base_url: str, params: dict[str, int]
) -> Callable[[], object]:
    """The repeated operation of a ``loop`` or memory workload."""
    if workload in ITERATIONS:
        expected = collection_size(base_url)
        use_page_size = getattr(driver, "use_page_size", None)
        if "page_size" in params and use_page_size is not None:
            use_page_size(params["page_size"])

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
    if workload.startswith("lookup"):
        ids, threads = recipe_ids(base_url, params["count"]), params["threads"]

        def look_up() -> int:
            found = driver.lookup(ids, threads)
            if found != len(ids):
                raise AssertionError(f"found {found} of {len(ids)} entries")
            return found

        return look_up
    if workload == "refresh":
        driver.prepare_refresh()
        count = params["count"]
        return lambda: driver.refresh(count)
    raise ValueError(f"unknown workload {workload!r}")


def configured_driver(client: str, params: dict[str, int]) -> Driver:
    """The client's driver, set up as the row's parameters ask (before ``start``)."""
    driver = make_driver(client)
    use_write_behind = getattr(driver, "use_write_behind", None)
    if params.get("write_behind") and use_write_behind is not None:
        use_write_behind()
    return driver


def journal(base_url: str, method: str = "GET") -> dict[str, int]:
    """The service's totals so far (``DELETE``: and start counting again)."""
    totals: dict[str, int] = untimed_json(base_url, "/_journal", method)
    return totals


def process_timer(args: argparse.Namespace) -> Callable[[int], float] | None:
    """The time function of a row timed in new processes; ``None`` for a row timed in this one."""
    fresh = getattr(args, "fresh", True)  # false only in a smoke row (`benchmarks.smoke`)
    if args.workload.startswith("process_"):
        return whole_process_timer(
            args.workload, args.client, args.base_url, args.cache, fresh=fresh
        )
    if args.workload in START_UPS:
        return fresh_process_timer(
            args.workload, args.client, args.base_url, args.cache, fresh=fresh
        )
    return None


@contextlib.contextmanager
def started_operation(
    args: argparse.Namespace, params: dict[str, int]
) -> Iterator[Callable[[], object]]:
    """The row's operation on a started driver with a cache directory of its own (removed after)."""
    driver = configured_driver(args.client, params)
    SCRATCH_ROOT.mkdir(exist_ok=True)
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=SCRATCH_ROOT))
    try:
        driver.start(args.base_url, cache)
        yield operation(args.workload, driver, args.base_url, params)
    finally:
        driver.close()
        shutil.rmtree(cache, ignore_errors=True)


def count_requests(args: argparse.Namespace, params: dict[str, int]) -> dict[str, int]:
    """Requests sent and bytes received by one warm operation (or one process) of a row.

    The operation runs once untimed first, as the warm-up does before the
    timed values, so the count is the steady state's.
    """
    timer = process_timer(args)
    if timer is not None:
        timer(1)
        journal(args.base_url, "DELETE")
        timer(1)
        return journal(args.base_url)
    with started_operation(args, params) as run:
        run()
        journal(args.base_url, "DELETE")
        run()
        return journal(args.base_url)


class SampleCounter:
    """The smoke run's request counts, taken in the worker that takes the sample.

    A row timed in new processes counts the processes of its sample (a second
    process just to count would cost a whole start-up); a row timed in this
    process counts one more operation on the same warm state. ``totals`` is
    the service's journal after the counted work.
    """

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.totals: dict[str, int] = {}

    def around(self, timer: Callable[[int], float]) -> Callable[[int], float]:
        """``timer``, counting the requests of its calls (the journal's own fall outside)."""

        def counted(loops: int) -> float:
            journal(self.base_url, "DELETE")
            seconds = timer(loops)
            self.totals = journal(self.base_url)
            return seconds

        return counted

    def one_more(self, run: Callable[[], object]) -> None:
        """Count one more, untimed, ``run``."""
        journal(self.base_url, "DELETE")
        run()
        self.totals = journal(self.base_url)


def take_samples(
    runner: pyperf.Runner,
    args: argparse.Namespace,
    params: dict[str, int],
    counter: SampleCounter | None = None,
) -> None:
    """pyperf's samples of one (workload, client), counted by ``counter`` if given."""
    name = f"{args.workload}:{args.client}"
    timer = process_timer(args)
    if timer is not None:
        runner.bench_time_func(name, timer if counter is None else counter.around(timer))
        return
    with started_operation(args, params) as run:
        if args.workload in PEAK_MEMORY:
            runner.bench_time_func(name, peak_timer(run), metadata={"unit": "byte"})
        else:
            runner.bench_func(name, run)
        if counter is not None:
            counter.one_more(run)


def take_batch(runner: pyperf.Runner, args: argparse.Namespace) -> None:
    """The smoke run's rows of one client in this one process (``--rows``, ``--counts``).

    Each row is sampled as it would be alone (one benchmark of the output
    suite each, under tracemalloc if ``tracemalloc``); a row with ``count``
    has its requests counted with the service's journal (`SampleCounter`),
    where ``--count`` takes a process of its own; a start-up row with ``fresh``
    false takes its sample in this process (`benchmarks.smoke.IN_WORKER`).
    A failing row is reported in the counts file and the next row still runs.
    """
    results: dict[str, dict[str, object]] = {}
    for row in json.loads(args.rows):
        row_args = argparse.Namespace(**{**vars(args), **row})
        counter = SampleCounter(row["base_url"]) if row["count"] else None
        # pyperf reads its --tracemalloc option as each benchmark starts: set per row.
        runner.args.tracemalloc = row["tracemalloc"]
        counted: dict[str, object]
        try:
            take_samples(runner, row_args, row["params"], counter)
            counted = dict(counter.totals) if counter is not None else {}
        except Exception as exc:  # reported for this row; the next row still runs
            counted = {"error": f"{type(exc).__name__}: {exc}"[-1500:]}
        results[row["workload"]] = counted
    Path(args.counts).write_text(json.dumps(results))


def main() -> None:
    runner = pyperf.Runner(program_args=("-m", "benchmarks.worker"), add_cmdline_args=_forward_args)
    parser = runner.argparser
    parser.add_argument("--workload")
    parser.add_argument("--client", required=True)
    parser.add_argument("--base-url", dest="base_url")
    parser.add_argument("--cache", default=None, help="prefilled cache (warm start)")
    parser.add_argument("--params", default="{}", help="JSON object of workload sizes")
    parser.add_argument(
        "--count", action="store_true", help="print the requests and bytes of one operation"
    )
    parser.add_argument(
        "--rows", help="smoke: JSON list of rows (workload, base_url, cache, params, count, ...)"
    )
    parser.add_argument("--counts", help="smoke: where to write each row's counts or error")
    args = runner.parse_args()
    if args.rows:
        if not args.counts:
            parser.error("--rows needs --counts")
        take_batch(runner, args)
        return
    if not (args.workload and args.base_url):
        parser.error("--workload and --base-url are required (or --rows)")
    params: dict[str, int] = json.loads(args.params)
    if args.count:
        print(json.dumps(count_requests(args, params)))
        return
    take_samples(runner, args, params)


if __name__ == "__main__":
    main()
