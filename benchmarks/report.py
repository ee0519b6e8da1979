"""Turn pyperf benchmarks into the results table and RESULTS.md (the chart: `benchmarks.chart`)."""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import os
import platform
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pyperf  # type: ignore[import-untyped]

from benchmarks.config import FLOOR, OURS, REPO_ROOT, THEIRS, Plan, Workload

#: The 1,000-refresh workload must also stay within this factor of the bare http.client floor.
REFRESH_FLOOR_GOAL = 1.3
#: 8 threads sharing one root must finish lookups at least this many times faster than 1.
THREADS_SPEEDUP_GOAL = 5.0
#: Walking 100,000 entries may take at most this many times as long as 10,000.
WALK_GROWTH_GOAL = 11.0
#: Peak memory counts as flat when it grows by at most this much from the
#: small to the large collection. (Not relative to the floor's walk, which
#: keeps nothing and says nothing about our client.)
FLAT_TOLERANCE = 0.10


@dataclass(frozen=True)
class Stats:
    """Median, min and max of one client's samples, and how many there were."""

    median: float
    minimum: float
    maximum: float
    samples: int

    @classmethod
    def of(cls, bench: pyperf.Benchmark) -> Stats:
        values = bench.get_values()
        return cls(bench.median(), min(values), max(values), len(values))


@dataclass(frozen=True)
class Count:
    """The network work of one operation, as the service counted it."""

    requests: int
    received: int


@dataclass(frozen=True)
class Row:
    """One workload's figures; ``None`` where a client was not measured."""

    workload: Workload
    stats: dict[str, Stats]
    error: str | None = None
    counts: dict[str, Count] = field(default_factory=dict)

    def network_text(self) -> str:
        """Requests and KiB received per operation, per client, in column order."""
        if not self.counts:
            return "not counted (no service)" if self.workload.service is None else "not counted"
        clients = [c for c in (OURS, THEIRS, FLOOR) if c in self.counts]
        requests = " / ".join(str(self.counts[c].requests) for c in clients)
        received = " / ".join(f"{self.counts[c].received / 1024:.0f}" for c in clients)
        return f"{requests} req; {received} KiB ({' / '.join(clients)})"

    @property
    def unit(self) -> str:
        return "byte" if self.workload.kind in ("tracemalloc", "rss") else "second"

    def ratio(self, numerator: str = OURS, denominator: str = THEIRS) -> float | None:
        top, bottom = self.stats.get(numerator), self.stats.get(denominator)
        if top is None or bottom is None or bottom.median <= 0:
            return None
        return top.median / bottom.median

    def verdict(self) -> str:
        """PASS, MISS, ERROR, or n/a when a figure is missing."""
        if self.error:
            return "ERROR"
        ratio = self.ratio()
        if ratio is None or self.workload.goal is None:
            return "n/a"
        passed = ratio <= self.workload.goal
        if self.workload.key == "refresh":
            floor_ratio = self.ratio(OURS, FLOOR)
            passed = passed and floor_ratio is not None and floor_ratio <= REFRESH_FLOOR_GOAL
        return "PASS" if passed else "MISS"


def format_value(value: float, unit: str) -> str:
    if unit == "byte":
        return f"{value / 2**20:.1f} MiB" if value >= 2**20 else f"{value / 2**10:.0f} KiB"
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def format_stats(stats: Stats | None, unit: str) -> str:
    if stats is None:
        return "-"
    return (
        f"{format_value(stats.median, unit)} "
        f"({format_value(stats.minimum, unit)}..{format_value(stats.maximum, unit)}, "
        f"n={stats.samples})"
    )


def _goal_text(row: Row) -> str:
    goal = row.workload.goal
    if row.workload.key.endswith("_threads"):
        return f">= {THREADS_SPEEDUP_GOAL:g}x 1 thread (see Scaling)"
    text = "-" if goal is None else f"<= {goal:g}"
    if row.workload.key == "refresh":
        text += f"; <= {REFRESH_FLOOR_GOAL:g}x floor"
    return text


def _ratio_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


HEADER = (
    "workload",
    "wadlclient median (min..max, n)",
    "lazr.restfulclient median (min..max, n)",
    "bare http.client floor",
    "ours/lazr",
    "goal",
    "result",
    "ours/floor",
    "requests; KiB received per operation",
)


