"""One keep-alive pool per transport, shared safely between threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])


def test_sequential_requests_reuse_one_connection(scripted, make_transport):
    transport = make_transport()

    for _ in range(5):
        transport.request("GET", scripted.url + "/echo")

    assert len({s.client_port for s in scripted.requests()}) == 1


def test_concurrent_requests_from_threads_all_succeed_and_are_authorized(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)
    urls = [scripted.url + f"/redirect/302?to=/echo&n={n}" for n in range(40)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda u: transport.request("GET", u).status, urls))

    assert statuses == [200] * 40
    seen = scripted.requests()
    assert len(seen) == 80
    assert all(s.headers["authorization"] == recording_authorizer.SECRET for s in seen)
    assert recording_authorizer.stale == [False] * 80


def test_cookies_are_neither_stored_nor_sent(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/cookie")
    transport.request("GET", scripted.url + "/echo")

    assert "cookie" not in scripted.requests()[1].headers


def test_closing_the_transport_closes_its_pool(scripted, make_transport):
    transport = make_transport()
    transport.request("GET", scripted.url + "/echo")

    with transport:
        pass

    with pytest.raises(RuntimeError):
        transport.request("GET", scripted.url + "/echo")


def test_a_client_supplied_by_the_caller_is_left_open(scripted, make_transport):
    with httpx.Client() as client:
        transport = make_transport(client=client)

        transport.close()

        assert not client.is_closed
        assert transport.request("GET", scripted.url + "/echo").status == 200
