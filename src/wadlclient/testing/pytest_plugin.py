"""pytest fixtures of the testing kit, registered by wadlclient's ``pytest11`` entry point.

``fake_launchpad``: a `FakeService` of Launchpad, with launchpadlib's
logins and every wadlclient root for Launchpad's addresses pointed at it
for the test (`patched_launchpad`). It is made from the WADL the
``fake_launchpad_wadl`` fixture gives (a path or bytes): the file
``$WADLCLIENT_LAUNCHPAD_WADL`` names when it is set, else Launchpad's
devel WADL shipped with the kit (`launchpad_wadl`); a project overrides
the fixture for another version (``return launchpad_wadl("1.0")``) or
its own copy. When a handler of the fake raised, the test fails at
teardown with that exception, in one line.

Importing this module imports neither launchpadlib nor the fake: pytest
loads it in every session.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from wadlclient.testing.service import FakeService

__all__ = ["fake_launchpad", "fake_launchpad_wadl", "handler_error_summary"]


@pytest.fixture(scope="session")
def fake_launchpad_wadl() -> Path | bytes:
    """The Launchpad WADL the fake is made from: ``$WADLCLIENT_LAUNCHPAD_WADL``, else devel's."""
    named = os.environ.get("WADLCLIENT_LAUNCHPAD_WADL")
    if named:
        return Path(named)
    from wadlclient.testing.wadls import launchpad_wadl

    return launchpad_wadl()


@pytest.fixture
def fake_launchpad(fake_launchpad_wadl: Path | bytes, tmp_path: Path) -> Iterator[FakeService]:
    """A fresh fake Launchpad that every login reaches until the test ends."""
    from wadlclient.testing.launchpad import patched_launchpad
    from wadlclient.testing.service import FakeService

    with (
        FakeService(fake_launchpad_wadl) as fake,
        patched_launchpad(fake, cache=str(tmp_path / "lp-cache")),
    ):
        yield fake
    if fake.handler_errors:
        pytest.fail(handler_error_summary(fake.handler_errors), pytrace=False)


def handler_error_summary(errors: list[Exception]) -> str:
    """One line per handler error: what it raised, and the line of the handler that raised it."""
    lines = []
    for error in errors:
        frames = traceback.extract_tb(error.__traceback__)
        where = f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""
        lines.append(f"a handler of the fake raised {type(error).__name__}: {error}{where}")
    return "\n".join(lines)
