"""SPEC "Authentication", row by row, over real HTTP with raw httpx.

Our authorizers put the credentials on the request; the example service,
running in uvicorn on loopback with ``--auth basic`` or ``--auth oauth``,
decides. No client core is involved, so a failure here is the authorizer's
or the service's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from cookbook_service.seed import (
    PRIVATE_RECIPE_ID,
    PUBLIC_RECIPE_COUNT,
    PUBLIC_RECIPE_IDS,
    TOTAL_RECIPE_COUNT,
)
from wadlclient import EXAMPLE_WADL_MEDIA_TYPE
from wadlclient.auth import AccessToken, BasicHttpAuthorizer, HttpAuthorizer, OAuthAuthorizer

Factory = Callable[..., Any]
AddUser = Callable[[Any, str, str], None]


@pytest.fixture
def basic_service(cookbook_service_factory: Factory, add_user: AddUser) -> Any:
    service = cookbook_service_factory(auth="basic")
    add_user(service, "alice", "wonderland")
    return service


@pytest.fixture
def oauth_service(cookbook_service_factory: Factory) -> Any:
    service = cookbook_service_factory(auth="oauth")
    service.add_consumer("app")
    service.add_consumer("other-app")
    service.add_token("app", "tok", "tok-secret")
    service.add_token("app", "reader", "reader-secret", access="anonymous")
    return service


@functools.cache
def web() -> httpx.Client:
    """One httpx client for the module: making one per request loads the CA bundle (~45 ms).

    The service sets no cookies, so the tests share nothing through it but connections.
    """
    return httpx.Client(timeout=10)


def send(
    service: Any,
    authorizer: HttpAuthorizer | None,
    path: str = "1.0/recipes",
    method: str = "GET",
    json_body: bytes | None = None,
) -> httpx.Response:
    url = service.base_url + path
    headers = httpx.Headers({"Accept": "application/json"})
    if json_body is not None:
        headers["Content-Type"] = "application/json"
    if authorizer is not None:
        authorizer.authorizeRequest(url, method, json_body, headers)
    return web().request(method, url, headers=headers, content=json_body)


def oauth(consumer: str, token: str = "", secret: str = "", **kwargs: Any) -> OAuthAuthorizer:
    return OAuthAuthorizer(consumer, access_token=AccessToken(token, secret), **kwargs)


# SPEC Authentication rule 1: no authorizer -> 401.


def test_basic_service_without_credentials_answers_401_with_a_challenge(
    basic_service: Any,
) -> None:
    response = send(basic_service, None)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Basic ")


def test_oauth_service_without_credentials_answers_401_with_a_challenge(
    oauth_service: Any,
) -> None:
    response = send(oauth_service, None)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("OAuth ")


def test_the_wadl_is_protected_too(basic_service: Any) -> None:
    response = web().get(
        basic_service.base_url + "1.0/", headers={"Accept": EXAMPLE_WADL_MEDIA_TYPE}
    )

    assert response.status_code == 401


# Rule 2 and the Basic table: the header the authorizer adds is what the service checks.


def test_basic_right_user_and_password_are_accepted(basic_service: Any) -> None:
    response = send(basic_service, BasicHttpAuthorizer("alice", "wonderland"))

    assert response.status_code == 200
    assert response.json()["total_size"] == TOTAL_RECIPE_COUNT
    assert basic_service.journal.entries()[-1].auth_scheme == "Basic"


@pytest.mark.parametrize(
    ("username", "password"),
    [("alice", "looking-glass"), ("mallory", "wonderland"), ("", "")],
    ids=["wrong-password", "unknown-user", "empty"],
)
def test_basic_wrong_credentials_answer_401(
    basic_service: Any, username: str, password: str
) -> None:
    response = send(basic_service, BasicHttpAuthorizer(username, password))

    assert response.status_code == 401


def test_basic_credentials_are_refused_by_an_oauth_service(oauth_service: Any) -> None:
    oauth_service.add_user("alice", "wonderland")

    response = send(oauth_service, BasicHttpAuthorizer("alice", "wonderland"))

    assert response.status_code == 401


# The OAuth table.


def test_oauth_valid_consumer_and_token_succeed_with_full_access(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("app", "tok", "tok-secret"))

    assert response.status_code == 200
    assert response.json()["total_size"] == TOTAL_RECIPE_COUNT
    assert oauth_service.journal.entries()[-1].auth_scheme == "OAuth"


def test_oauth_hmac_sha1_signature_is_accepted_too(oauth_service: Any) -> None:
    authorizer = oauth("app", "tok", "tok-secret", signature_method="HMAC-SHA1")

    response = send(oauth_service, authorizer, "1.0/recipes?ws.size=2&ws.start=1")

    assert response.status_code == 200


def test_oauth_invalid_token_with_a_known_consumer_answers_401(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("app", "no-such-token", "whatever"))

    assert response.status_code == 401


def test_oauth_known_token_with_a_wrong_secret_answers_401(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("app", "tok", "guessed"))

    assert response.status_code == 401


def test_oauth_unknown_consumer_with_a_valid_token_answers_401(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("stranger", "tok", "tok-secret"))

    assert response.status_code == 401


def test_oauth_unknown_consumer_with_an_invalid_token_answers_401(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("stranger", "no-such-token", "whatever"))

    assert response.status_code == 401


def test_oauth_another_consumers_token_answers_401(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("other-app", "tok", "tok-secret"))

    assert response.status_code == 401


@pytest.mark.parametrize("consumer", ["app", "stranger"], ids=["known", "unknown"])
def test_oauth_anonymous_access_works_for_any_consumer_and_hides_private_recipes(
    oauth_service: Any, consumer: str
) -> None:
    response = send(oauth_service, oauth(consumer, "", ""))

    assert response.status_code == 200
    assert response.json()["total_size"] == PUBLIC_RECIPE_COUNT < TOTAL_RECIPE_COUNT


def test_oauth_anonymous_access_cannot_see_a_private_recipe(oauth_service: Any) -> None:
    path = f"1.0/recipes/{PRIVATE_RECIPE_ID}"

    anonymous = send(oauth_service, oauth("app", "", ""), path)
    full = send(oauth_service, oauth("app", "tok", "tok-secret"), path)

    assert full.status_code == 200
    assert anonymous.status_code == 404


def test_oauth_anonymous_access_is_read_only(oauth_service: Any) -> None:
    path = f"1.0/recipes/{PUBLIC_RECIPE_IDS[0]}"
    body = b'{"instructions": "Changed anonymously."}'

    response = send(oauth_service, oauth("app", "", ""), path, "PATCH", body)

    assert response.status_code in (401, 403)
    assert send(oauth_service, oauth("app", "", ""), path).json()["instructions"] != (
        "Changed anonymously."
    )


def test_oauth_token_with_anonymous_access_gets_the_lower_level(oauth_service: Any) -> None:
    response = send(oauth_service, oauth("app", "reader", "reader-secret"))

    assert response.status_code == 200
    assert response.json()["total_size"] == PUBLIC_RECIPE_COUNT


def test_oauth_full_access_token_may_write(oauth_service: Any) -> None:
    path = "1.0/recipes/1"
    authorizer = oauth("app", "tok", "tok-secret")
    body = b'{"instructions": "Stir well."}'

    response = send(oauth_service, authorizer, path, "PATCH", body)

    assert response.status_code in (200, 209)
    assert send(oauth_service, authorizer, path).json()["instructions"] == "Stir well."
