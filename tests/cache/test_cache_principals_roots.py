"""Service roots of two principals on one cache: the WADL is shared, their own answers are not.

The cookbook service with OAuth on; ``ann`` and ``bob`` hold tokens of one
consumer. Its journal counts what each start cost.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lazr.restfulclient.authorize.oauth import AccessToken as LazrAccessToken
from lazr.restfulclient.authorize.oauth import OAuthAuthorizer as LazrOAuthAuthorizer
from lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from wadlclient import SUN_WADL_MEDIA_TYPE, AccessToken, HTTPCache, OAuthAuthorizer, ServiceRoot

CONSUMER = "fleet"
TOKENS = {"ann": ("ann-token", "ann-secret"), "bob": ("bob-token", "bob-secret")}


@pytest.fixture
def service(cookbook_service_factory) -> RunningService:
    running: RunningService = cookbook_service_factory(auth="oauth")
    running.add_consumer(CONSUMER)
    for key, secret in TOKENS.values():
        running.add_token(CONSUMER, key, secret)
    return running


def _as(user: str) -> OAuthAuthorizer:
    return OAuthAuthorizer(CONSUMER, "", AccessToken(*TOKENS[user]))


def _asked(service: RunningService) -> list[tuple[str, str | None]]:
    return [(entry.path, entry.accept) for entry in service.journal.entries()]


@pytest.mark.parametrize("store", ["disk", "redis"])
def test_a_second_principal_downloads_only_what_is_not_shared(
    service: RunningService, tmp_path: Path, request: pytest.FixtureRequest, store: str
) -> None:
    cache = str(tmp_path) if store == "disk" else request.getfixturevalue("empty_redis")
    ServiceRoot(_as("ann"), service.base_url, cache=cache).close()
    service.journal.clear()

    bob = ServiceRoot(_as("bob"), service.base_url, cache=cache)
    again = ServiceRoot(_as("bob"), service.base_url, cache=cache)

    bob.close()
    again.close()
    # The WADL is ann's download, shared; the root's JSON is bob's own, once.
    assert _asked(service) == [("/1.0/", "application/json")]


def test_a_stale_shared_wadl_is_not_revalidated_with_anothers_validators(
    service: RunningService, tmp_path: Path
) -> None:
    """``devel``'s root lives 2 s: an hour on, bob asks for the WADL anew, then revalidates his."""
    ServiceRoot(_as("ann"), service.base_url, cache=tmp_path, version="devel").close()
    service.journal.clear()
    later = HTTPCache(tmp_path, clock=lambda: time.time() + 3600)

    for _ in range(2):
        ServiceRoot(_as("bob"), service.base_url, cache=later, version="devel").close()

    wadl = [e for e in service.journal.entries() if "wadl" in (e.accept or "")]
    assert [(e.if_none_match is not None, e.status) for e in wadl] == [(False, 200), (True, 304)]


def test_a_directory_shared_with_lazr_by_one_user_keeps_working_both_ways(
    service: RunningService, tmp_path: Path
) -> None:
    """lazr.restfulclient (httplib2) writes every answer under the shared name, whoever asked.

    wadlclient reads its WADL (shared), not its authorized JSON (whose?),
    and lazr still finds its own entries after wadlclient's start.
    """
    key, secret = TOKENS["ann"]
    lazr_ann = LazrOAuthAuthorizer(CONSUMER, "", LazrAccessToken(key, secret))
    LazrServiceRoot(lazr_ann, service.url(), cache=str(tmp_path))
    service.journal.clear()

    root = ServiceRoot(
        _as("ann"), service.base_url, cache=tmp_path, wadl_media_type=SUN_WADL_MEDIA_TYPE
    )
    recipe = root.recipes[str(PUBLIC_RECIPE_IDS[0])]
    started = _asked(service)
    service.journal.clear()
    lazr_again = LazrServiceRoot(lazr_ann, service.url(), cache=str(tmp_path))

    assert started == [
        ("/1.0/", "application/json"),
        (f"/1.0/recipes/{PUBLIC_RECIPE_IDS[0]}", "application/json"),
    ]
    assert recipe.id == PUBLIC_RECIPE_IDS[0]
    assert lazr_again.recipes is not None
    assert _asked(service) == []
    root.close()
