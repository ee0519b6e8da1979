"""Which roots ``load_web`` reads for: Launchpad's, on the address's instance."""

from __future__ import annotations

from typing import Any

import pytest

import wadlclient
from cookbook_service.testing import RunningService
from wadlclient import WebAddressError
from wadlclient.objects.web import load_web


def test_a_root_of_another_service_refuses_web_addresses_and_sends_nothing(
    cookbook_service: RunningService,
) -> None:
    with wadlclient.ServiceRoot(None, cookbook_service.base_url) as root:
        before = len(cookbook_service.journal.entries())

        with pytest.raises(WebAddressError, match="this service is not Launchpad's"):
            root.load_web("https://bugs.launchpad.net/bugs/1")

        assert len(cookbook_service.journal.entries()) == before


class ProductionRoot:
    """A stand-in for a root at https://api.launchpad.net/devel/: no server on loopback can
    be reached at Launchpad's own host name, and the refusal sends no request (``load``
    fails the test if it is called)."""

    service_root = "https://api.launchpad.net/devel/"
    lp_collections = ["archives", "bugs", "distributions", "people", "projects"]

    def load(self, url: str) -> Any:
        raise AssertionError(f"load_web sent a request for {url}")


@pytest.mark.parametrize(
    ("text", "instance"),
    [
        ("https://bugs.staging.launchpad.net/bugs/1", "staging.launchpad.net"),
        ("https://qastaging.launchpad.net/~ada", "qastaging.launchpad.net"),
        ("https://code.dogfood.paddev.net/~ada/frob/+git/frob", "dogfood.paddev.net"),
        ("http://launchpad.test/frob", "launchpad.test"),
    ],
)
def test_an_address_of_another_launchpad_instance_is_refused(text: str, instance: str) -> None:
    with pytest.raises(WebAddressError) as caught:
        load_web(ProductionRoot(), text)  # type: ignore[arg-type]

    assert f"it is an address on {instance}, and this root is launchpad.net's" in str(caught.value)
