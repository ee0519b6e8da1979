"""pytest fixtures of the testing kit, registered by wadlclient's ``pytest11`` entry point.

``fake_launchpad``: a `FakeService` of Launchpad, with launchpadlib's
logins patched to reach it for the test. It is made from the WADL the
``fake_launchpad_wadl`` fixture gives (a path or bytes): by default the
file ``$WADLCLIENT_LAUNCHPAD_WADL`` names; a project overrides the
fixture to use its own copy (``https://api.launchpad.net/devel/`` with
``Accept: application/vnd.sun.wadl+xml`` serves it).

Importing this module imports neither launchpadlib nor the fake: pytest
loads it in every session.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from wadlclient.testing.service import FakeService

__all__ = ["fake_launchpad", "fake_launchpad_wadl"]


@pytest.fixture(scope="session")
def fake_launchpad_wadl() -> Path | bytes:
    """The Launchpad WADL the fake is made from: ``$WADLCLIENT_LAUNCHPAD_WADL``."""
    named = os.environ.get("WADLCLIENT_LAUNCHPAD_WADL")
    if not named:
        pytest.fail(
            "fake_launchpad needs Launchpad's WADL: set WADLCLIENT_LAUNCHPAD_WADL to its path, "
            "or define a fixture fake_launchpad_wadl returning the path or bytes",
            pytrace=False,
        )
    return Path(named)


@pytest.fixture
def fake_launchpad(fake_launchpad_wadl: Path | bytes, tmp_path: Path) -> Iterator[FakeService]:
    """A fresh fake Launchpad; launchpadlib's logins reach it until the test ends."""
    from wadlclient.testing.launchpad import patched_launchpad
    from wadlclient.testing.service import FakeService

    with (
        FakeService(fake_launchpad_wadl) as fake,
        patched_launchpad(fake, cache=str(tmp_path / "lp-cache")),
    ):
        yield fake
