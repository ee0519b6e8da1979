"""The typed tests' checkers, shared by the whole test run (every pytest-xdist worker).

mypy: one cache for the run, under the project's configuration (checkers.py),
seeded from the project's ``.mypy_cache`` when ``make lint`` has left one
(copied: nothing is written back), so wadlclient, its stubs and the standard
library are analysed at most once per run, not once per test. Its mypy runs
take it one at a time, behind a file lock, so no two write it at once.
The launchpad modules both checkers check: one mypy run and one pyright run
per test run, and each test asserts on its own files.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.once_per_run import key_of, locked, made_once
from tests.typed.checkers import (
    CONFIG,
    LAUNCHPAD,
    LAUNCHPAD_CHECKED,
    ROOT,
    Mypy,
    diagnostics_by_file,
    errors_by_file,
    run_mypy,
    run_pyright,
)


def _seed(cache: Path) -> None:
    """Start from ``make lint``'s cache, if any: same mypy, same options, so its modules hold."""
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache, dirs_exist_ok=True)


@pytest.fixture(scope="session")
def mypy(tmp_path_factory: pytest.TempPathFactory) -> Mypy:
    """``mypy(*targets, cwd=..., mypypath=...)``: the output lines of a run on the run's cache."""
    name = f"mypy-cache-{key_of(CONFIG)}"
    made_once(tmp_path_factory, name, _seed)

    def run(*targets: Path, cwd: Path, mypypath: Path | None = None) -> list[str]:
        with locked(tmp_path_factory, name) as cache:
            return run_mypy(cache, targets, cwd, mypypath).splitlines()

    return run


@pytest.fixture(scope="session")
def launchpad_mypy_errors(
    tmp_path_factory: pytest.TempPathFactory, mypy: Mypy
) -> dict[str, list[tuple[int, str]]]:
    """mypy's errors in the launchpad modules, by file name, from one run per test run."""

    def check(where: Path) -> None:
        output = mypy(*(Path(p.name) for p in LAUNCHPAD_CHECKED), cwd=LAUNCHPAD)
        (where / "output.txt").write_text("\n".join(output))

    where = made_once(tmp_path_factory, f"mypy-launchpad-{key_of(LAUNCHPAD_CHECKED)}", check)
    return errors_by_file((where / "output.txt").read_text())


@pytest.fixture(scope="session")
def launchpad_pyright(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """pyright's diagnostics on the launchpad modules, by file name, from one run per test run."""
    if importlib.util.find_spec("pyright") is None:
        pytest.skip("pyright is not installed: the lint extra installs it (make test does)")
    key = key_of(LAUNCHPAD_CHECKED)
    where = made_once(tmp_path_factory, f"pyright-launchpad-{key}", run_pyright)
    return diagnostics_by_file(where / "report.json")
