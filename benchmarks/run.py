"""Run every workload for wadlclient, lazr.restfulclient and the bare http.client floor; report.

``python -m benchmarks.run`` (``make bench``): full sizes, several rounds,
writes ``benchmarks/RESULTS.md``, ``benchmarks/ratios.png`` and the raw
pyperf suite ``benchmarks/results.json``. ``--smoke`` (``make bench-smoke``):
one round at tiny sizes, one worker process per client for all rows
(`benchmarks.smoke`), writes nothing unless asked, exits non-zero when any
workload fails, so ``make test`` keeps the harness working.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pyperf  # type: ignore[import-untyped]

from benchmarks import report
from benchmarks.chart import write_chart
from benchmarks.config import (
    BENCH_DIR,
    CLIENTS,
    FLOOR,
    HTTPX,
    LAUNCHPAD_WARM,
    REPO_ROOT,
    SCRATCH_ROOT,
    Plan,
    Workload,
    full_plan,
    measured_env,
    smoke_plan,
)
from benchmarks.lprow import prefill as prefill_launchpadlib
from benchmarks.services import Server, cookbook_service, free_port, launchpad_server
from benchmarks.smoke import (
    BatchResult,
    SmokeRow,
    run_batch,
    smoke_row,
    smoke_target,
    worker_failure,
)

WORKER_TIMEOUT = 600
#: The sections measured outside pyperf, each a section of RESULTS.md of its own, in the
#: order RESULTS.md leads with them: key -> what is printed when it starts. Each key is a
#: module of ``benchmarks`` with ``measure`` and ``markdown``, imported when its section
#: runs (a smoke run, which runs none, does not pay for their imports).
SECTIONS: dict[str, str] = {
    "latency": "N+1 and cold start at 50 and 150 ms",
    "lptasks": "task.bug.owner.name over 500 bug tasks at 50 and 150 ms",
    "flaky": "read workload through the fault proxy",
    "bulk": "300 entries changed at 150 ms: one by one, in bulk, through faults",
    "fakestart": "a fake of the real devel WADL (2.2 MB) starts warm (testing kit)",
    "fleet": "16 workers on one Redis cache, walks, mixed load",
    "jobs": "a job over 4,000 entries at 150 ms: 1 process, 4 processes, 4 Celery workers",
    "mirrors": "mirrors of 20,000 recipes at 150 ms: first, second (filter or not), 4 shards",
    "mirrorkill": "mirrors of 20,000 recipes at 150 ms killed with SIGKILL and run again",
}


class WorkloadError(Exception):
    """A worker failed; the message says which and why."""


def clients_for(workload: Workload, selected: tuple[str, ...]) -> tuple[str, ...]:
    allowed = workload.clients or selected
    return tuple(c for c in selected if c in allowed and (workload.floor or c != FLOOR))


def run_worker(
    workload: Workload,
    client: str,
    base_url: str,
    scratch: Path,
    *,
    cache: Path | None = None,
) -> pyperf.Benchmark:
    """One pyperf worker process: warm-ups then values of one (workload, client)."""
    output = Path(tempfile.mktemp(suffix=".json", dir=scratch))
    params = {"size": workload.size, **workload.params} if workload.size else workload.params
    command = [
        sys.executable, "-m", "benchmarks.worker",
        "--worker", "--loops", "1",
        "--warmups", str(workload.warmups), "--values", str(workload.values),
        "--output", str(output), "--quiet",
        "--workload", workload.key, "--client", client, "--base-url", base_url,
        "--params", json.dumps(params),
    ]  # fmt: skip
    if cache is not None:
        command += ["--cache", str(cache)]
    if workload.kind == "tracemalloc":
        command.append("--tracemalloc")
    failure = worker_failure(command, output, f"{workload.key}/{client}", WORKER_TIMEOUT)
    if failure is not None:
        raise WorkloadError(failure)
    bench = pyperf.Benchmark.load(str(output))
    output.unlink()
    return bench


def prefill_warm_caches(
    clients: tuple[str, ...], scratch: Path, key: str
) -> tuple[str, dict[str, Path]]:
    """Cold-start each client once against the Launchpad server, then stop it.

    Returns the base URL (now dead: any request a warm start makes fails) and
    each client's filled cache directory.
    """
    caches: dict[str, Path] = {}
    port = free_port()
    with launchpad_server(scratch, port) as server:
        for client in clients:
            caches[client] = scratch / f"warm-cache-{key}-{client}"
            caches[client].mkdir()
            completed = subprocess.run(
                [sys.executable, "-m", "benchmarks.child", "prefill", client,
                 server.base_url, str(caches[client])],
                cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False,
                env=measured_env(),
            )  # fmt: skip
            if completed.returncode != 0:
                raise WorkloadError(
                    f"{key}/{client}: prefill failed: {completed.stderr.strip()[-1500:]}"
                )
        base_url = server.base_url
    return base_url, caches


def measure(
    workload: Workload,
    clients: tuple[str, ...],
    base_url: str,
    scratch: Path,
    caches: dict[str, Path],
) -> dict[str, pyperf.Benchmark]:
    """All rounds of one workload; the client order rotates every round."""
    benches: dict[str, pyperf.Benchmark] = {}
    for round_number in range(workload.rounds):
        shift = round_number % len(clients)
        for client in clients[shift:] + clients[:shift]:
            started = time.monotonic()
            bench = run_worker(workload, client, base_url, scratch, cache=caches.get(client))
            if client in benches:
                benches[client].add_runs(bench)
            else:
                benches[client] = bench
            print(
                f"  round {round_number + 1}/{workload.rounds} {client:5s} "
                f"median {report.format_value(bench.median(), report.Row(workload, {}).unit)} "
                f"({time.monotonic() - started:.1f} s)",
                flush=True,
            )
    return benches


def count_network_work(
    workload: Workload, clients: tuple[str, ...], base_url: str, scratch: Path
) -> dict[str, report.Count]:
    """Requests and bytes of one warm operation per client, counted by the service (untimed)."""
    counts: dict[str, report.Count] = {}
    params = {"size": workload.size, **workload.params} if workload.size else workload.params
    for client in clients:
        command = [
            sys.executable, "-m", "benchmarks.worker", "--count",
            "--workload", workload.key, "--client", client, "--base-url", base_url,
            "--params", json.dumps(params),
        ]  # fmt: skip
        completed = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True,
            timeout=WORKER_TIMEOUT, check=False, env=measured_env(),
        )  # fmt: skip
        if completed.returncode != 0:
            raise WorkloadError(
                f"{workload.key}/{client}: counting failed: {completed.stderr.strip()[-1500:]}"
            )
        totals = json.loads(completed.stdout.strip().splitlines()[-1])
        counts[client] = report.Count(totals["requests"], totals["bytes"])
        print(f"  {client}: {totals['requests']} requests, {totals['bytes']} bytes", flush=True)
    return counts


def measure_row(
    workload: Workload, clients: tuple[str, ...], servers: dict[str, Server], scratch: Path
) -> tuple[dict[str, pyperf.Benchmark], dict[str, report.Count]]:
    """All samples of one row, with the servers and warm caches it needs; its network work."""
    if workload.key == "launchpadlib":
        return measure_launchpadlib(workload, clients, scratch), {}
    caches: dict[str, Path] = {}
    if workload.key in LAUNCHPAD_WARM:
        base_url, caches = prefill_warm_caches(clients, scratch, workload.key)
    elif workload.service:
        base_url = servers[workload.service].base_url
    else:
        base_url = "http://127.0.0.1:9/"
    benches = measure(workload, clients, base_url, scratch, caches)
    if workload.service:
        return benches, count_network_work(workload, clients, base_url, scratch)
    if workload.key in LAUNCHPAD_WARM:
        # Its server was stopped: any request would have failed the run.
        return benches, {client: report.Count(0, 0) for client in benches}
    return benches, {}


def measure_launchpadlib(
    workload: Workload, clients: tuple[str, ...], scratch: Path
) -> dict[str, pyperf.Benchmark]:
    """The launchpadlib row: warm each client's directory, then time with the server up."""
    with launchpad_server(scratch) as server:
        try:
            directories = prefill_launchpadlib(clients, server.base_url, scratch)
        except RuntimeError as exc:
            raise WorkloadError(str(exc)) from exc
        return measure(workload, clients, server.base_url, scratch, directories)


