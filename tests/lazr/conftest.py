"""Fixtures of the lazr compatibility tests: the Launchpad-like loopback service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.lazr.lpservice import LoopbackServer


@pytest.fixture
def launchpad_like(launchpad_wadl_bytes: bytes) -> Iterator[LoopbackServer]:
    """A fresh Launchpad-like service per test (its journal starts empty)."""
    with LoopbackServer(launchpad_wadl_bytes) as server:
        yield server
