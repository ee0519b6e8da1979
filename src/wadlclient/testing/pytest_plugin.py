"""pytest fixtures of the testing kit, registered by wadlclient's ``pytest11`` entry point.

``fake_launchpad``: a `FakeService` of Launchpad, with launchpadlib's
logins patched to reach it for the test. It is made from the WADL the
``fake_launchpad_wadl`` fixture gives (a path or bytes): the file
``$WADLCLIENT_LAUNCHPAD_WADL`` names when it is set, else the devel WADL
shipped with the kit (`launchpad_wadl`); a project overrides the fixture
to use its own copy (``https://api.launchpad.net/devel/`` with
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
    """The Launchpad WADL the fake is made from: ``$WADLCLIENT_LAUNCHPAD_WADL``, else the kit's."""
    named = os.environ.get("WADLCLIENT_LAUNCHPAD_WADL")
    if named:
        return Path(named)
    from wadlclient.testing.wadls import launchpad_wadl

    return launchpad_wadl()


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