def table_rows(rows: list[Row]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for row in rows:
        unit = row.unit
        floor = row.stats.get(FLOOR)
        out.append(
            (
                row.workload.title,
                format_stats(row.stats.get(OURS), unit),
                format_stats(row.stats.get(THEIRS), unit),
                "-" if floor is None else format_value(floor.median, unit),
                _ratio_text(row.ratio()),
                _goal_text(row),
                row.verdict(),
                _ratio_text(row.ratio(OURS, FLOOR)),
                row.network_text(),
            )
        )
    return out


def flatness_lines(rows: list[Row]) -> list[str]:
    """How peak memory grows from the small to the large collection, per client."""
    lines = []
    for small_key, large_key in (("memory_small", "memory"), ("rss_small", "rss")):
        lines += _growth_lines(rows, small_key, large_key)
    return lines


def scaling_lines(rows: list[Row]) -> list[str]:
    """Thread speed-up under latency, and walk time from 10k to 100k entries, per client."""
    by_key = {row.workload.key: row for row in rows}
    lines = []
    pairs = (
        ("lookup_latency", "lookup_latency_threads", "8 threads / 1 thread speed-up", True),
        ("iterate", "iterate_100k", "walk time 100k / 10k", False),
    )
    for small_key, large_key, what, speedup in pairs:
        small, large = by_key.get(small_key), by_key.get(large_key)
        if small is None or large is None:
            continue
        for client in (OURS, THEIRS, FLOOR):
            a, b = small.stats.get(client), large.stats.get(client)
            if a is None or b is None or min(a.median, b.median) <= 0:
                continue
            factor = a.median / b.median if speedup else b.median / a.median
            verdict = ""
            if client == OURS and speedup:
                verdict = f" {'PASS' if factor >= THREADS_SPEEDUP_GOAL else 'MISS'} (goal >= "
                verdict += f"{THREADS_SPEEDUP_GOAL:g})"
            elif client == OURS:
                verdict = f" {'PASS' if factor <= WALK_GROWTH_GOAL else 'MISS'} (goal <= "
                verdict += f"{WALK_GROWTH_GOAL:g})"
            lines.append(f"{what}, {client}: {factor:.2f}x{verdict}")
    return lines


def _growth_lines(rows: list[Row], small_key: str, large_key: str) -> list[str]:
    by_key = {row.workload.key: row for row in rows}
    small, large = by_key.get(small_key), by_key.get(large_key)
    if small is None or large is None:
        return []
    what = "allocations" if small.workload.kind == "tracemalloc" else "process memory"
    growths: dict[str, float] = {}
    for client in (FLOOR, THEIRS, OURS):
        a, b = small.stats.get(client), large.stats.get(client)
        if a is not None and b is not None:
            growths[client] = (b.median - a.median) / a.median
    allowed = FLAT_TOLERANCE
    lines = []
    for client in (OURS, THEIRS, FLOOR):
        a, b = small.stats.get(client), large.stats.get(client)
        if a is None or b is None:
            continue
        growth = growths[client]
        verdict = ""
        if client == OURS:
            verdict = " PASS" if growth <= allowed else " MISS"
            verdict += f" (flat: growth <= {allowed:.0%})"
        lines.append(
            f"{what}, {client}: {format_value(a.median, 'byte')} at "
            f"{small.workload.size:,} entries, {format_value(b.median, 'byte')} at "
            f"{large.workload.size:,} "
            f"({growth:+.1%}){verdict}"
        )
    return lines


def text_table(rows: list[Row]) -> str:
    body = table_rows(rows)
    widths = [max(len(r[i]) for r in [HEADER, *body]) for i in range(len(HEADER))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True))
        for r in [HEADER, *body]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows: list[Row]) -> str:
    body = table_rows(rows)
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO_ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def machine_facts() -> list[tuple[str, str]]:
    libraries = ", ".join(
        f"{name} {_version(name)}"
        for name in ("wadlclient", "lazr.restfulclient", "wadllib", "httplib2", "httpx", "pyperf")
    )
    return [
        ("date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("CPU", _cpu_model()),
        ("cores", str(os.cpu_count())),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("OS", platform.platform()),
        ("libraries", libraries),
        ("commit", _git_commit()),
    ]


def method_notes(plan: Plan) -> list[str]:
    notes = [
        "Each server (`python -m cookbook_service ...` and, for the warm start, "
        "`benchmarks.lpserver`) runs as its own process on 127.0.0.1, so its CPU never "
        "shares the client's GIL. The machine has "
        f"{os.cpu_count()} cores: the server and the measured client each get about one.",
        "Samples are taken by pyperf workers (`benchmarks.worker`), one worker process per "
        "client per round; rounds alternate the client order. Start-up workloads spawn a new "
        "interpreter per sample (`benchmarks.child`) and time the step itself (the import, or "
        "the `ServiceRoot(...)` call), not interpreter start-up. Memory workloads take one "
        "sample per fresh worker: `memory*` rows with pyperf `--tracemalloc` (peak of the "
        "Python allocations made while iterating; tracing starts after the service root "
        "exists), `rss*` rows with `benchmarks.peakmem` (peak private memory of the whole "
        "process, so interpreter and imported libraries included, sampled every 10 ms from "
        "`/proc/self/smaps_rollup`).",
        "Why not pyperf's `--track-memory` for the `rss*` rows: it sums `/proc/self/smaps` "
        "read line by line from a Python thread, 8 KiB per system call with the GIL handed "
        "back in between, so one reading spans 7 to 60 ms of a walk that maps and frees "
        "memory meanwhile and is not a snapshot of the process. About one sample in ten "
        "(at 10,000 as at 100,000 entries) read 7 MiB above the others; an observer outside "
        "the process reading its `smaps_rollup` every 3 ms saw no such peak during those "
        "walks, and the walk retains nothing (tracemalloc and `gc` counts are the same "
        "after 10,000, 100,000 and 300,000 entries). With 2 samples per row one such "
        "reading moved the median by 3.5 MiB. `smaps_rollup` is the same sum, made by the "
        "kernel in one pass and read in one piece.",
        "The floor is the same HTTP exchanges made on a bare keep-alive "
        "`http.client.HTTPConnection` (the fastest bare client measured; wadlclient's "
        "default transport sends on it too): bodies read, JSON decoded, no WADL parsed, no "
        "objects built. For iteration it walks the server's default pages (75 entries) as "
        "lazr.restfulclient does; for import it is `import http.client`. wadlclient walks "
        "pages of 150 by default; the row `iterate_same_pages` makes it walk 75 too, so "
        "speed per request and speed from bigger pages are separate figures.",
        "The last column is the network work of one operation (or one process) per client, "
        "counted by the service itself (`--journal-endpoint`: requests answered and bytes "
        "of status line, headers and body, before uvicorn adds its Date and Server headers), "
        "in an untimed run after the timed ones; the operation runs once before it is "
        "counted, as the warm-up does before the timed values.",
        "Whole-process rows (`process_*`) time a new interpreter from `exec` to exit, "
        "as a shell would: interpreter start-up, the import, the service root on a warm "
        "cache and one collection read (the Launchpad row reads the root only: its server "
        "publishes no collection).",
        "Warm start: one cold start per client fills its cache from `benchmarks.lpserver` "
        "(the 1.5 MB Launchpad WADL, `max-age` one year); the server is then stopped, so a "
        "warm start that sent any request would fail the run.",
        "Each entry read during iteration and slicing has one field (`id`) read.",
        "Bytecode: measured processes run without `PYTHONDONTWRITEBYTECODE` and with "
        "`PYTHONPYCACHEPREFIX=.bench-tmp/pycache`, primed before timing, so both libraries "
        "import from compiled bytecode as after a `pip install` (this machine sets "
        "`PYTHONDONTWRITEBYTECODE=1`, which made wadlclient's editable sources recompile "
        "on every import while lazr.restfulclient read its installed `.pyc` files).",
    ]
    for workload in plan.workloads:
        samples = workload.rounds * workload.values
        extra = f"; {workload.note}" if workload.note else ""
        notes.append(
            f"`{workload.key}`: {workload.rounds} rounds x {workload.values} values "
            f"(+{workload.warmups} warm-up per worker) = {samples} samples per client{extra}."
        )
    return notes


def load_average() -> str:
    """The 1/5/15-minute load average: other work on the machine skews every figure."""
    try:
        return " / ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def write_markdown(
    path: Path,
    plan: Plan,
    rows: list[Row],
    analysis: str = "",
    extra_facts: list[tuple[str, str]] | None = None,
    leading: str = "",
) -> None:
    """RESULTS.md: ``leading`` sections (what users far from the server feel) first."""
    facts = "\n".join(
        f"- {name}: {value}" for name, value in [*machine_facts(), *(extra_facts or [])]
    )
    notes = "\n".join(f"- {note}" for note in method_notes(plan))
    flat = "\n".join(f"- {line}" for line in flatness_lines(rows)) or "- not measured"
    scaling = "\n".join(f"- {line}" for line in scaling_lines(rows)) or "- not measured"
    errors = "\n".join(f"- `{r.workload.key}`: {r.error}" for r in rows if r.error)
    text = (
        "# Benchmark results\n\n"
        "Generated by `make bench` (`python -m benchmarks.run`). Ratio = wadlclient median / "
        "lazr.restfulclient median; lower is better. Where the time goes, per workload, and "
        "what would remove it: [PROFILES.md](PROFILES.md).\n\n"
        + (f"{leading.strip()}\n\n## On loopback\n\n" if leading else "")
        + f"{markdown_table(rows)}\n\n"
        "## Scaling\n\n"
        f"{scaling}\n\n"
        "## Peak memory as the collection grows\n\n"
        f"{flat}\n\n"
        "## Machine\n\n"
        f"{facts}\n\n"
        "## Method\n\n"
        f"{notes}\n"
    )
    if errors:
        text += f"\n## Errors\n\n{errors}\n"
    if analysis:
        text += f"\n{analysis.strip()}\n"
    path.write_text(text)
