"""Fakes for the testing kit's tests: one per test, on Launchpad's devel WADL and the cookbook's.

The ``fake_launchpad`` fixture is the plugin's, on the devel WADL shipped with the kit, made
on the port of the process's last fake, and stock wadllib's parse of its WADL is made once per
process (`tests.stock_wadl`; test_pytest_fixture.py runs the plugin's own as a project does).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.stock_wadl import fake_launchpad, fake_on_the_last_port, stock_wadl_parsed_once

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.testing import FakeService, launchpad_wadl

__all__ = ["fake_launchpad", "stock_wadl_parsed_once"]


@pytest.fixture
def fake_lp() -> Iterator[FakeService]:
    """A fake Launchpad, from its published 2.2 MB devel WADL, empty and listening."""
    with fake_on_the_last_port(launchpad_wadl()) as fake:
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
