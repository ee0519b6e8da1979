"""``root._browser.get``: what scripts read through the API's root that the WADL does not describe.

ubuntu-package-buildinfo and ubuntu-cloud-image-changelog read a build's
``.changes`` and a source's changelog as
``launchpad._browser.get(launchpad._root_uri.append(path))``; stock
lazr.restfulclient's browser answers the body's bytes, or the response
and the bytes, and raises its HTTP errors.
"""

from __future__ import annotations

import json

import pytest

from wadlclient.lazr.restfulclient import errors
from wadlclient.lazr.restfulclient.resource import ServiceRoot
from wadlclient.testing import FakeService

CHANGES = "ubuntu/+archive/primary/+files/hello_2.10-3_amd64.changes"


@pytest.fixture
def root(fake_launchpad: FakeService) -> ServiceRoot:
    fake_launchpad.add_file(CHANGES, b"Source: hello\n", "text/plain")
    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    return ServiceRoot(None, fake_launchpad.base)


def test_a_file_below_the_root_is_read_as_its_bytes(root: ServiceRoot) -> None:
    assert root._browser.get(root._root_uri.append(CHANGES)) == b"Source: hello\n"
    assert root._browser.get(str(root._root_uri) + CHANGES) == b"Source: hello\n"


def test_the_response_comes_with_the_bytes_when_asked_for(root: ServiceRoot) -> None:
    response, content = root._browser.get(root._root_uri.append(CHANGES), return_response=True)

    assert (response.status, response["content-type"], content) == (
        200, "text/plain", b"Source: hello\n",
    )  # fmt: skip


def test_a_resource_is_read_as_its_json(root: ServiceRoot) -> None:
    ada = root.load(str(root._root_uri) + "~ada")

    assert json.loads(root._browser.get(ada))["display_name"] == "Ada Lovelace"


def test_a_missing_file_is_lazrs_not_found(root: ServiceRoot) -> None:
    with pytest.raises(errors.NotFound):
        root._browser.get(root._root_uri.append("ubuntu/+archive/primary/+files/nope"))
