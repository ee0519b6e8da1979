"""SPEC "Authentication" through the client: ServiceRoot with an authorizer.

The example service runs in uvicorn on loopback; its journal shows what
the client actually sent (authorization scheme, User-Agent, how often).
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cookbook_service.seed import PUBLIC_RECIPE_COUNT, TOTAL_RECIPE_COUNT
from wadlclient import ServiceRoot, __version__
from wadlclient.auth import AccessToken, BasicHttpAuthorizer, HttpAuthorizer, OAuthAuthorizer
from wadlclient.errors import Unauthorized

Factory = Callable[..., Any]
AddUser = Callable[[Any, str, str], None]

PASSWORD = "pw-Wonderland-7421"
TOKEN_SECRET = "ts-Looking-Glass-9350"
CONSUMER_SECRET = "cs-Cheshire-1865"
SECRETS = (
    PASSWORD,
    TOKEN_SECRET,
    CONSUMER_SECRET,
    base64.b64encode(f"alice:{PASSWORD}".encode()).decode(),
)


@pytest.fixture
def basic_service(cookbook_service_factory: Factory, add_user: AddUser) -> Any:
    service = cookbook_service_factory(auth="basic")
    add_user(service, "alice", PASSWORD)
    return service


@pytest.fixture
def oauth_service(cookbook_service_factory: Factory) -> Any:
    service = cookbook_service_factory(auth="oauth")
    service.add_consumer("app", CONSUMER_SECRET)
    service.add_token("app", "tok", TOKEN_SECRET)
    return service


def oauth(consumer: str, token: str, secret: str, **kwargs: Any) -> OAuthAuthorizer:
    return OAuthAuthorizer(consumer, CONSUMER_SECRET, AccessToken(token, secret), **kwargs)


def connect(service: Any, authorizer: HttpAuthorizer | None, **kwargs: Any) -> ServiceRoot:
    return ServiceRoot(authorizer, service.base_url, **kwargs)


# Rule 1: no authorizer or invalid credentials -> Unauthorized.


def test_no_authorizer_raises_unauthorized_with_the_status_line(basic_service: Any) -> None:
    with pytest.raises(Unauthorized) as caught:
        connect(basic_service, None)

    assert str(caught.value).startswith("HTTP Error 401: Unauthorized (GET http://127.0.0.1:")
    assert caught.value.content  # the server's body, for the curious


def test_basic_wrong_password_raises_unauthorized(basic_service: Any) -> None:
    with pytest.raises(Unauthorized) as caught:
        connect(basic_service, BasicHttpAuthorizer("alice", "not-the-password"))

    assert str(caught.value).startswith("HTTP Error 401: Unauthorized (GET http://127.0.0.1:")


@pytest.mark.parametrize(
    ("consumer", "token", "secret"),
    [
        ("app", "no-such-token", "x"),
        ("stranger", "tok", TOKEN_SECRET),
        ("stranger", "no-such-token", "x"),
    ],
    ids=["bad-token-known-consumer", "unknown-consumer-valid-token", "unknown-consumer-bad-token"],
)
def test_oauth_rejected_credentials_raise_unauthorized(
    oauth_service: Any, consumer: str, token: str, secret: str
) -> None:
    with pytest.raises(Unauthorized) as caught:
        connect(oauth_service, oauth(consumer, token, secret))

    assert str(caught.value).startswith("HTTP Error 401: Unauthorized (GET http://127.0.0.1:")


def test_a_401_is_not_retried(basic_service: Any) -> None:
    with pytest.raises(Unauthorized):
        connect(basic_service, BasicHttpAuthorizer("alice", "wrong"))

    entries = basic_service.journal.entries()
    wadl = [entry.status for entry in entries if "wadl" in (entry.accept or "")]
    assert wadl == [401]
    # The root's JSON request goes out with the WADL request; it too is sent once at most.
    assert [entry.status for entry in entries if entry.accept == "application/json"] in ([], [401])


# Rule 2, Basic and OAuth tables: accepted credentials, and what the User-Agent says.


def test_basic_credentials_reach_every_collection(basic_service: Any) -> None:
    root = connect(basic_service, BasicHttpAuthorizer("alice", PASSWORD))

    assert len(root.recipes) == TOTAL_RECIPE_COUNT
    assert {entry.auth_scheme for entry in basic_service.journal.entries()} == {"Basic"}


def test_basic_user_agent_starts_with_the_client_and_says_nothing_of_auth(
    basic_service: Any,
) -> None:
    connect(basic_service, BasicHttpAuthorizer("alice", PASSWORD))

    agents = {entry.user_agent or "" for entry in basic_service.journal.entries()}
    assert len(agents) == 1
    agent = agents.pop()
    assert agent.startswith(f"wadlclient/{__version__}")
    for word in ("basic", "alice", "oauth", "consumer"):
        assert word not in agent.lower()


def test_oauth_valid_consumer_and_token_succeed(oauth_service: Any) -> None:
    root = connect(oauth_service, oauth("app", "tok", TOKEN_SECRET))

    assert len(root.recipes) == TOTAL_RECIPE_COUNT
    assert {entry.auth_scheme for entry in oauth_service.journal.entries()} == {"OAuth"}


def test_oauth_user_agent_names_the_consumer(oauth_service: Any) -> None:
    connect(oauth_service, oauth("app", "tok", TOKEN_SECRET))

    agents = {entry.user_agent for entry in oauth_service.journal.entries()}
    assert agents == {f'wadlclient/{__version__}; oauth_consumer="app"'}


def test_oauth_user_agent_names_the_application_before_the_consumer(oauth_service: Any) -> None:
    connect(oauth_service, oauth("app", "tok", TOKEN_SECRET, application_name="Recipe Tool"))

    agents = {entry.user_agent for entry in oauth_service.journal.entries()}
    assert agents == {f'wadlclient/{__version__}; application="Recipe Tool"; oauth_consumer="app"'}


@pytest.mark.parametrize("consumer", ["app", "stranger"], ids=["known", "unknown"])
def test_oauth_anonymous_access_sees_only_public_recipes(oauth_service: Any, consumer: str) -> None:
    secret = CONSUMER_SECRET if consumer == "app" else ""  # an unknown consumer's is empty
    anonymous = OAuthAuthorizer(consumer, secret, AccessToken("", ""))

    root = connect(oauth_service, anonymous)

    assert len(root.recipes) == PUBLIC_RECIPE_COUNT < TOTAL_RECIPE_COUNT


# Rule 3: root.credentials.


def test_root_credentials_is_the_authorizer_passed_in(basic_service: Any) -> None:
    authorizer = BasicHttpAuthorizer("alice", PASSWORD)

    root = connect(basic_service, authorizer)

    assert root.credentials is authorizer


def test_root_credentials_is_none_without_an_authorizer(cookbook_service: Any) -> None:
    root = connect(cookbook_service, None)

    assert root.credentials is None


# No secret in logs, reprs, exception messages or the cache.


def exercise(service: Any, authorizer: HttpAuthorizer, cache: Path) -> list[str]:
    """A whole session: connect, page through recipes, read an entry, fail once."""
    root = connect(service, authorizer, cache=str(cache))
    texts = [repr(root), repr(authorizer), str(authorizer)]
    recipes = list(root.recipes)
    texts += [repr(recipes[0]), repr(root.recipes)]
    recipes[0].lp_refresh()
    try:
        root.load(service.base_url + "1.0/recipes/999999")
    except Exception as error:  # the kind does not matter, its text does
        texts += [str(error), repr(error)]
    return texts


@pytest.mark.parametrize("scheme", ["basic", "oauth"])
def test_no_secret_in_logs_reprs_errors_or_cache_files(
    cookbook_service_factory: Factory,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    scheme: str,
) -> None:
    service = cookbook_service_factory(auth=scheme)
    service.add_user("alice", PASSWORD)
    service.add_consumer("app", CONSUMER_SECRET)
    service.add_token("app", "tok", TOKEN_SECRET)
    authorizer: HttpAuthorizer = (
        BasicHttpAuthorizer("alice", PASSWORD)
        if scheme == "basic"
        else oauth("app", "tok", TOKEN_SECRET)
    )
    caplog.set_level(logging.DEBUG)

    texts = exercise(service, authorizer, tmp_path / "cache")

    cached = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file())
    assert cached, "the session should have cached something"
    assert caplog.records, "the session should have logged something"
    for secret in SECRETS:
        assert secret not in caplog.text
        assert all(secret not in text for text in texts)
        assert secret.encode() not in cached
    assert "authorization" not in cached.lower().decode("utf-8", "replace")


def test_oauth_hmac_sha1_session_signs_reads_form_posts_and_patches(oauth_service: Any) -> None:
    root = connect(oauth_service, oauth("app", "tok", TOKEN_SECRET, signature_method="HMAC-SHA1"))
    when = datetime(1994, 1, 1, tzinfo=timezone.utc)

    cookbook = root.cookbooks.create(
        name="Signed & Sealed",
        cuisine="General",
        copyright_date=when,
        price=Decimal("1.23"),
        last_printing=when,
    )
    cookbook.description = "Every request HMAC-signed."
    cookbook.lp_save()

    assert root.cookbooks("Signed & Sealed").description == "Every request HMAC-signed."
    sent = oauth_service.journal.entries()
    assert {"GET", "POST", "PATCH"} <= {entry.method for entry in sent}
    assert all(entry.status != 401 and entry.auth_scheme == "OAuth" for entry in sent)
