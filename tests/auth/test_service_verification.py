"""The example service's verification function, without HTTP around it.

The same rules are checked again over real HTTP in test_auth_http.py; here
the edge cases (timestamps, signature methods, malformed headers) that are
tedious to reach through a client.
"""

from __future__ import annotations

import base64
import functools
import time
from dataclasses import dataclass, field

import pytest
from oauthlib import oauth1

from cookbook_service.auth import (
    AuthenticationFailed,
    Principal,
    authenticate_request,
    hash_password,
)

URL = "http://127.0.0.1:8080/1.0/recipes?ws.size=2"
BASIC_CHALLENGE = 'Basic realm="cookbook"'
OAUTH_CHALLENGE = 'OAuth realm="cookbook"'


@functools.cache
def alice_record() -> tuple[str, str]:
    """Alice's password record, hashed once per process when first needed.

    A scrypt hash takes ~60 ms of CPU; every test's store holds the same
    record (a verification still hashes, as it must).
    """
    return hash_password("wonderland")


@dataclass
class Store:
    """An in-memory CredentialStore with one user, two consumers and one token."""

    users: dict[str, tuple[str, str]] = field(default_factory=lambda: {"alice": alice_record()})
    consumers: dict[str, str] = field(default_factory=lambda: {"app": "", "other-app": ""})
    tokens: dict[tuple[str, str], tuple[str, str]] = field(
        default_factory=lambda: {
            ("app", "tok"): ("tok-secret", "write"),
            ("app", "ro"): ("ro-secret", "anonymous"),
        }
    )

    def password_record(self, username: str) -> tuple[str, str] | None:
        return self.users.get(username)

    def consumer_secret(self, consumer_key: str) -> str | None:
        return self.consumers.get(consumer_key)

    def token(self, consumer_key: str, token_key: str) -> tuple[str, str] | None:
        return self.tokens.get((consumer_key, token_key))


def basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def oauth(
    consumer: str,
    token: str = "",
    token_secret: str = "",
    *,
    consumer_secret: str = "",
    method: str = oauth1.SIGNATURE_PLAINTEXT,
    timestamp: str | None = None,
    url: str = URL,
    http_method: str = "GET",
    body: str | None = None,
) -> dict[str, str]:
    client = oauth1.Client(
        consumer,
        client_secret=consumer_secret,
        resource_owner_key=token or None,
        resource_owner_secret=token_secret,
        signature_method=method,
        realm="OAuth",
        timestamp=timestamp,
    )
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
    _, signed, _ = client.sign(url, http_method, body=body, headers=headers)
    return dict(signed)


def check(mode: str, headers: dict[str, str]) -> Principal:
    return authenticate_request(mode, "GET", URL, headers, Store())


def test_mode_none_grants_write_access_without_reading_headers() -> None:
    assert check("none", {"Authorization": "garbage"}) == Principal(None, "write", None)


def test_unknown_mode_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="digest"):
        check("digest", {})


def test_basic_right_user_and_password_pass() -> None:
    assert check("basic", basic("alice", "wonderland")) == Principal("alice", "write", "Basic")


def test_basic_lowercase_header_name_is_found() -> None:
    headers = {k.lower(): v for k, v in basic("alice", "wonderland").items()}

    assert check("basic", headers).name == "alice"


@pytest.mark.parametrize(
    "headers",
    [
        basic("alice", "looking-glass"),
        basic("bob", "wonderland"),
        {},
        {"Authorization": "Bearer abc"},
        {"Authorization": "Basic !!!not-base64"},
        {"Authorization": "Basic " + base64.b64encode(b"no-colon").decode()},
    ],
    ids=["wrong-password", "unknown-user", "no-header", "other-scheme", "bad-base64", "no-colon"],
)
def test_basic_anything_else_fails_with_a_basic_challenge(headers: dict[str, str]) -> None:
    with pytest.raises(AuthenticationFailed) as caught:
        check("basic", headers)

    assert caught.value.www_authenticate == BASIC_CHALLENGE
    assert "looking-glass" not in str(caught.value)
    assert "wonderland" not in str(caught.value)


def test_basic_a_changed_password_stops_the_old_one_working() -> None:
    store = Store()
    authenticate_request("basic", "GET", URL, basic("alice", "wonderland"), store)
    store.users["alice"] = hash_password("new-password")

    with pytest.raises(AuthenticationFailed):
        authenticate_request("basic", "GET", URL, basic("alice", "wonderland"), store)


def test_hash_password_salts_randomly_and_reproduces_with_the_salt() -> None:
    salt, digest = hash_password("pw")

    assert hash_password("pw") != (salt, digest)
    assert hash_password("pw", salt) == (salt, digest)
    assert "pw" not in digest


