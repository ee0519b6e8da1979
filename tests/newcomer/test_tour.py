"""The tour (``make demo``) names no document a user lacks, and its log lines tell apart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TOUR = Path(__file__).parents[2] / "examples" / "tour.py"


def run_tour() -> str:
    done = subprocess.run(
        [sys.executable, str(TOUR)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_tour_runs_names_no_spec_and_tells_the_root_requests_apart() -> None:
    output = run_tour()

    assert "SPEC" not in output.upper().replace("SPECIFICATION", "")
    first_step = output.split("\n 1. ", 1)[1].split("\n\n", 1)[0]
    logged = [line.strip() for line in first_step.splitlines() if "log:" in line]
    assert len(logged) == 4
    assert "(application/vnd.example.wadl+xml)" in logged[1]
    assert "(application/json)" in logged[3]
    assert "walking" in output  # the INFO line of a walk shows in the tour too
