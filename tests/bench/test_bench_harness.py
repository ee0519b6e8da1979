"""The benchmark harness keeps working: its smoke mode runs inside ``make test``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import run
from benchmarks.config import (
    FLOOR,
    OURS,
    PYCACHE_DIR,
    THEIRS,
    Workload,
    launchpad_wadl_path,
    measured_env,
    smoke_plan,
)
from benchmarks.lpserver import ORIGINAL_BASE, rewrite_wadl, root_json
from benchmarks.report import Row, Stats, scaling_lines
from benchmarks.smoke import SmokeRow

#: The smoke plan in two halves, one test each, which pytest-xdist runs side by side (one run
#: of the whole plan was the suite's longest test): the rows on the example service, and
#: the rest, the start-ups and the Launchpad rows. Each row is in exactly one half.
HALVES = {
    "service_rows": [w.key for w in smoke_plan().workloads if w.service],
    "launchpad_and_start_up_rows": [w.key for w in smoke_plan().workloads if not w.service],
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("half", sorted(HALVES))
def test_smoke_run_measures_every_workload_and_writes_the_report(
    half: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One smoke run of half the plan: one worker per client for all its rows; one half's chart.

    The orchestrator runs in this process (`benchmarks.run.main`): what it starts,
    servers, workers and fresh interpreters, are the processes under test; a process
    of its own for it cost an interpreter and its imports. The halves cost a second
    worker per client (about 1 s of CPU in all) and run in parallel; one draws the chart.
    """
    results, chart = tmp_path / "RESULTS.md", tmp_path / "ratios.png"
    keys = HALVES[half]
    drawn = ["--chart", str(chart)] if half == "service_rows" else []

    status = run.main(["--smoke", "--only", ",".join(keys), "--results", str(results), *drawn])

    printed = capsys.readouterr()
    assert status == 0, printed.out[-3000:] + printed.err[-3000:]
    report = results.read_text()
    for workload in (w for w in smoke_plan().workloads if w.key in keys):
        row = next(line for line in report.splitlines() if line.startswith(f"| {workload.title} |"))
        assert "ERROR" not in row and row.split("|")[2].strip() != "-", row
        if workload.clients != (OURS,):  # a row of wadlclient alone has no other column
            assert "| - | - |" not in row, row
    if drawn:
        assert chart.read_bytes().startswith(b"\x89PNG")


def test_the_smoke_still_starts_new_interpreters_for_one_start_up_row_and_one_script_row() -> None:
    """Its worker samples some start-up and script rows itself (`benchmarks.smoke.IN_WORKER`):
    ``cold_start``, ``process_script`` and ``launchpadlib`` keep the new-interpreter paths
    tested for every client."""
    plan = {w.key: SmokeRow(w, "http://127.0.0.1:9/", None, False) for w in smoke_plan().workloads}
    fresh = {key: row.as_json()["fresh"] for key, row in plan.items()}

    assert fresh["cold_start"] and fresh["process_script"] and fresh["launchpadlib"]
    assert not fresh["warm_start"] and not fresh["process_launchpad"]


def _row(key: str, goal: float, **medians: float) -> Row:
    workload = Workload(key, key, "loop", goal)
    return Row(workload, {client: Stats(m, m, m, 1) for client, m in medians.items()})


def test_refresh_passes_only_within_both_the_ratio_goal_and_the_floor_goal() -> None:
    near_the_wire = _row("refresh", 0.8, **{OURS: 0.50, THEIRS: 1.0, FLOOR: 0.45})
    far_above_the_wire = _row("refresh", 0.8, **{OURS: 0.50, THEIRS: 1.0, FLOOR: 0.30})

    assert near_the_wire.verdict() == "PASS"
    assert far_above_the_wire.verdict() == "MISS"


def test_a_ratio_above_the_goal_is_a_miss() -> None:
    assert _row("iterate", 0.5, **{OURS: 0.6, THEIRS: 1.0}).verdict() == "MISS"
    assert _row("iterate", 0.5, **{OURS: 0.4, THEIRS: 1.0}).verdict() == "PASS"


def test_warm_start_server_moves_every_launchpad_reference_to_loopback() -> None:
    base = "http://127.0.0.1:8123/1.0/"

    wadl = rewrite_wadl(launchpad_wadl_path().read_bytes(), base)
    root = json.loads(root_json(wadl, base))

    assert ORIGINAL_BASE.encode() not in wadl
    assert root["resource_type_link"] == base + "#service-root"
    assert root["people_collection_link"] == base + "people"
    assert all(value.startswith(base) for value in root.values())


def test_eight_threads_pass_only_at_five_times_the_speed_of_one() -> None:
    one = _row("lookup_latency", 0.6, **{OURS: 1.0, FLOOR: 1.0})
    fast = _row("lookup_latency_threads", 0.6, **{OURS: 0.19, FLOOR: 0.5})
    slow = _row("lookup_latency_threads", 0.6, **{OURS: 0.25, FLOOR: 0.5})

    assert "ours: 5.26x PASS" in " ".join(scaling_lines([one, fast]))
    assert "ours: 4.00x MISS" in " ".join(scaling_lines([one, slow]))


def test_walk_growth_from_10k_to_100k_passes_within_eleven_times() -> None:
    small = _row("iterate", 0.5, **{OURS: 1.0, THEIRS: 2.0})
    large = _row("iterate_100k", 0.5, **{OURS: 10.5, THEIRS: 30.0})

    lines = scaling_lines([small, large])

    assert lines == [
        "walk time 100k / 10k, ours: 10.50x PASS (goal <= 11)",
        "walk time 100k / 10k, lazr: 15.00x",
    ]


def test_measured_processes_use_a_private_bytecode_tree_only_where_bytecode_is_not_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    forbidden = measured_env()
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE")
    allowed = measured_env()

    assert "PYTHONDONTWRITEBYTECODE" not in forbidden
    assert forbidden["PYTHONPYCACHEPREFIX"] == str(PYCACHE_DIR)
    assert "PYTHONPYCACHEPREFIX" not in allowed  # the __pycache__ the tests' processes share
