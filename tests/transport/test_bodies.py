"""Request bodies go out as given, with their media type."""

from __future__ import annotations


def test_post_form_body_is_sent_with_its_media_type(scripted, make_transport):
    transport = make_transport()

    response = transport.request(
        "POST",
        scripted.url + "/echo",
        body=b"ws.op=create&name=%22Soup%22",
        content_type="application/x-www-form-urlencoded",
    )

    seen = scripted.requests()[0]
    assert seen.headers["content-type"] == "application/x-www-form-urlencoded"
    assert seen.body == b"ws.op=create&name=%22Soup%22"
    assert response.json()["method"] == "POST"


def test_patch_json_body_is_sent_with_its_media_type(scripted, make_transport):
    transport = make_transport()

    transport.request(
        "PATCH", scripted.url + "/echo", body=b'{"name": "x"}', content_type="application/json"
    )

    seen = scripted.requests()[0]
    assert (seen.method, seen.headers["content-type"], seen.body) == (
        "PATCH",
        "application/json",
        b'{"name": "x"}',
    )


def test_put_bytes_are_sent_unchanged(scripted, make_transport):
    payload = bytes(range(256)) * 4
    transport = make_transport()

    transport.request("PUT", scripted.url + "/echo", body=payload, content_type="image/png")

    seen = scripted.requests()[0]
    assert (seen.headers["content-type"], seen.body) == ("image/png", payload)


def test_accept_header_is_the_requested_media_type(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo", accept="application/vnd.example.wadl+xml")

    assert scripted.requests()[0].headers["accept"] == "application/vnd.example.wadl+xml"


def test_caller_headers_are_sent(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo", headers={"If-Match": '"abc"'})

    assert scripted.requests()[0].headers["if-match"] == '"abc"'
