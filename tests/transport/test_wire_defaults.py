"""What every request carries on the wire besides the caller's headers.

The transport sends through httpx's transport layer, not `httpx.Client`, so
these are the defaults a client would otherwise have added for it.
"""

from __future__ import annotations

import pytest

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])


def test_requests_ask_for_compressed_answers(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    encodings = scripted.requests()[0].headers["accept-encoding"]
    assert {"gzip", "deflate"} <= {e.strip() for e in encodings.split(",")}


def test_a_gzip_answer_is_decoded(scripted, make_transport):
    transport = make_transport()

    response = transport.request("GET", scripted.url + "/gzip")

    assert response.json() == {"compressed": True}


def test_requests_ask_to_keep_the_connection_alive(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    assert scripted.requests()[0].headers["connection"] == "keep-alive"


def test_the_host_header_names_the_requested_host_and_port(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.other_url + "/echo")

    assert scripted.requests()[0].headers["host"] == scripted.other_url.removeprefix("http://")


def test_a_caller_header_replaces_the_default_whatever_its_case(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo", headers={"accept": "text/plain"})

    sent = [value for name, value in scripted.requests()[0].header_list if name == "accept"]
    assert sent == ["text/plain"]


def test_a_post_without_a_body_says_its_length_is_zero(scripted, make_transport):
    transport = make_transport()

    transport.request("POST", scripted.url + "/echo")

    assert scripted.requests()[0].headers["content-length"] == "0"


def test_a_body_is_sent_with_its_length(scripted, make_transport):
    transport = make_transport()

    transport.request("PUT", scripted.url + "/echo", body="crème", content_type="text/plain")

    seen = scripted.requests()[0]
    assert (seen.headers["content-length"], seen.body) == ("6", "crème".encode())


def test_a_get_without_a_body_sends_no_length(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    assert "content-length" not in scripted.requests()[0].headers


def test_the_same_url_asked_many_times_and_many_urls_all_reach_their_paths(
    scripted, make_transport
):
    # Parsed URLs are remembered (and forgotten past a bound): no mix-up either way.
    transport = make_transport()
    urls = [scripted.url + f"/echo?n={n}" for n in range(300)] * 2

    for url in urls:
        transport.request("GET", url)

    assert [f"n={n}" for n in range(300)] * 2 == [s.query for s in scripted.requests()]