def measure_rows(
    workloads: list[Workload], selected: tuple[str, ...], servers: dict[str, Server], scratch: Path
) -> tuple[list[report.Row], list[pyperf.Benchmark]]:
    """Every row in turn, each with worker processes of its own (the full run)."""
    rows: list[report.Row] = []
    suite: list[pyperf.Benchmark] = []
    for workload in workloads:
        clients = clients_for(workload, selected)
        print(f"{workload.key}: {workload.title}", flush=True)
        try:
            benches, counts = measure_row(workload, clients, servers, scratch)
        except WorkloadError as exc:
            print(f"  ERROR {exc}", flush=True)
            rows.append(report.Row(workload, {}, error=str(exc)))
            continue
        suite.extend(benches.values())
        stats = {client: report.Stats.of(bench) for client, bench in benches.items()}
        rows.append(report.Row(workload, stats, counts=counts))
    return rows, suite


def measure_smoke(
    workloads: list[Workload], selected: tuple[str, ...], servers: dict[str, Server], scratch: Path
) -> tuple[list[report.Row], list[pyperf.Benchmark]]:
    """Every row at smoke size, one worker per client for all rows (`benchmarks.smoke`).

    The warm rows' caches are filled first, against a Launchpad server then stopped;
    the launchpadlib row's server stays up while the batches run.
    """
    errors: dict[str, str] = {}
    setups: dict[str, tuple[str, dict[str, Path]]] = {}
    warm = [w for w in workloads if w.key in LAUNCHPAD_WARM]
    if warm:  # one set of warm caches for both rows: neither can write (the server is gone)
        clients = tuple(c for c in selected if any(c in clients_for(w, selected) for w in warm))
        try:
            filled = prefill_warm_caches(clients, scratch, "warm")
            setups.update(dict.fromkeys(LAUNCHPAD_WARM, filled))
        except WorkloadError as exc:
            errors.update(dict.fromkeys(LAUNCHPAD_WARM, str(exc)))
    with contextlib.ExitStack() as stack:
        for workload in (w for w in workloads if w.key == "launchpadlib"):
            server = stack.enter_context(launchpad_server(scratch))
            try:
                clients = clients_for(workload, selected)
                directories = prefill_launchpadlib(clients, server.base_url, scratch)
                setups[workload.key] = (server.base_url, directories)
            except RuntimeError as exc:
                errors[workload.key] = str(exc)
        results: list[BatchResult] = []
        for client in selected:
            rows = [
                SmokeRow(w, *smoke_target(w, client, setups, servers), bool(w.service))
                for w in workloads
                if w.key not in errors and client in clients_for(w, selected)
            ]
            if rows:
                print(f"{client}: {len(rows)} rows in one worker", flush=True)
                results.append(run_batch(client, rows, scratch))
    suite = [bench for result in results for bench in result.benches.values()]
    return [smoke_row(w, results, errors) for w in workloads], suite


