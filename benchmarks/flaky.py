"""The flaky-network row: a read workload through the fault proxy, ours against lazr's.

``python -m benchmarks.flaky [--smoke] [--markdown PATH]`` starts the
example service (200 recipes, pages of 75) and, for each client, runs the
workload in a child process twice: through a calm proxy (no faults: the
baseline wall time) and through a flaky one (30 % of requests answered
503, 5 % stalled, seeded). It prints, and writes as markdown, per client:
operations that failed, requests the proxy read, faults it injected, stalls,
and wall times. wadlclient runs twice: with its default retry policy
(lazr's backoff schedule, 0, 1, 2, 4 s, jittered) and with a backoff base
of 0.1 s. `benchmarks.run` calls `measure` for the ``flaky`` key.

The workload is the issue's: the service root, 200 positional reads, 200
lookups by key and 5 walks. Stalls cost one timeout each; the row uses
``timeout=2`` (the issue's user had 10), so that a full bench run stays
within minutes: the count of failed operations does not depend on it.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.clients import make_driver
from benchmarks.config import OURS, THEIRS, ServiceSpec
from benchmarks.faultproxy import STALL, FaultPlan, FaultProxy
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service
from benchmarks.worker import recipe_ids

FLAKY = FaultPlan(statuses={503: 0.30}, stall=0.05, seed=24, stall_seconds=60)
CALM = FaultPlan()
TIMEOUT = 2.0
#: wadlclient with a backoff base of 0.1 s (`Retry(backoff_base=0.1)`) instead of 1 s.
OURS_FAST = "ours, base 0.1 s"
FAST_BASE = 0.1
SIZES = {"positional": 200, "lookups": 200, "walks": 5}
SMOKE_SIZES = {"positional": 10, "lookups": 10, "walks": 1}


@dataclass(frozen=True)
class Outcome:
    """One client's run through one proxy."""

    operations: int
    failed: int
    causes: dict[str, int]
    requests: int
    faults: int
    stalls: int
    seconds: float


def workload(client: str, base_url: str, sizes: dict[str, Any]) -> dict[str, Any]:
    """Run in the child: every operation counted, each failure by its error's class name."""
    causes: dict[str, int] = {}
    operations = 0

    def attempt(operation: Any) -> None:
        nonlocal operations
        operations += 1
        try:
            operation()
        except Exception as error:
            causes[type(error).__name__] = causes.get(type(error).__name__, 0) + 1

    driver = make_driver(OURS if client == OURS_FAST else client)
    driver.timeout = TIMEOUT  # type: ignore[attr-defined]
    if client == OURS_FAST:
        driver.retry = importlib.import_module("wadlclient").Retry(backoff_base=FAST_BASE)  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as cache:
        attempt(lambda: driver.start(base_url, Path(cache)))
        if driver.root is not None:  # type: ignore[attr-defined]
            for index in range(sizes["positional"]):
                attempt(lambda index=index: driver.slice(index, index + 1))
            for key in sizes["ids"]:
                attempt(lambda key=key: driver._fetch_one(key))
            for _ in range(sizes["walks"]):
                attempt(driver.iterate)
        driver.close()
    return {"operations": operations, "failed": sum(causes.values()), "causes": causes}


def _child(client: str, base_url: str, sizes: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = run_child("benchmarks.flaky", client, base_url, json.dumps(sizes))
    return result


def run_one(client: str, upstream_port: int, plan: FaultPlan, sizes: dict[str, Any]) -> Outcome:
    with FaultProxy(upstream_port, plan) as proxy:
        started = time.monotonic()
        result = _child(client, proxy.url, sizes)
        seconds = time.monotonic() - started
        return Outcome(
            result["operations"], result["failed"], result["causes"], len(proxy.journal),
            proxy.faults(), proxy.count(STALL), seconds,
        )  # fmt: skip


def measure(scratch: Path, smoke: bool = False) -> dict[str, dict[str, Outcome]]:
    """Both clients, calm then flaky; ``{client: {"calm": ..., "flaky": ...}}``."""
    sizes: dict[str, Any] = dict(SMOKE_SIZES if smoke else SIZES)
    spec = ServiceSpec("flaky", 200, page_size=75)
    outcomes: dict[str, dict[str, Outcome]] = {}
    with cookbook_service(spec, scratch) as server:
        port = int(server.base_url.rstrip("/").rsplit(":", 1)[1])
        sizes = {**sizes, "ids": recipe_ids(server.base_url, sizes["lookups"])}
        for client in (OURS, OURS_FAST, THEIRS):
            outcomes[client] = {}
            for name, plan in (("calm", CALM), ("flaky", FLAKY)):
                outcome = run_one(client, port, plan, sizes)
                outcomes[client][name] = outcome
                print(f"  flaky row: {client} {name}: {outcome}", flush=True)
    return outcomes


def markdown(outcomes: dict[str, dict[str, Outcome]]) -> str:
    """The row as a markdown section."""
    lines = [
        "## Flaky network: read workload through the fault proxy",
        "",
        f"Service root, {SIZES['positional']} positional reads, {SIZES['lookups']} lookups by "
        f"key, {SIZES['walks']} walks of 200 recipes; the proxy answers 30 % of requests 503 "
        f"and stalls 5 % (seeded), `timeout={TIMEOUT:g}`. Goal: 0 failed operations, and a "
        "wall time under 1.5x the fault-free run plus the stalls' timeouts.",
        "",
        "| client | operations | failed | causes | requests | faults | stalls | wall | "
        "fault-free wall | bound |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for client, runs in outcomes.items():
        calm, flaky = runs["calm"], runs["flaky"]
        bound = 1.5 * calm.seconds + flaky.stalls * TIMEOUT
        causes = ", ".join(f"{k} {v}" for k, v in sorted(flaky.causes.items())) or "-"
        lines.append(
            f"| {client} | {flaky.operations} | {flaky.failed} | {causes} | {flaky.requests} | "
            f"{flaky.faults} | {flaky.stalls} | {flaky.seconds:.1f} s | {calm.seconds:.1f} s | "
            f"{bound:.1f} s |"
        )
    return "\n".join(lines) + "\n"


def _child_main(client: str, base_url: str, sizes: str) -> dict[str, Any]:
    return workload(client, base_url, json.loads(sizes))


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.flaky", doc=__doc__, child_args=3, child=_child_main,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
