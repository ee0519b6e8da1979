"""The transport consults and feeds a real on-disk HTTPCache as the contract says."""

from __future__ import annotations

import logging

import httpx
import pytest

from wadlclient.cache import HTTPCache
from wadlclient.errors import NotFound

JSON = "application/json"


@pytest.fixture
def cache(tmp_path):
    return HTTPCache(tmp_path / "cache")


def test_a_fresh_cached_response_is_served_without_a_request(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/etag/fresh?max_age=300"
    first = transport.request("GET", url)

    second = transport.request("GET", url)

    assert len(scripted.requests()) == 1
    assert (second.status, second.from_cache, second.content) == (200, True, first.content)


def test_a_stale_cached_response_is_revalidated_with_a_conditional_get(
    scripted, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/versioned/stale"
    first = transport.request("GET", url)

    second = transport.request("GET", url)

    assert [s.headers.get("if-none-match") for s in scripted.requests()] == [None, '"v1"']
    assert (second.status, second.from_cache, second.not_modified) == (200, True, False)
    assert second.content == first.content


def test_a_200_to_a_conditional_get_replaces_the_cached_response(
    scripted, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/versioned/replaced"
    transport.request("GET", url)
    scripted.counters["replaced"] = 2

    second = transport.request("GET", url)

    assert (second.json(), second.from_cache) == ({"version": 2}, False)
    assert cache.get(url, JSON).headers["etag"] == '"v2"'


def test_a_callers_if_none_match_bypasses_the_cache_and_gets_not_modified(
    scripted, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/etag/mine?max_age=300"
    transport.request("GET", url)

    response = transport.request("GET", url, headers={"If-None-Match": '"v1"'})

    assert len(scripted.requests()) == 2
    assert (response.status, response.not_modified, response.from_cache) == (304, True, False)


def test_use_cache_false_neither_reads_nor_adds_validators(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/etag/nocache?max_age=300"
    transport.request("GET", url)

    response = transport.request("GET", url, use_cache=False)

    assert len(scripted.requests()) == 2
    assert "if-none-match" not in scripted.requests()[1].headers
    assert response.from_cache is False


def test_accept_selects_the_cached_representation(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/etag/media?max_age=300"
    transport.request("GET", url)

    transport.request("GET", url, accept="application/vnd.example.wadl+xml")

    assert len(scripted.requests()) == 2


def test_a_patch_answered_209_stores_the_new_representation(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/entry"
    transport.request("GET", url)

    transport.request(
        "PATCH", url, body=b'{"name": "patched"}', content_type=JSON, headers={"If-Match": '"v1"'}
    )

    stored = cache.get(url, JSON)
    assert stored is not None
    assert (stored.headers["etag"], stored.body) == ('"v2"', b'{"name":"patched"}')


def test_a_successful_delete_removes_the_cached_response(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/entry"
    transport.request("GET", url)

    transport.request("DELETE", url)

    assert cache.get(url, JSON) is None


def test_an_error_response_is_not_cached(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/status/404"

    with pytest.raises(NotFound):
        transport.request("GET", url)

    assert cache.get(url, JSON) is None


def test_a_2xx_other_than_200_is_not_cached(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    url = scripted.url + "/status/202"

    transport.request("GET", url)

    assert cache.get(url, JSON) is None


def test_a_redirected_get_is_not_stored_under_the_requested_url(
    scripted, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/redirect/303?to=/etag/target%3Fmax_age%3D300"

    transport.request("GET", url)

    assert cache.get(url, JSON) is None


def test_the_cache_never_holds_the_authorization_value(
    scripted, make_transport, cache, recording_authorizer
):
    transport = make_transport(cache=cache, authorizer=recording_authorizer)

    transport.request("GET", scripted.url + "/etag/secret?max_age=300")

    files = list(cache.directory.iterdir())
    assert files
    assert all(b"sekrit" not in f.read_bytes() for f in files)


@pytest.mark.parametrize(
    ("path", "repeat", "disposition"),
    [
        ("/etag/log-fresh?max_age=300", True, "fresh"),
        ("/versioned/log-reval", True, "revalidated"),
        ("/etag/log-stored?max_age=300", False, "stored"),
    ],
)
def test_the_cache_disposition_is_logged(
    scripted, make_transport, cache, caplog, path, repeat, disposition
):
    transport = make_transport(cache=cache)
    url = scripted.url + path
    if repeat:
        transport.request("GET", url)
    caplog.set_level(logging.DEBUG, logger="wadlclient.http")

    transport.request("GET", url)

    lines = [r.getMessage() for r in caplog.records if r.name == "wadlclient.http"]
    assert lines[-1].startswith(f"GET {url} -> ")
    assert f"(cache: {disposition}) in " in lines[-1]


def test_a_patch_answered_by_a_redirect_invalidates_the_old_url(
    scripted, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/redirect/301?to=/echo"
    cache.put(url, JSON, httpx.Response(200, headers={"ETag": '"old"'}), b"{}")

    response = transport.request("PATCH", url, body=b"{}", follow_redirects=False)

    assert response.status == 301
    assert cache.get(url, JSON) is None


def test_a_replaced_representation_is_logged_as_replaced(
    scripted, make_transport, cache, caplog
):
    transport = make_transport(cache=cache)
    url = scripted.url + "/versioned/log-replaced"
    transport.request("GET", url)
    scripted.counters["log-replaced"] = 2
    caplog.set_level(logging.DEBUG, logger="wadlclient.http")

    transport.request("GET", url)

    lines = [r.getMessage() for r in caplog.records if r.name == "wadlclient.http"]
    assert [line.split(" in ")[0] for line in lines] == [f"GET {url} -> 200 (cache: replaced)"]


def test_a_response_with_no_validator_and_no_lifetime_is_not_written(
    scripted, make_transport, cache
):
    """It could never be served again (a collection page is such a response)."""
    transport = make_transport(cache=cache)
    url = scripted.url + "/echo"

    transport.request("GET", url)

    assert cache.get(url, JSON) is None
    assert list(cache.directory.iterdir()) == []


def test_a_response_with_a_validator_or_a_lifetime_is_written(scripted, make_transport, cache):
    transport = make_transport(cache=cache)
    with_etag = scripted.url + "/entry"
    with_lifetime = scripted.url + "/etag/lifetime?max_age=300"

    transport.request("GET", with_etag)
    transport.request("GET", with_lifetime)

    assert cache.get(with_etag, JSON) is not None
    assert cache.get(with_lifetime, JSON) is not None
