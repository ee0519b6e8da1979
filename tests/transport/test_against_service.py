"""The transport against the real cookbook example service, read through its journal."""

from __future__ import annotations

import time

import pytest

from wadlclient import __version__
from wadlclient.auth import AccessToken, BasicHttpAuthorizer, OAuthAuthorizer
from wadlclient.cache import HTTPCache
from wadlclient.errors import NotFound, PreconditionFailed, Unauthorized

JSON = "application/json"


@pytest.fixture
def cache(tmp_path):
    return HTTPCache(tmp_path / "cache")


def journal(service, count):
    """The journal once it holds ``count`` entries (at most 2 s of waiting).

    The service records a request just after sending its answer, so the last
    entry can trail the client's return by a moment.
    """
    deadline = time.monotonic() + 2
    while len(service.journal.entries()) < count and time.monotonic() < deadline:
        time.sleep(0.001)
    return service.journal.entries()


def test_basic_auth_leaves_no_trace_in_the_user_agent(cookbook_service_factory, make_transport):
    service = cookbook_service_factory(auth="basic")
    service.add_user("alice", "s3cret")
    transport = make_transport(authorizer=BasicHttpAuthorizer("alice", "s3cret"))

    transport.request("GET", service.url("recipes"))

    (entry,) = journal(service, 1)
    assert (entry.status, entry.auth_scheme) == (200, "Basic")
    assert entry.user_agent == f"wadlclient/{__version__}"


def test_oauth_user_agent_names_application_then_consumer(
    cookbook_service_factory, make_transport
):
    service = cookbook_service_factory(auth="oauth")
    service.add_consumer("consumer key")
    service.add_token("consumer key", "tk", "ts")
    authorizer = OAuthAuthorizer(
        "consumer key", access_token=AccessToken("tk", "ts"), application_name="Cook App"
    )
    transport = make_transport(authorizer=authorizer, base_client_name="cook-app/1.0")

    transport.request("GET", service.url("recipes"))

    (entry,) = journal(service, 1)
    assert entry.status == 200
    assert entry.user_agent == (
        f'wadlclient/{__version__} cook-app/1.0; application="Cook App"; '
        'oauth_consumer="consumer key"'
    )


def test_missing_credentials_raise_unauthorized_once(cookbook_service_factory, make_transport):
    service = cookbook_service_factory(auth="basic")
    transport = make_transport()

    with pytest.raises(Unauthorized) as caught:
        transport.request("GET", service.url("recipes"))

    assert str(caught.value).startswith("HTTP Error 401: Unauthorized (GET http://127.0.0.1:")
    assert [e.status for e in journal(service, 1)] == [401]


def test_a_missing_entry_raises_not_found(cookbook_service, make_transport):
    transport = make_transport()

    with pytest.raises(NotFound, match=r"^HTTP Error 404: Not Found \(GET http://.*/1.0/recipes/99999\)"):
        transport.request("GET", cookbook_service.url("recipes/99999"))


def test_a_cached_entry_is_revalidated_and_304_serves_the_cache(
    cookbook_service, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = cookbook_service.url("recipes/1")
    first = transport.request("GET", url)

    second = transport.request("GET", url)

    entries = journal(cookbook_service, 2)
    assert [(e.if_none_match, e.status) for e in entries] == [
        (None, 200),
        (first.headers["etag"], 304),
    ]
    assert (second.from_cache, second.json()) == (True, first.json())


def test_the_service_root_is_fresh_for_its_max_age(cookbook_service, make_transport, cache):
    transport = make_transport(cache=cache)
    transport.request("GET", cookbook_service.url(""))

    response = transport.request("GET", cookbook_service.url(""))

    assert len(journal(cookbook_service, 1)) == 1
    assert response.from_cache


def test_after_a_patch_the_cache_holds_the_209_representation(
    cookbook_service, make_transport, cache
):
    transport = make_transport(cache=cache)
    url = cookbook_service.url("recipes/1")
    before = transport.request("GET", url)

    patched = transport.request(
        "PATCH",
        url,
        body=b'{"instructions": "Stir."}',
        content_type=JSON,
        headers={"If-Match": before.headers["etag"]},
    )
    again = transport.request("GET", url)

    assert patched.status == 209
    assert journal(cookbook_service, 3)[-1].if_none_match == patched.headers["etag"]
    assert (again.from_cache, again.json()["instructions"]) == (True, "Stir.")


def test_a_stale_if_match_raises_precondition_failed(cookbook_service, make_transport):
    transport = make_transport()

    with pytest.raises(PreconditionFailed, match=r"^HTTP Error 412: Precondition Failed \(PATCH http://.*/1.0/recipes/1\)"):
        transport.request(
            "PATCH",
            cookbook_service.url("recipes/1"),
            body=b'{"instructions": "Stir."}',
            content_type=JSON,
            headers={"If-Match": '"not-the-tag"'},
        )


def test_a_rename_answered_301_is_returned_when_not_following(cookbook_service, make_transport):
    transport = make_transport()
    url = cookbook_service.url("cookbooks/The%20Joy%20of%20Cooking")

    response = transport.request(
        "PATCH", url, body=b'{"name": "Joy"}', content_type=JSON, follow_redirects=False
    )

    assert response.status == 301
    assert response.headers["location"] == cookbook_service.url("cookbooks/Joy")
