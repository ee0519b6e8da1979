"""The latency rows: what a user 50 or 150 ms from the server waits for, ours against lazr's.

``python -m benchmarks.latency [--smoke] [--markdown PATH]`` starts the
example service (200 recipes, pages of 75) with ``--latency-ms`` 50 and
150 and, in a child process per (row, client), times:

- **N+1**: ``[r.dish.name for r in root.recipes[:100]]`` on a root made
  beforehand (untimed): lazr.restfulclient; wadlclient by default; with
  ``root.recipes[:100].prefetch("dish")``; with ``look_ahead=25``.
- **waste of the look-ahead**: the same loop reading the dish of every
  tenth recipe only, with ``look_ahead=25``: requests sent beyond what the
  default sends for that loop.
- **cold start**: ``ServiceRoot(...)`` on an empty cache.

Each sample is a new root on a new, empty cache; medians of ``SAMPLES``.
Requests are counted by the service (``/_journal``). `benchmarks.run`
calls `measure` for the ``latency`` key.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from benchmarks.config import ServiceSpec
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service

LATENCIES = (50, 150)
SAMPLES = 3
VERSION = "1.0"
#: (row, client) pairs, in table order.
N_PLUS_ONE = ("lazr", "ours", "ours, prefetch", "ours, look_ahead=25")
WASTE = ("ours", "ours, look_ahead=25")
COLD = ("lazr", "ours")


@dataclass(frozen=True)
class Sample:
    seconds: float
    requests: int


def _open(client: str, base_url: str, cache: str) -> Any:
    if client == "lazr":
        from lazr.restfulclient.resource import ServiceRoot as LazrRoot

        return LazrRoot(None, base_url, cache=cache, version=VERSION)
    import wadlclient

    look_ahead = 25 if "look_ahead" in client else 0
    return wadlclient.ServiceRoot(None, base_url, cache=cache, look_ahead=look_ahead)


def _loop(client: str, root: Any, every: int) -> int:
    recipes = root.recipes[:100]
    if "prefetch" in client:
        recipes = recipes.prefetch("dish")
    return len([r.dish.name for i, r in enumerate(recipes) if i % every == 0])


def _journal(base_url: str, method: str = "GET") -> int:
    answer = httpx.request(method, base_url + "_journal", timeout=30)
    requests: int = answer.json()["requests"]
    return requests


def child(row: str, client: str, base_url: str, samples: int) -> list[dict[str, float]]:
    """In the child: ``samples`` timed samples of one row for one client."""
    results = []
    for _ in range(samples):
        with tempfile.TemporaryDirectory() as cache:
            if row == "cold":
                _journal(base_url, "DELETE")
                started = time.perf_counter()
                root = _open(client, base_url, cache)
                seconds = time.perf_counter() - started
            else:
                root = _open(client, base_url, cache)
                _journal(base_url, "DELETE")
                started = time.perf_counter()
                _loop(client, root, 10 if row == "waste" else 1)
                seconds = time.perf_counter() - started
            results.append({"seconds": seconds, "requests": _journal(base_url)})
            close = getattr(root, "close", None)
            if callable(close):
                close()
    return results


def _run_child(row: str, client: str, base_url: str, samples: int) -> list[Sample]:
    got = run_child("benchmarks.latency", row, client, base_url, str(samples))
    return [Sample(**sample) for sample in got]


def measure(scratch: Path, smoke: bool = False) -> dict[tuple[int, str, str], list[Sample]]:
    """``{(latency, row, client): samples}`` for every latency, row and client."""
    samples = 1 if smoke else SAMPLES
    results: dict[tuple[int, str, str], list[Sample]] = {}
    for latency in (50,) if smoke else LATENCIES:
        spec = ServiceSpec(f"latency-{latency}", 200, latency_ms=latency, page_size=75)
        with cookbook_service(spec, scratch) as server:
            for row, clients in (("n+1", N_PLUS_ONE), ("waste", WASTE), ("cold", COLD)):
                for client in clients:
                    got = _run_child(row, client, server.base_url, samples)
                    results[(latency, row, client)] = got
                    median = statistics.median(s.seconds for s in got)
                    print(f"  {latency} ms {row} {client}: {median:.3f} s, "
                          f"{got[0].requests} requests", flush=True)  # fmt: skip
    return results


def markdown(results: dict[tuple[int, str, str], list[Sample]]) -> str:
    """The rows as a markdown section, ratios against lazr.restfulclient."""
    lines = [
        "## At a distance: server-side latency of 50 and 150 ms",
        "",
        "Medians of "
        f"{SAMPLES} samples, each on a new root and an empty cache; requests counted by "
        "the service. N+1: `[r.dish.name for r in root.recipes[:100]]` (200 recipes, pages "
        "of 75, 6 distinct dishes). Goals: with `prefetch` at most 0.1 of lazr's time and "
        "at most pages + distinct dishes requests; `look_ahead` at most 0.25; the default "
        "no worse than before; cold start at most 0.6 of lazr at 50 ms.",
        "",
        "| latency | row | client | wall (median) | ratio to lazr | requests |",
        "|---|---|---|---|---|---|",
    ]
    for (latency, row, client), samples in results.items():
        median = statistics.median(s.seconds for s in samples)
        theirs = results.get((latency, row, "lazr"))
        ratio = "-"
        if theirs is not None and client != "lazr":
            ratio = f"{median / statistics.median(s.seconds for s in theirs):.3f}"
        title = {"n+1": "N+1, 100 recipes", "waste": "every 10th recipe's dish",
                 "cold": "cold start"}[row]  # fmt: skip
        lines.append(
            f"| {latency} ms | {title} | {client} | {median:.3f} s | {ratio} | "
            f"{samples[0].requests} |"
        )
    return "\n".join(lines) + "\n"


def _child_main(row: str, client: str, base_url: str, samples: str) -> list[dict[str, float]]:
    return child(row, client, base_url, int(samples))


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.latency", doc=__doc__, child_args=4, child=_child_main,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
