"""Authorization modes as callers see them: who may read, write and see private data."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from cookbook_service import auth
from cookbook_service.schema import REDACTED
from cookbook_service.testing import (
    PRIVATE_RECIPE_ID,
    PUBLIC_RECIPE_COUNT,
    RunningService,
)

AddUser = Callable[[RunningService, str, str], None]


def _basic(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def _oauth(consumer: str, token: str = "", consumer_secret: str = "", secret: str = "") -> dict:
    return {
        "Authorization": (
            f'OAuth realm="cookbook", oauth_consumer_key="{consumer}", '
            f'oauth_token="{token}", oauth_signature_method="PLAINTEXT", '
            f'oauth_signature="{consumer_secret}%26{secret}", oauth_version="1.0"'
        )
    }


@pytest.fixture
def basic_service(cookbook_service_factory: Any, add_user: AddUser) -> RunningService:
    service: RunningService = cookbook_service_factory(auth="basic")
    add_user(service, "alice", "wonderland")
    return service


@pytest.fixture
def oauth_service(cookbook_service_factory: Any) -> RunningService:
    service: RunningService = cookbook_service_factory(auth="oauth")
    service.add_consumer("kitchen", "")
    service.add_token("kitchen", "tok", "toksecret")
    return service


def test_basic_without_credentials_is_401_with_a_challenge_and_plain_text(
    basic_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(basic_service.url("recipes"))

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Basic realm="cookbook"'
    assert response.headers["Content-Type"].startswith("text/plain")


def test_basic_wrong_password_is_401_and_never_echoes_it(
    basic_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(basic_service.url("recipes"), headers=_basic("alice", "guess-me"))

    assert response.status_code == 401
    assert "guess-me" not in response.text


def test_basic_user_may_read_and_sees_the_private_recipe(
    basic_service: RunningService, web: httpx.Client
) -> None:
    headers = _basic("alice", "wonderland")

    page = web.get(basic_service.url("recipes"), headers=headers).json()
    private = web.get(basic_service.url(f"recipes/{PRIVATE_RECIPE_ID}"), headers=headers)

    assert page["total_size"] == PUBLIC_RECIPE_COUNT + 1
    assert private.json()["private"] is True


def test_a_password_just_set_is_not_hashed_again_at_its_first_use(
    cookbook_service_factory: Any, web: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Setting it hashed it (scrypt, ~60 ms of CPU): the service knows it as verified."""
    service: RunningService = cookbook_service_factory(auth="basic")
    service.add_user("dinah", "cheshire-grin")
    hashed: list[str] = []
    real = auth.hash_password

    def counting(password: str, salt_hex: str | None = None) -> tuple[str, str]:
        hashed.append(password)
        return real(password, salt_hex)

    monkeypatch.setattr(auth, "hash_password", counting)

    response = web.get(service.url("recipes"), headers=_basic("dinah", "cheshire-grin"))

    assert response.status_code == 200
    assert hashed == []


def test_basic_user_may_write(basic_service: RunningService, web: httpx.Client) -> None:
    response = web.request(
        "PATCH",
        basic_service.url("recipes/1"),
        json={"instructions": "By alice."},
        headers=_basic("alice", "wonderland"),
    )

    assert response.status_code == 209


def test_oauth_valid_token_passes_and_sees_private(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(
        oauth_service.url(f"recipes/{PRIVATE_RECIPE_ID}"),
        headers=_oauth("kitchen", "tok", "", "toksecret"),
    )

    assert response.status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        _oauth("kitchen", "tok", "", "wrong"),
        _oauth("kitchen", "nosuchtoken", "", "x"),
        _oauth("stranger", "tok", "", "toksecret"),
        _oauth("stranger", "nosuchtoken", "", "x"),
    ],
    ids=["wrong-secret", "unknown-token", "unknown-consumer-valid-token", "unknown-both"],
)
def test_oauth_refuses_bad_tokens_and_unknown_consumers_with_a_token(
    oauth_service: RunningService, web: httpx.Client, headers: dict[str, str]
) -> None:
    response = web.get(oauth_service.url("recipes"), headers=headers)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("OAuth realm=")


def test_oauth_anonymous_access_may_read_for_any_consumer(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(oauth_service.url("recipes"), headers=_oauth("anybody"))

    assert response.status_code == 200
    assert response.json()["total_size"] == PUBLIC_RECIPE_COUNT


def test_oauth_anonymous_access_may_not_write(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    url = oauth_service.url("recipes/1")

    response = web.request(
        "PATCH", url, json={"instructions": "Vandalised."}, headers=_oauth("anybody")
    )

    assert response.status_code == 401
    assert web.get(url, headers=_oauth("anybody")).json()["instructions"] != "Vandalised."


def test_oauth_anonymous_access_sees_the_cookbook_link_redacted(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    recipe = web.get(oauth_service.url("recipes/1"), headers=_oauth("anybody")).json()

    assert recipe["cookbook_link"] == REDACTED


def test_oauth_anonymous_access_does_not_see_the_private_recipe(
    oauth_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(oauth_service.url(f"recipes/{PRIVATE_RECIPE_ID}"), headers=_oauth("anybody"))

    assert response.status_code == 404


def test_mode_none_may_write_but_does_not_see_private(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    write = web.request(
        "PATCH", cookbook_service.url("recipes/1"), json={"instructions": "Anyone."}
    )
    private = web.get(cookbook_service.url(f"recipes/{PRIVATE_RECIPE_ID}"))

    assert write.status_code == 209
    assert private.status_code == 404