PRIME = (
    "import wadlclient, lazr.restfulclient.resource, httpx, httpcore, h11, pyperf, "
    "benchmarks.worker, benchmarks.child, benchmarks.clients"
)


def prime_bytecode() -> None:
    """Compile what every measured process imports, once, before anything is timed."""
    subprocess.run(
        [sys.executable, "-c", PRIME], cwd=REPO_ROOT, env=measured_env(), check=True, timeout=120
    )


@contextlib.contextmanager
def started_services(
    plan: Plan, workloads: list[Workload], scratch: Path
) -> Iterator[dict[str, Server]]:
    """Start each cookbook service the selected workloads need, stop them all after."""
    needed = {w.service for w in workloads if w.service}
    with contextlib.ExitStack() as stack:
        servers: dict[str, Server] = {}
        for spec in plan.services:
            if spec.key in needed:
                print(f"starting cookbook_service {spec}", flush=True)
                servers[spec.key] = stack.enter_context(cookbook_service(spec, scratch))
        yield servers


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="one round, tiny sizes")
    parser.add_argument("--only", help="comma-separated workload keys to run")
    parser.add_argument(
        "--clients",
        default=",".join(CLIENTS),
        help=f"comma-separated subset of {','.join((*CLIENTS, HTTPX))}",
    )
    parser.add_argument("--results", type=Path, help="where to write RESULTS.md")
    parser.add_argument("--chart", type=Path, help="where to write ratios.png")
    parser.add_argument("--json", type=Path, help="where to write the pyperf suite")
    parser.add_argument("--analysis", type=Path, help="markdown appended to RESULTS.md")
    parser.add_argument(
        "--from-json", type=Path, help="measure nothing: re-render the report from a pyperf suite"
    )
    args = parser.parse_args(argv)
    if not args.smoke:
        args.results = args.results or BENCH_DIR / "RESULTS.md"
        args.chart = args.chart or BENCH_DIR / "ratios.png"
        args.json = args.json or (None if args.from_json else BENCH_DIR / "results.json")
    return args


