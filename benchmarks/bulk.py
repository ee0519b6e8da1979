"""The bulk-change rows: 300 entries changed 150 ms from the server, one by one and in bulk.

``python -m benchmarks.bulk [--smoke] [--markdown PATH]`` starts the
example service (300 generated recipes, pages of 75, ``--latency-ms``
150) and, in a child process per sample, times changing the first 300
recipes a walk of ``root.recipes`` hands out:

- **sequential**: ``r.instructions += tag; r.lp_save()`` in the loop, as
  scripts are written;
- **bulk**: ``wadlclient.bulk.update(walk, change)`` with the default
  `BulkPolicy` (8 items under way, 4 writes in flight);
- **bulk, faults**: the same through the fault proxy, which answers 5 %
  of all requests 503 and 2 % of the saves 412 (seeded). Afterwards every
  recipe is read back directly: an update *lost* is a recipe without its
  tag that the report does not name as failed; *doubled*, one with its
  tag twice.

Each change appends a tag of its own to the instructions, so that a save
applied twice shows. Medians of ``SAMPLES``; `benchmarks.run` calls
`measure` for the ``bulk`` key.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.config import ServiceSpec
from benchmarks.faultproxy import FaultPlan, FaultProxy
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service

LATENCY = 150
ENTRIES = 300
SAMPLES = 3
ROWS = ("sequential", "bulk", "bulk, faults")
#: The issue's faults: 5 % of requests answered 503, 2 % of the saves answered 412.
FAULTS = FaultPlan(statuses={503: 0.05}, method_statuses={"PATCH": {412: 0.02}}, seed=31)


def _tagged(recipe: Any, tag: str) -> None:
    recipe.instructions = f"{recipe.instructions} [{tag}]"


def child(row: str, base_url: str, direct_url: str, entries: int) -> dict[str, Any]:
    """In the child: one sample of one row; seconds, and what the report and the service say."""
    import wadlclient
    from wadlclient import bulk

    tag = uuid.uuid4().hex[:8]
    with wadlclient.ServiceRoot(None, base_url) as root:
        walk = itertools.islice(root.recipes, entries)
        started = time.perf_counter()
        if row == "sequential":
            for recipe in walk:
                _tagged(recipe, tag)
                recipe.lp_save()
            failed: set[str] = set()
            report: dict[str, int] = {}
        else:
            done = bulk.update(walk, lambda recipe: _tagged(recipe, tag))
            failed = {result.item for result in done.failed}
            report = done.counts()
        seconds = time.perf_counter() - started
    with wadlclient.ServiceRoot(None, direct_url) as root:
        found = [recipe.instructions for recipe in root.recipes]
    tagged = [text.count(f"[{tag}]") for text in found]
    changed = sum(1 for count in tagged if count == 1)
    doubled = sum(1 for count in tagged if count > 1)
    return {
        "seconds": seconds,
        "changed": changed,
        "doubled": doubled,
        "lost": entries - changed - doubled - len(failed),
        "failed": len(failed),
        "report": report,
    }


def _sample(row: str, base_url: str, direct_url: str, entries: int) -> dict[str, Any]:
    got: dict[str, Any] = run_child("benchmarks.bulk", row, base_url, direct_url, str(entries))
    return got


def measure(scratch: Path, smoke: bool = False) -> dict[str, list[dict[str, Any]]]:
    """``{row: samples}``; the proxy's fault counts under ``"proxy"``."""
    samples, entries = (1, 20) if smoke else (SAMPLES, ENTRIES)
    spec = ServiceSpec(f"bulk-{LATENCY}", ENTRIES, latency_ms=LATENCY, page_size=75)
    results: dict[str, list[dict[str, Any]]] = {}
    with cookbook_service(spec, scratch) as server:
        base = server.base_url
        for row in ROWS:
            results[row] = []
            for _ in range(samples):
                if row == "bulk, faults":
                    port = int(urlsplit(base).port or 80)
                    with FaultProxy(port, FAULTS) as proxy:
                        got = _sample(row, proxy.url, base, entries)
                        got["proxy"] = {
                            "503": proxy.count(503), "412": proxy.count(412, "PATCH"),
                            "requests": proxy.count(),
                        }  # fmt: skip
                else:
                    got = _sample(row, base, base, entries)
                results[row].append(got)
                print(f"  {row}: {got['seconds']:.2f} s, changed {got['changed']}, "
                      f"lost {got['lost']}, doubled {got['doubled']}, failed {got['failed']} "
                      f"{got.get('proxy', '')}", flush=True)  # fmt: skip
    return results


def _median(samples: list[dict[str, Any]]) -> float:
    return statistics.median(sample["seconds"] for sample in samples)


def markdown(results: dict[str, list[dict[str, Any]]]) -> str:
    """The rows as a markdown section, the ratio against the sequential loop."""
    sequential = _median(results["sequential"])
    lines = [
        f"## Bulk changes: {ENTRIES} entries changed at {LATENCY} ms",
        "",
        f"Medians of {len(results['sequential'])} samples, each a new root. The walk hands "
        f"out the first {ENTRIES} recipes; each change appends a tag of its own. Goals: "
        "bulk at least 3x faster than the sequential `lp_save()` loop; through the fault "
        "proxy (5 % of requests 503, 2 % of saves 412) 0 lost or doubled updates, every "
        "failure in the report.",
        "",
        "| row | wall (median) | speed-up | changed | lost | doubled | failed (reported) "
        "| faults met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row, samples in results.items():
        median = _median(samples)
        worst = {key: max(s[key] for s in samples) for key in ("lost", "doubled", "failed")}
        changed = min(s["changed"] for s in samples)
        faults = "-"
        if "proxy" in samples[0]:
            faults = ", ".join(
                f"{s['proxy']['503']} x 503 + {s['proxy']['412']} x 412" for s in samples
            )
        lines.append(
            f"| {row} | {median:.2f} s | {sequential / median:.2f}x | {changed} | "
            f"{worst['lost']} | {worst['doubled']} | {worst['failed']} | {faults} |"
        )
    return "\n".join(lines) + "\n"


def _child_main(row: str, base_url: str, direct_url: str, entries: str) -> dict[str, Any]:
    return child(row, base_url, direct_url, int(entries))


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.bulk", doc=__doc__, child_args=4, child=_child_main,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
