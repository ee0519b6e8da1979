"""The consumer tests' economy (`tests.stock_wadl`): stock launchpadlib parses a fake's WADL once.

Each test still gets a fresh fake; the fakes of a process keep one port,
so they serve the very same document, and the test process's stock
lazr.restfulclient reuses the `Application` it parsed from it. These
tests run on stock launchpadlib only (no rerun on wadlclient: wadlclient
parses no WADL with wadllib). launchpadlib is imported by the tests that
log in: at the top of the module, every pytest-xdist worker collecting it
would pay for it.
"""

from __future__ import annotations

from urllib.request import Request, urlopen

import pytest
from tests.stock_wadl import fake_on_the_last_port

from wadlclient.testing import FakeService, launchpad_wadl


def test_a_new_fake_listens_on_the_port_of_the_last_one() -> None:
    with fake_on_the_last_port(launchpad_wadl()) as first:
        pass
    with fake_on_the_last_port(launchpad_wadl()) as second:
        assert second.service_root == first.service_root
        assert second.journal.requests("GET") == []


def test_a_port_taken_meanwhile_gives_the_next_fake_another() -> None:
    with fake_on_the_last_port(launchpad_wadl()) as first:
        pass
    taken = int(first.service_root.split(":")[2].strip("/"))
    with (
        FakeService(launchpad_wadl(), port=taken),
        fake_on_the_last_port(launchpad_wadl()) as second,
    ):
        assert second.service_root != first.service_root


def test_stock_logins_to_the_same_document_share_one_parse(
    fake_launchpad: FakeService, lazr_client: str
) -> None:
    from launchpadlib.launchpad import Launchpad

    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")

    first = Launchpad.login_anonymously("parse-once", version="devel")
    second = Launchpad.login_anonymously("parse-once", version="devel")

    assert first._wadl is second._wadl
    assert [lp.people["ada"].display_name for lp in (first, second)] == ["Ada Lovelace"] * 2


def test_the_remembered_parse_is_what_a_parse_of_its_own_would_give(
    fake_launchpad: FakeService, lazr_client: str
) -> None:
    from launchpadlib.launchpad import Launchpad
    from wadllib.application import Application

    remembered = Launchpad.login_anonymously("parse-once", version="devel")._wadl
    asked = Request(fake_launchpad.base, headers={"Accept": "application/vnd.sun.wadl+xml"})
    with urlopen(asked) as answer:
        served = answer.read()

    own = Application(remembered.markup_url, served)

    assert own is not remembered
    assert (own.markup_url, own.resource_base) == (remembered.markup_url, remembered.resource_base)
    assert own.resource_types.keys() == remembered.resource_types.keys()
    assert own.representation_definitions.keys() == remembered.representation_definitions.keys()


@pytest.fixture(autouse=True)
def _stock_only(lazr_client: str) -> None:
    assert lazr_client == "stock"
