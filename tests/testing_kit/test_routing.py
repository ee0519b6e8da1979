"""One fixture serves launchpadlib, `wadlclient.launchpad` and the native `ServiceRoot` alike.

Code written against ``https://api.launchpad.net/`` reaches the fake
through the address hook every wadlclient root asks at start-up
(`wadlclient.objects.rewrite_service_addresses`); what the fake does not
stand in for is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from launchpadlib.launchpad import Launchpad

import wadlclient.launchpad
from cookbook_service.wadl import generate_wadl
from wadlclient import NotFound, ServiceRoot, Unauthorized
from wadlclient.objects import rewrite_service_addresses
from wadlclient.objects.addresses import rewritten_address
from wadlclient.testing import FakeService, routed_to


@pytest.fixture
def fake_cookbook() -> Iterator[FakeService]:
    wadl = generate_wadl("http://cookbooks.test/1.0/", "application/vnd.sun.wadl+xml")
    with FakeService(wadl) as fake:
        yield fake


def test_typed_anonymous_code_reaches_the_fixtures_fake(fake_launchpad: FakeService) -> None:
    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")

    with wadlclient.launchpad.login_anonymously(
        "reader", "https://api.launchpad.net/", version="devel"
    ) as lp:
        names = [person.display_name for person in lp.people]
        with pytest.raises(Unauthorized):
            lp.me.name  # noqa: B018 - reading it is the request

    assert names == ["Ada Lovelace"]
    assert [(s.path, s.status) for s in fake_launchpad.journal if s.path] == [
        ("people", 200),
        ("people/+me", 401),
    ]


@pytest.mark.parametrize(
    "address",
    [
        "https://api.launchpad.net/",
        "https://api.staging.launchpad.net/",
        "https://api.qastaging.launchpad.net",
        "http://api.launchpad.test:8085/",
    ],
)
def test_every_launchpad_address_reaches_the_fake(
    fake_launchpad: FakeService, address: str
) -> None:
    ada = fake_launchpad.add("people", name="ada")
    fake_launchpad.set_root_link("me", ada)

    with wadlclient.launchpad.connect(None, address, version="devel") as lp:
        assert lp.me.name == "ada"
        assert lp.service_root == fake_launchpad.base


def test_launchpadlib_and_native_roots_in_one_test_share_the_fake(
    fake_launchpad: FakeService,
) -> None:
    fake_launchpad.add("bugs", title="Crash")

    via_launchpadlib = Launchpad.login_with("bot", "production", version="devel").bugs[1]
    with ServiceRoot(None, "https://api.launchpad.net/devel/", version=None) as native:
        via_native = native.load("bugs/1")

        assert (via_launchpadlib.title, via_native.title) == ("Crash", "Crash")
    assert len(fake_launchpad.journal.requests("GET", "bugs/1")) == 2


def test_a_native_root_for_another_version_gets_the_404_naming_both(
    fake_launchpad: FakeService,
) -> None:
    with pytest.raises(NotFound) as refused:
        ServiceRoot(None, "https://api.launchpad.net/", version="1.0")

    assert b"serves version 'devel' (/devel/) only" in refused.value.content
    assert b"launchpad_wadl('1.0')" in refused.value.content


def test_a_fake_of_any_wadl_stands_in_for_the_host_it_was_published_at(
    fake_cookbook: FakeService,
) -> None:
    fake_cookbook.add("cookbooks", name="Basics")

    with routed_to(fake_cookbook), ServiceRoot(None, "http://cookbooks.test/") as root:
        assert [book.name for book in root.cookbooks] == ["Basics"]

    assert fake_cookbook.journal.requests("GET", "cookbooks")


def test_an_address_the_fake_does_not_stand_in_for_is_left_alone(
    fake_cookbook: FakeService,
) -> None:
    with FakeService(generate_wadl("http://other.test/1.0/", "application/json")) as other:
        other.add("cookbooks", name="Elsewhere")
        with routed_to(fake_cookbook), ServiceRoot(None, other.service_root) as root:
            assert [book.name for book in root.cookbooks] == ["Elsewhere"]

    assert fake_cookbook.journal.entries() == []


def test_the_rewrite_ends_with_its_block_and_the_latest_is_asked_first() -> None:
    url = "https://api.launchpad.net/devel/"

    with rewrite_service_addresses(lambda u: "http://outer.test/devel/"):
        with rewrite_service_addresses(lambda u: "http://inner.test/devel/"):
            inner = rewritten_address(url)
        outer = rewritten_address(url)
    after = rewritten_address(url)

    assert (inner, outer, after) == ("http://inner.test/devel/", "http://outer.test/devel/", url)


def test_typed_key_lookups_for_launchpads_address_reach_the_fakes_shapes(
    fake_launchpad: FakeService,
) -> None:
    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.add("projects", name="frobnicator", display_name="Frobnicator")
    fake_launchpad.add("bugs", title="It frobs")

    with wadlclient.launchpad.login_anonymously(
        "keys", "https://api.launchpad.net/", version="devel"
    ) as lp:
        found = [lp.people["ada"].display_name, lp.projects["frobnicator"].display_name]
        found.append(lp.bugs["1"].title)

    assert found == ["Ada Lovelace", "Frobnicator", "It frobs"]
    assert [s.path for s in fake_launchpad.journal if s.path] == ["~ada", "frobnicator", "bugs/1"]
