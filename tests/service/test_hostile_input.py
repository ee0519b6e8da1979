"""Finding 8: the example service refuses replays and unservable input with a 400, never a 500."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from oauthlib import oauth1

from cookbook_service.testing import RunningService

JOY = "cookbooks/The%20Joy%20of%20Cooking"
NEW_BOOK = {
    "ws.op": "create",
    "cuisine": "General",
    "copyright_date": json.dumps("1994-01-01T00:00:00"),
    "price": json.dumps(1.23),
}


def _patch_raw(web: httpx.Client, url: str, body: bytes) -> httpx.Response:
    return web.request("PATCH", url, content=body, headers={"Content-Type": "application/json"})


@pytest.fixture
def oauth_service(cookbook_service_factory: Any) -> RunningService:
    service: RunningService = cookbook_service_factory(auth="oauth")
    service.add_consumer("kitchen")
    service.add_token("kitchen", "tok", "toksecret")
    return service


def test_a_replayed_hmac_signed_request_is_401(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    url = oauth_service.url("recipes")
    client = oauth1.Client(
        "kitchen",
        resource_owner_key="tok",
        resource_owner_secret="toksecret",
        signature_method=oauth1.SIGNATURE_HMAC_SHA1,
    )
    _, headers, _ = client.sign(url, "GET")

    first = web.get(url, headers=headers)
    replayed = web.get(url, headers=headers)

    assert first.status_code == 200
    assert replayed.status_code == 401
    assert "already used" in replayed.text


def test_a_patch_body_nested_100000_deep_is_400(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch_raw(web, cookbook_service.url(JOY), b"[" * 100_000)

    assert response.status_code == 400
    assert "nested too deeply" in response.text


@pytest.mark.parametrize(
    "name",
    [".", "..", "nul\x00inside", "\r\nleading newline", "trailing ", " leading", "bell\x07"],
)
def test_a_name_that_cannot_be_served_is_refused_with_400(
    cookbook_service: RunningService, web: httpx.Client, name: str
) -> None:
    response = web.post(
        cookbook_service.url("cookbooks"), data={**NEW_BOOK, "name": json.dumps(name)}
    )

    assert response.status_code == 400, response.text
    assert "name" in response.text


def test_a_name_holding_a_lone_surrogate_is_400_not_500(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch_raw(web, cookbook_service.url(JOY), b'{"name": "soup \\ud800"}')

    assert response.status_code == 400
    assert "surrogate" in response.text


def test_a_negative_price_is_refused_on_create_and_on_patch(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    created = web.post(
        cookbook_service.url("cookbooks"),
        data={**NEW_BOOK, "name": json.dumps("Cheap Eats"), "price": json.dumps(-1)},
    )
    patched = web.patch(cookbook_service.url(JOY), json={"price": -0.5})

    assert (created.status_code, patched.status_code) == (400, 400)
    assert "negative" in created.text and "negative" in patched.text


def test_a_search_for_nul_is_400_not_everything(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_recipes", "search": json.dumps("\x00")},
    )

    assert response.status_code == 400
    assert "NUL" in response.text
