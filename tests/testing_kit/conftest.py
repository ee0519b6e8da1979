"""Fakes for the testing kit's tests: one per test, on Launchpad's devel WADL and the cookbook's.

The ``fake_launchpad`` fixture is the plugin's own, on the devel WADL shipped with the kit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.testing import FakeService, launchpad_wadl


@pytest.fixture
def fake_lp() -> Iterator[FakeService]:
    """A fake Launchpad, from its published 2.2 MB devel WADL, empty and listening."""
    with FakeService(launchpad_wadl()) as fake:
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
def fake_launchpad_wadl() -> bytes:
    """The plugin's ``fake_launchpad`` on the shipped devel WADL, whatever the environment names."""
    return launchpad_wadl()
