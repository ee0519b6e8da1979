"""One mypy cache for every mypy run of the typed tests in a process.

Each run analyses wadlclient, its stubs and the standard library before the
module under test; with a cache shared by the session (one per pytest-xdist
worker, so no two mypy processes write it at once), that is done once.
mypy's incremental mode checks each cached module against its source and
options, so a shared cache reports what a cold one would.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's mypy cache directory."""
    return tmp_path_factory.mktemp("mypy-cache")
