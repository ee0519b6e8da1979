"""Shared test configuration.

The service fixtures (``cookbook_service``, ``cookbook_service_factory``)
come from the ``cookbook_service.testing`` pytest plugin, registered by the
package's entry point.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """Where the team's shared test data lives.

    CI clones the repository with ``shared/`` beside it; a clone made
    elsewhere on a developer machine finds it at ``/work/shared``; the
    ``WADLCLIENT_SHARED_DIR`` variable overrides both.
    """
    candidates = []
    if "WADLCLIENT_SHARED_DIR" in os.environ:
        candidates.append(Path(os.environ["WADLCLIENT_SHARED_DIR"]))
    candidates += [REPO_ROOT.parent / "shared", Path("/work/shared")]
    for candidate in candidates:
        if (candidate / "data").is_dir():
            return candidate / "data"
    raise FileNotFoundError(
        "shared test data not found; set WADLCLIENT_SHARED_DIR to the shared/ directory"
    )


@pytest.fixture(scope="session")
def launchpad_wadl_path() -> Path:
    """The 1.5 MB Launchpad WADL from the shared test data."""
    return shared_data_dir() / "launchpad-devel.wadl"


@pytest.fixture(scope="session")
def launchpad_wadl_bytes(launchpad_wadl_path: Path) -> bytes:
    """The Launchpad WADL's bytes, read once per session."""
    return launchpad_wadl_path.read_bytes()
