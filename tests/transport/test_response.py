"""HTTPResponse: a complete, immutable answer with a JSON helper."""

from __future__ import annotations

import pytest

from wadlclient.errors import ResponseError

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])


def test_response_carries_status_reason_headers_body_and_final_url(scripted, make_transport):
    transport = make_transport()

    response = transport.request("GET", scripted.url + "/redirect/302?to=/echo")

    assert (response.status, response.reason) == (200, "OK")
    assert response.headers["content-type"] == "application/json"
    assert response.json()["method"] == "GET"
    assert response.url == scripted.url + "/echo"
    assert (response.from_cache, response.not_modified) == (False, False)


def test_response_is_frozen(scripted, make_transport):
    response = make_transport().request("GET", scripted.url + "/echo")

    with pytest.raises(AttributeError):
        response.status = 500  # type: ignore[misc]


def test_malformed_json_raises_response_error_with_url_and_position(scripted, make_transport):
    url = scripted.url + "/bad-json"
    response = make_transport().request("GET", url)

    with pytest.raises(ResponseError) as caught:
        response.json()

    assert str(caught.value) == (
        f"malformed JSON in the response from {url}: "
        "Expecting property name enclosed in double quotes at line 1 column 17 (char 16)"
    )


def test_a_body_that_is_not_utf8_raises_response_error(scripted, make_transport):
    response = make_transport().request(
        "PUT", scripted.url + "/echo", body=b"\xff\xfe", content_type="application/octet-stream"
    )
    broken = response._replace(content=b'{"a": "\xff"}')

    with pytest.raises(ResponseError, match="not UTF-8"):
        broken.json()


def test_repr_shows_neither_headers_nor_body(scripted, make_transport):
    response = make_transport().request("GET", scripted.url + "/echo")

    text = repr(response)

    assert text == f"<HTTPResponse 200 OK {scripted.url}/echo>"
