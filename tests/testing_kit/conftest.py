"""Fakes for the testing kit's tests: one per test, on the Launchpad and cookbook WADLs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.testing import FakeService


@pytest.fixture
def fake_lp(launchpad_wadl_bytes: bytes) -> Iterator[FakeService]:
    """A fake Launchpad, from its real 1.5 MB WADL, empty and listening."""
    with FakeService(launchpad_wadl_bytes) as fake:
        yield fake


@pytest.fixture
def fake_cookbook() -> Iterator[FakeService]:
    """A fake of the cookbook service, made from the WADL the real one serves."""
    wadl = generate_wadl("http://cookbooks.test/1.0/", "application/vnd.sun.wadl+xml")
    with FakeService(wadl) as fake:
        yield fake


@pytest.fixture
def lp_root(fake_lp: FakeService) -> Iterator[ServiceRoot]:
    """wadlclient's own client on the fake Launchpad."""
    with ServiceRoot(None, fake_lp.service_root, version=fake_lp.version) as root:
        yield root


@pytest.fixture(scope="session")
def fake_launchpad_wadl(launchpad_wadl_bytes: bytes) -> bytes:
    """The plugin's ``fake_launchpad`` made from the shared test data's Launchpad WADL."""
    return launchpad_wadl_bytes
