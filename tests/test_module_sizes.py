"""Modules of one job: no module the project writes is over ``MAX_LINES`` lines.

A module that grows past it does more than one job and is split along a line
the layout shows (as ``http/transport.py`` was). Generated code is left out:
the typed Launchpad package's stubs are as long as Launchpad's API.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 450
WRITTEN = ("src", "tests", "benchmarks", "examples")


def _modules() -> list[Path]:
    return sorted(path for top in WRITTEN for path in (ROOT / top).rglob("*.py"))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_the_size_a_module_of_one_job_has() -> None:
    over = {str(p.relative_to(ROOT)): n for p in _modules() if (n := _lines(p)) > MAX_LINES}

    assert over == {}, f"split these modules along a line of their own (over {MAX_LINES}): {over}"


@pytest.mark.parametrize("top", WRITTEN)
def test_the_size_rule_reads_every_tree_it_names(top: str) -> None:
    assert any(path.is_relative_to(ROOT / top) for path in _modules())
