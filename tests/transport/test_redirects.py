"""Redirects are followed by the transport itself, or handed back when asked."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from wadlclient.errors import TransportError

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_each_redirect_status_is_followed_to_the_final_url(scripted, make_transport, code):
    transport = make_transport()

    response = transport.request("GET", scripted.url + f"/redirect/{code}?to=/echo")

    assert (response.status, response.url) == (200, scripted.url + "/echo")
    assert [s.path for s in scripted.requests()] == [f"/redirect/{code}", "/echo"]


def test_303_turns_a_post_into_a_get_without_body(scripted, make_transport):
    transport = make_transport()

    transport.request(
        "POST",
        scripted.url + "/redirect/303?to=/echo",
        body=b"a=1",
        content_type="application/x-www-form-urlencoded",
    )

    second = scripted.requests()[1]
    assert (second.method, second.body) == ("GET", b"")
    assert "content-type" not in second.headers


def test_307_repeats_the_method_and_body(scripted, make_transport):
    transport = make_transport()

    transport.request(
        "PATCH",
        scripted.url + "/redirect/307?to=/echo",
        body=b'{"a": 1}',
        content_type="application/json",
    )

    second = scripted.requests()[1]
    assert (second.method, second.body) == ("PATCH", b'{"a": 1}')


def test_a_relative_location_is_resolved_against_the_current_url(scripted, make_transport):
    transport = make_transport()

    response = transport.request("GET", scripted.url + "/chain/3")

    assert response.url == scripted.url + "/echo"
    assert len(scripted.requests()) == 4


def test_with_follow_redirects_false_a_redirect_is_returned(scripted, make_transport):
    transport = make_transport()
    target = scripted.url + "/echo"

    response = transport.request(
        "PATCH", scripted.url + "/redirect/301?to=" + quote(target), follow_redirects=False
    )

    assert response.status == 301
    assert response.headers["location"] == target
    assert len(scripted.requests()) == 1


def test_too_many_redirects_raise_a_transport_error_naming_the_url(scripted, make_transport):
    transport = make_transport(max_redirects=2)
    url = scripted.url + "/chain/5"

    with pytest.raises(TransportError, match="more than 2 redirects") as caught:
        transport.request("GET", url)

    assert url in str(caught.value)
    assert len(scripted.requests()) == 3