def _exit_on_sigterm(signum: int, frame: object) -> None:
    """Turn SIGTERM into SystemExit so the servers and the scratch directory are cleaned up."""
    raise SystemExit(128 + signum)


def rerender(args: argparse.Namespace, plan: Plan) -> int:
    """Rebuild the table, RESULTS.md and the chart from a saved pyperf suite."""
    suite = pyperf.BenchmarkSuite.load(str(args.from_json))
    benches = {bench.get_name(): bench for bench in suite.get_benchmarks()}
    rows = []
    for workload in plan.workloads:
        stats = {
            client: report.Stats.of(benches[f"{workload.key}:{client}"])
            for client in (*CLIENTS, HTTPX)
            if f"{workload.key}:{client}" in benches
        }
        if stats:
            rows.append(report.Row(workload, stats))
    print(report.text_table(rows))
    for line in report.flatness_lines(rows):
        print(f"memory growth, {line}")
    for line in report.scaling_lines(rows):
        print(f"scaling, {line}")
    first, last = zip(*(bench.get_dates() for bench in benches.values()), strict=True)
    facts = [("measured", f"{min(first):%Y-%m-%d %H:%M} to {max(last):%H:%M} (local time)"),
             ("rendered from", str(args.from_json))]  # fmt: skip
    if args.results:
        analysis = args.analysis.read_text() if args.analysis else ""
        report.write_markdown(args.results, plan, rows, analysis, facts)
        print(f"wrote {args.results}")
    if args.chart:
        write_chart(args.chart, rows)
        print(f"wrote {args.chart}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = smoke_plan() if args.smoke else full_plan()
    if args.from_json:
        return rerender(args, plan)
    selected = tuple(c for c in (*CLIENTS, HTTPX) if c in args.clients.split(","))
    workloads = list(plan.workloads)
    sections: tuple[str, ...] = () if args.smoke else tuple(SECTIONS)
    if args.only:
        keys = args.only.split(",")
        unknown = set(keys) - {w.key for w in workloads} - set(SECTIONS)
        if unknown:
            print(f"unknown workloads: {sorted(unknown)}", file=sys.stderr)
            return 2
        workloads = [w for w in workloads if w.key in keys]
        sections = tuple(key for key in SECTIONS if key in keys)

    SCRATCH_ROOT.mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="run-", dir=SCRATCH_ROOT))
    started = time.monotonic()
    load_before = report.load_average()
    extra_sections: list[str] = []
    try:
        if not args.smoke:  # a smoke run's figures mean nothing: compiling on the way is fine
            prime_bytecode()
        with started_services(plan, workloads, scratch) as servers:
            measure_all = measure_smoke if args.smoke else measure_rows
            rows, suite = measure_all(workloads, selected, servers, scratch)
        for key in sections:
            print(f"{key}: {SECTIONS[key]}", flush=True)
            module = importlib.import_module(f"benchmarks.{key}")
            extra_sections.append(module.markdown(module.measure(scratch)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    elapsed = time.monotonic() - started
    print()
    print(report.text_table(rows))
    for line in report.flatness_lines(rows):
        print(f"memory growth, {line}")
    for line in report.scaling_lines(rows):
        print(f"scaling, {line}")
    print(f"\n{'smoke run' if args.smoke else 'run'} took {elapsed:.0f} s")
    if args.json and suite:
        args.json.unlink(missing_ok=True)
        pyperf.BenchmarkSuite(suite).dump(str(args.json), replace=True)
    for section in extra_sections:
        print(section)
    if args.results:
        analysis = args.analysis.read_text() if args.analysis else ""
        facts = [
            ("load average (1/5/15 min) at start", load_before),
            ("load average (1/5/15 min) at end", report.load_average()),
            ("run time", f"{elapsed:.0f} s"),
        ]
        leading = "\n".join(extra_sections)
        report.write_markdown(args.results, plan, rows, analysis, facts, leading=leading)
        print(f"wrote {args.results}")
    if args.chart:
        write_chart(args.chart, rows)
        print(f"wrote {args.chart}")
    return 1 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    sys.exit(main())
