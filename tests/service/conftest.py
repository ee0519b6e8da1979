"""Helpers for the example service's own tests."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest


@pytest.fixture(scope="session")
def web() -> Iterator[httpx.Client]:
    """One keep-alive httpx client for the session (creating clients is slow)."""
    with httpx.Client(timeout=10) as client:
        yield client
