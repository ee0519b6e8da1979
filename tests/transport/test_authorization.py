"""The authorizer signs every request actually sent, and nothing leaves its origin."""

from __future__ import annotations

from urllib.parse import quote


def test_authorizer_signs_the_request_with_its_arguments(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)
    url = scripted.url + "/echo"

    transport.request("POST", url, body=b"a=1", content_type="application/x-www-form-urlencoded")

    assert recording_authorizer.calls == [(url, "POST", b"a=1")]
    assert scripted.requests()[0].headers["authorization"] == recording_authorizer.SECRET


def test_authorizer_is_called_for_every_retry(scripted, make_transport, recording_authorizer):
    transport = make_transport(authorizer=recording_authorizer)

    transport.request("GET", scripted.url + "/flaky/auth-retry?fail=2")

    assert len(recording_authorizer.calls) == 3
    assert [s.headers.get("authorization") for s in scripted.requests()] == [
        recording_authorizer.SECRET
    ] * 3


def test_authorizer_never_sees_the_authorization_of_a_previous_try(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)

    transport.request("GET", scripted.url + "/chain/2")
    transport.request("GET", scripted.url + "/flaky/stale?fail=1")

    assert recording_authorizer.stale == [False] * 5


def test_authorizer_is_called_for_every_redirect_hop(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)

    response = transport.request("GET", scripted.url + "/chain/2")

    assert [call[0] for call in recording_authorizer.calls] == [
        scripted.url + "/chain/2",
        scripted.url + "/chain/1",
        scripted.url + "/echo",
    ]
    assert response.url == scripted.url + "/echo"


def test_no_authorization_is_sent_after_a_redirect_to_another_origin(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)
    target = scripted.other_url + "/echo"

    response = transport.request("GET", scripted.url + "/redirect/302?to=" + quote(target))

    first, second = scripted.requests()
    assert (first.host, second.host) == ("127.0.0.1", "127.0.0.2")
    assert "authorization" in first.headers
    assert "authorization" not in second.headers
    assert len(recording_authorizer.calls) == 1
    assert response.json()["host"] == "127.0.0.2"


def test_a_callers_own_authorization_header_does_not_leave_its_origin(scripted, make_transport):
    transport = make_transport()
    target = scripted.other_url + "/echo"

    transport.request(
        "GET",
        scripted.url + "/redirect/307?to=" + quote(target),
        headers={"Authorization": "Bearer mine"},
    )

    first, second = scripted.requests()
    assert first.headers["authorization"] == "Bearer mine"
    assert "authorization" not in second.headers


def test_a_redirect_to_the_same_host_on_another_port_is_another_origin(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)
    target = scripted.other_port_url + "/echo"

    transport.request("GET", scripted.url + "/redirect/302?to=" + quote(target))

    first, second = scripted.requests()
    assert "authorization" in first.headers
    assert "authorization" not in second.headers


def test_a_redirect_to_another_host_name_for_the_same_address_is_another_origin(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)
    start = scripted.url.replace("127.0.0.1", "localhost")

    transport.request("GET", start + "/redirect/302?to=" + quote(scripted.url + "/echo"))

    first, second = scripted.requests()
    assert "authorization" in first.headers
    assert "authorization" not in second.headers


def test_the_authorizer_replaces_an_authorization_header_given_by_the_caller(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)

    transport.request("GET", scripted.url + "/echo", headers={"Authorization": "Bearer old"})

    assert recording_authorizer.stale == [False]
    assert scripted.requests()[0].headers["authorization"] == recording_authorizer.SECRET
