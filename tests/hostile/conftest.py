"""Fixtures of the hostile-server tests: the server (shared, reset per test) and roots on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.hostile.server import HostileServer, running_server

from wadlclient import ServiceRoot


@pytest.fixture(scope="session")
def _hostile_session() -> Iterator[HostileServer]:
    yield from running_server()


@pytest.fixture
def hostile(_hostile_session: HostileServer) -> HostileServer:
    _hostile_session.reset()
    return _hostile_session


@pytest.fixture
def make_root(hostile: HostileServer) -> Iterator[Callable[..., ServiceRoot]]:
    """``make_root(authorizer=None, document=None, **options)``: a root on the hostile server."""
    made: list[ServiceRoot] = []

    def make(authorizer: Any = None, document: dict[str, Any] | None = None, **options: Any):
        hostile.serve_root(document=document)
        root = ServiceRoot(authorizer, hostile.url, version="1.0", **options)
        made.append(root)
        return root

    yield make
    for root in made:
        root.close()
