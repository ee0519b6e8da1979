"""A mistyped service address gets an error that names it and says what to write instead."""

from __future__ import annotations

import pytest

from cookbook_service.testing import RunningService
from wadlclient import InvalidURL, NotFound, ServiceRoot


@pytest.mark.parametrize("address", ["127.0.0.1:8080", "localhost:8080/", "ftp://host/"])
def test_an_address_without_an_http_scheme_is_refused_by_name(address: str) -> None:
    with pytest.raises(InvalidURL) as caught:
        ServiceRoot(None, address)

    message = str(caught.value)
    assert repr(address) in message
    assert "absolute http(s) URL" in message
    assert "auth_origin" not in message


def test_the_suggested_address_is_the_one_meant() -> None:
    with pytest.raises(InvalidURL, match=r"such as 'http://127\.0\.0\.1:8080/'"):
        ServiceRoot(None, "127.0.0.1:8080")


def test_an_address_that_already_ends_in_the_version_hints_at_version_none(
    cookbook_service: RunningService,
) -> None:
    pasted = cookbook_service.base_url + "1.0/"

    with pytest.raises(NotFound) as caught:
        ServiceRoot(None, pasted)

    assert "/1.0/1.0/" in str(caught.value)
    assert "pass version=None" in str(caught.value)
    with ServiceRoot(None, pasted, version=None) as root:
        assert root.service_root == pasted
