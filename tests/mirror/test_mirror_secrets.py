"""A mirror's directory holds no credential: the state names the root by its recipe (issue 42)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import BasicHttpAuthorizer, ServiceRoot
from wadlclient.mirror import mirror

from .conftest import SOURCE

USER, PASSWORD = "mirror-user-5150", "pw-mirror-Nightly-8812"


def test_the_state_and_the_parts_hold_no_password(
    cookbook_service_factory: Callable[..., RunningService], tmp_path: Path
) -> None:
    service = cookbook_service_factory(auth="basic", seed_recipes=200)
    service.add_user(USER, PASSWORD)

    class Interrupted(Exception):
        """Stops the run after its first part, leaving the state and the parts on disk."""

    class StopAfterFirstPart:
        def start(self, total: int | None) -> None: ...

        def advance(self, entries: int) -> None:
            raise Interrupted

        def finish(self) -> None: ...

    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), service.base_url) as root:
        with pytest.raises(Interrupted):
            mirror(root, "cookbooks", tmp_path, progress=StopAfterFirstPart(), **SOURCE)
        written = [path for path in tmp_path.rglob("*") if path.is_file()]
        assert any(path.parent.name == ".parts" for path in written)
        for path in written:
            assert PASSWORD.encode() not in path.read_bytes(), path
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
    assert report.entries == 200
