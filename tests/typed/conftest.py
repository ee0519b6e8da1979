"""One mypy cache for every mypy run of the typed tests in a test run, one run at a time.

Each run analyses wadlclient, its stubs and the standard library before the
module under test; with a cache shared by the whole run (every pytest-xdist
worker's mypy runs, one at a time behind a file lock, so no two write it at
once), that is done once. mypy's incremental mode checks each cached module
against its source and options, so a shared cache reports what a cold one
would. Runs with other cache-affecting options (``--python-version``) get a
cache of their own, so that they do not throw each other's away.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from tests.once_per_run import key_of, locked
from tests.typed.mypy_cache import MypyCache


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> MypyCache:
    """The run's mypy cache for a set of options, locked while a mypy run uses it."""

    def cache(*options: str) -> AbstractContextManager[Path]:
        return locked(tmp_path_factory, f"mypy-cache-{key_of(*options)}")

    return cache
