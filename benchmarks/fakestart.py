"""The testing kit's row: a fake of Launchpad's real devel WADL (2.2 MB) starting (issues 21, 29).

``python -m benchmarks.fakestart [--smoke] [--markdown PATH]`` runs a
child process that imports `wadlclient.testing`, then starts and stops
`FakeService(launchpad_wadl())`, the devel WADL shipped with the kit:
the first start (cold: the WADL decompressed and parsed, the first in the
process) and then warm ones (the model reused, the WADL's base moved to
the new port, the server bound and listening, one GET of the root
answered). Goal: a warm start under 0.5 s. `benchmarks.run` calls
`measure` for the ``fakestart`` key.
"""

from __future__ import annotations

import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.sections import run_child, section_main

WARM_STARTS = 20
SMOKE_WARM_STARTS = 2
GOAL_SECONDS = 0.5


def _child_main(version: str, starts: str) -> dict[str, Any]:
    """Seconds of the first start and of each warm one, measured in this process."""
    from wadlclient.testing import FakeService, launchpad_wadl

    def one_start() -> float:
        started = time.perf_counter()
        with FakeService(launchpad_wadl(version)) as fake:
            with urllib.request.urlopen(fake.base, timeout=10) as answer:
                answer.read()
            return time.perf_counter() - started

    first = one_start()
    warm = [one_start() for _ in range(int(starts))]
    return {"first": first, "warm": warm}


def measure(scratch: Path, smoke: bool = False) -> dict[str, Any]:
    starts = SMOKE_WARM_STARTS if smoke else WARM_STARTS
    result: dict[str, Any] = run_child("benchmarks.fakestart", "devel", str(starts))
    return result


def markdown(result: dict[str, Any]) -> str:
    warm = result["warm"]
    median = statistics.median(warm)
    verdict = "meets" if max(warm) < GOAL_SECONDS else "misses"
    return "\n".join([
        "## Testing kit: a fake of the real devel WADL (2.2 MB) starts warm",
        "",
        "`FakeService(launchpad_wadl())` (Launchpad's published devel WADL, shipped with the "
        "kit) started, its root fetched once, stopped; in one process after "
        "`import wadlclient.testing`. The first start decompresses and parses the WADL; "
        f"later ones reuse its model. Goal: a warm start under {GOAL_SECONDS:g} s.",
        "",
        "| first start | warm starts | median | slowest | goal |",
        "|---|---|---|---|---|",
        f"| {result['first'] * 1000:.0f} ms | {len(warm)} | {median * 1000:.0f} ms "
        f"| {max(warm) * 1000:.0f} ms | {verdict} |",
        "",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.fakestart", doc=__doc__, child_args=2,
        child=_child_main, measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
