"""Under `routed_to`, no request for the real service leaves the machine, however it is spelt.

Each test here runs with a tripwire on name resolution: `socket.getaddrinfo`
is replaced by one that raises for any host but loopback (a monkeypatch, the
only way to prove that nothing was looked up; no server can show it). A
request that escaped the routing would fail there, naming the host.
Stock launchpadlib (on lazr.restfulclient and httplib2) is not a wadlclient
root: `patched_launchpad` moves its start, not its other requests.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from wadlclient import AccessToken, OAuthAuthorizer, ServiceRoot
from wadlclient.testing import FakeService, routed_to
from wadlclient.testing.routing import RouteRefused

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture(autouse=True)
def no_name_resolution(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Looking up any host but loopback fails the test (and is listed)."""
    looked_up: list[str] = []
    real = socket.getaddrinfo

    def tripwire(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in _LOOPBACK:
            looked_up.append(name)
            raise AssertionError(f"name resolution reached for {name!r}")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", tripwire)
    yield looked_up
    assert looked_up == []


@pytest.mark.parametrize(
    "url",
    [
        "https://api.launchpad.net/devel/~ada",
        "https://API.Launchpad.NET/devel/~ada",
        "https://api.launchpad.net./devel/~ada",
        "https://api.launchpad.net:443/devel/~ada",
        "http://api.launchpad.net:8080/devel/~ada",
        "https://api.staging.launchpad.net/devel/~ada",
    ],
)
def test_an_absolute_url_for_the_real_service_in_any_spelling_reaches_the_fake(
    fake_lp: FakeService, url: str
) -> None:
    fake_lp.add("people", name="ada", display_name="Ada Lovelace")

    with (
        routed_to(fake_lp),
        ServiceRoot(None, "https://api.launchpad.net/devel/", version=None) as root,
    ):
        assert root.load(url).display_name == "Ada Lovelace"

    assert len(fake_lp.journal.requests("GET", "~ada")) == 1


def test_a_root_for_the_host_with_a_trailing_dot_reaches_the_fake_with_its_credentials(
    fake_lp: FakeService,
) -> None:
    ada = fake_lp.add("people", name="ada")
    fake_lp.set_root_link("me", ada)
    authorizer = OAuthAuthorizer("tests", access_token=AccessToken("key", "secret"))

    with (
        routed_to(fake_lp),
        ServiceRoot(authorizer, "https://api.launchpad.net./", version="devel") as root,
    ):
        assert root.me.name == "ada"

    assert root.service_root == fake_lp.base


def test_a_collection_at_the_real_address_is_walked_on_the_fake(fake_lp: FakeService) -> None:
    fake_lp.add("people", name="ada", display_name="Ada Lovelace")

    with routed_to(fake_lp), ServiceRoot(None, fake_lp.base, version=None) as root:
        people = root.load("https://api.launchpad.net/devel/people")
        assert [person.name for person in people] == ["ada"]


def test_launchpads_other_hosts_are_refused_in_one_line(fake_lp: FakeService) -> None:
    with (
        routed_to(fake_lp),
        ServiceRoot(None, "https://api.launchpad.net/devel/", version=None) as root,
        pytest.raises(RouteRefused) as refused,
    ):
        root.load("https://LAUNCHPAD.net./~ada")

    message = str(refused.value)
    assert "\n" not in message
    assert "is Launchpad's but not the web service the fake stands in for" in message


def test_a_fake_of_any_wadl_takes_its_hosts_other_spellings(fake_cookbook: FakeService) -> None:
    fake_cookbook.add("cookbooks", name="Basics")

    with routed_to(fake_cookbook), ServiceRoot(None, "http://cookbooks.test/") as root:
        page = root.load("http://COOKBOOKS.test.:8080/1.0/cookbooks")
        assert [book.name for book in page] == ["Basics"]
