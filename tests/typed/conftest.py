"""One mypy cache per configuration for every mypy run of the typed tests in a test run.

Each run analyses wadlclient, its stubs and the standard library before the
module under test; with a cache shared by the whole run (every pytest-xdist
worker's mypy runs, one at a time behind a file lock, so no two write it at
once), that is done once. mypy's incremental mode checks each cached module
against its source and options, so a shared cache reports what a cold one
would. Runs under other options would only redo each other's work: a run in
the project (cwd inside it) takes the project's ``[tool.mypy]`` (Python 3.10,
its overrides), one elsewhere none, so each of the two has a cache of its own.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from tests.once_per_run import key_of, locked
from tests.typed.mypy_cache import MypyCache

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> MypyCache:
    """The run's mypy cache for a run in ``cwd``, locked while a mypy run uses it."""

    def cache(cwd: Path) -> AbstractContextManager[Path]:
        project = cwd.resolve().is_relative_to(ROOT)
        config = key_of(ROOT / "pyproject.toml") if project else "none"
        return locked(tmp_path_factory, f"mypy-cache-{config}")

    return cache