def test_oauth_valid_consumer_and_token_pass_with_the_token_access() -> None:
    assert check("oauth", oauth("app", "tok", "tok-secret")) == Principal("app", "write", "OAuth")
    assert check("oauth", oauth("app", "ro", "ro-secret")).access == "anonymous"


def test_oauth_invalid_token_with_a_known_consumer_fails() -> None:
    with pytest.raises(AuthenticationFailed) as caught:
        check("oauth", oauth("app", "no-such-token", "x"))

    assert caught.value.www_authenticate == OAUTH_CHALLENGE


def test_oauth_unknown_consumer_with_a_valid_token_fails() -> None:
    with pytest.raises(AuthenticationFailed, match="unknown consumer"):
        check("oauth", oauth("stranger", "tok", "tok-secret"))


def test_oauth_unknown_consumer_with_an_invalid_token_fails() -> None:
    with pytest.raises(AuthenticationFailed):
        check("oauth", oauth("stranger", "no-such-token", "x"))


def test_oauth_token_of_another_consumer_fails() -> None:
    with pytest.raises(AuthenticationFailed):
        check("oauth", oauth("other-app", "tok", "tok-secret"))


@pytest.mark.parametrize("consumer", ["app", "stranger"], ids=["known", "unknown"])
def test_oauth_empty_token_is_anonymous_access_for_any_consumer(consumer: str) -> None:
    assert check("oauth", oauth(consumer)) == Principal(consumer, "anonymous", "OAuth")


def test_oauth_anonymous_with_a_non_empty_token_secret_fails() -> None:
    with pytest.raises(AuthenticationFailed, match="bad signature"):
        check("oauth", oauth("app", "", "some-secret"))


def test_oauth_wrong_token_secret_fails_without_echoing_it() -> None:
    with pytest.raises(AuthenticationFailed) as caught:
        check("oauth", oauth("app", "tok", "guessed-secret"))

    assert "guessed-secret" not in str(caught.value)


def test_oauth_missing_header_fails_with_an_oauth_challenge() -> None:
    with pytest.raises(AuthenticationFailed) as caught:
        check("oauth", {})

    assert caught.value.www_authenticate == OAUTH_CHALLENGE


def test_oauth_basic_header_is_not_accepted_in_oauth_mode() -> None:
    with pytest.raises(AuthenticationFailed, match="not OAuth"):
        check("oauth", basic("alice", "wonderland"))


def test_oauth_stale_timestamp_fails() -> None:
    stale = str(int(time.time()) - 3600)

    with pytest.raises(AuthenticationFailed, match="timestamp"):
        check("oauth", oauth("app", "tok", "tok-secret", timestamp=stale))


@pytest.mark.parametrize("timestamp", ["soon", "\u00b2"])  # "²": str.isdigit() yes, int() no
def test_oauth_a_timestamp_that_is_not_a_number_fails(timestamp: str) -> None:
    with pytest.raises(AuthenticationFailed, match="oauth_timestamp is not a number"):
        check("oauth", oauth("app", "tok", "tok-secret", timestamp=timestamp))


def test_oauth_unsupported_signature_method_fails() -> None:
    headers = oauth("app", "tok", "tok-secret", method=oauth1.SIGNATURE_HMAC_SHA256)

    with pytest.raises(AuthenticationFailed, match="HMAC-SHA256"):
        check("oauth", headers)


def test_oauth_hmac_sha1_over_the_url_and_query_passes() -> None:
    headers = oauth("app", "tok", "tok-secret", method=oauth1.SIGNATURE_HMAC_SHA1)

    assert check("oauth", headers).name == "app"


def test_oauth_hmac_sha1_for_another_query_fails() -> None:
    headers = oauth(
        "app", "tok", "tok-secret", method=oauth1.SIGNATURE_HMAC_SHA1, url=URL + "&ws.start=5"
    )

    with pytest.raises(AuthenticationFailed, match="bad signature"):
        check("oauth", headers)


def test_oauth_hmac_sha1_covers_a_form_body_given_to_the_verifier() -> None:
    body = "ws.op=rename&name=Soup"
    headers = oauth(
        "app", "tok", "tok-secret", method=oauth1.SIGNATURE_HMAC_SHA1, http_method="POST", body=body
    )
    store = Store()

    principal = authenticate_request("oauth", "POST", URL, headers, store, body=body.encode())

    assert principal.name == "app"
    with pytest.raises(AuthenticationFailed):
        authenticate_request("oauth", "POST", URL, headers, store, body=b"ws.op=rename&name=Stew")
