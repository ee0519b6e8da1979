"""Shared test configuration.

The service fixtures (``cookbook_service``, ``cookbook_service_factory``)
come from the ``cookbook_service.testing`` pytest plugin, registered by the
package's entry point. The shared data (the Launchpad WADL) is found the
way the benchmarks find it: ``$WADLCLIENT_SHARED_DIR``, then ``shared/``
beside the clone (as in CI), then ``/work/shared``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.config import launchpad_wadl_path as _launchpad_wadl_path


@pytest.fixture(scope="session")
def launchpad_wadl_path() -> Path:
    """The 1.5 MB Launchpad WADL from the shared test data."""
    return _launchpad_wadl_path()


@pytest.fixture(scope="session")
def launchpad_wadl_bytes(launchpad_wadl_path: Path) -> bytes:
    """The Launchpad WADL's bytes, read once per session."""
    return launchpad_wadl_path.read_bytes()
