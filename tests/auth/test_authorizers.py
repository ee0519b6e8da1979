"""The client authorizers on their own: the headers they add and what they hide."""

from __future__ import annotations

import base64
import logging
import time
from urllib.parse import unquote

import httpx
import pytest
from oauthlib.oauth1.rfc5849.utils import parse_authorization_header

from wadlclient.auth import (
    AccessToken,
    BasicHttpAuthorizer,
    Consumer,
    HttpAuthorizer,
    OAuthAuthorizer,
)
from wadlclient.errors import CredentialsError

URL = "http://127.0.0.1:8080/1.0/recipes?ws.size=2"


def oauth_params(headers: httpx.Headers | dict[str, str]) -> dict[str, str]:
    return dict(parse_authorization_header(headers["Authorization"]))


def test_base_authorizer_adds_nothing_and_has_no_user_agent_params() -> None:
    headers = httpx.Headers({"Accept": "application/json"})

    HttpAuthorizer().authorizeRequest(URL, "GET", None, headers)

    assert dict(headers) == {"accept": "application/json"}
    assert HttpAuthorizer().user_agent_params == {}


def test_authorize_session_is_a_no_op_kept_for_lazr_scripts() -> None:
    client = httpx.Client()
    try:
        BasicHttpAuthorizer("alice", "pw").authorizeSession(client)
        assert "authorization" not in client.headers
    finally:
        client.close()


def test_basic_header_is_base64_of_utf8_username_colon_password() -> None:
    headers = httpx.Headers()

    BasicHttpAuthorizer("zoë", "pässword:with:colons").authorizeRequest(URL, "GET", None, headers)

    scheme, _, encoded = headers["authorization"].partition(" ")
    assert scheme == "Basic"
    assert base64.b64decode(encoded).decode("utf-8") == "zoë:pässword:with:colons"


def test_basic_replaces_an_authorization_header_in_any_case_in_a_plain_dict() -> None:
    headers = {"authorization": "Basic stale", "Accept": "application/json"}

    BasicHttpAuthorizer("alice", "pw").authorizeRequest(URL, "GET", None, headers)

    assert [key for key in headers if key.lower() == "authorization"] == ["Authorization"]
    assert headers["Authorization"] == "Basic " + base64.b64encode(b"alice:pw").decode()


def test_basic_gives_no_user_agent_params() -> None:
    assert BasicHttpAuthorizer("alice", "pw").user_agent_params == {}


def test_basic_refuses_a_username_with_a_colon_without_echoing_the_password() -> None:
    with pytest.raises(ValueError, match="cannot contain ':'") as caught:
        BasicHttpAuthorizer("al:ice", "hunter2")

    assert "hunter2" not in str(caught.value)


def test_oauth_header_is_plaintext_signed_in_the_realm_by_default() -> None:
    authorizer = OAuthAuthorizer(
        "consumer", "csecret", AccessToken("token", "tsecret"), oauth_realm="cookbook"
    )
    headers = httpx.Headers()

    authorizer.authorizeRequest(URL, "GET", None, headers)

    params = oauth_params(headers)
    assert headers["Authorization"].startswith("OAuth ")
    assert params["realm"] == "cookbook"
    assert params["oauth_consumer_key"] == "consumer"
    assert params["oauth_token"] == "token"
    assert params["oauth_signature_method"] == "PLAINTEXT"
    assert params["oauth_signature"] == "csecret%26tsecret"  # "csecret&tsecret", escaped
    assert params["oauth_version"] == "1.0"


def test_oauth_default_realm_is_oauth_like_lazr() -> None:
    headers: dict[str, str] = {}

    OAuthAuthorizer("consumer", access_token=AccessToken("t", "s")).authorizeRequest(
        URL, "GET", None, headers
    )

    assert oauth_params(headers)["realm"] == "OAuth"


def test_oauth_nonce_and_timestamp_are_fresh_on_every_request() -> None:
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("t", "s"))
    first: dict[str, str] = {}
    second: dict[str, str] = {}

    before = time.time()
    authorizer.authorizeRequest(URL, "GET", None, first)
    authorizer.authorizeRequest(URL, "GET", None, second)
    after = time.time()

    assert oauth_params(first)["oauth_nonce"] != oauth_params(second)["oauth_nonce"]
    for headers in (first, second):
        assert int(before) <= int(oauth_params(headers)["oauth_timestamp"]) <= after


def test_oauth_anonymous_token_sends_no_token_and_an_empty_token_secret() -> None:
    headers: dict[str, str] = {}

    OAuthAuthorizer("anyone", access_token=AccessToken("", "")).authorizeRequest(
        URL, "GET", None, headers
    )

    params = oauth_params(headers)
    assert "oauth_token" not in params
    assert params["oauth_signature"] == "%26"  # "&": empty consumer and token secrets
    assert AccessToken("", "").is_anonymous


def test_oauth_without_a_token_signs_as_anonymous() -> None:
    headers: dict[str, str] = {}

    OAuthAuthorizer("anyone").authorizeRequest(URL, "GET", None, headers)

    assert "oauth_token" not in oauth_params(headers)


def test_oauth_hmac_sha1_is_an_option() -> None:
    authorizer = OAuthAuthorizer(
        "consumer", "c", AccessToken("t", "s"), signature_method="HMAC-SHA1"
    )
    headers: dict[str, str] = {}

    authorizer.authorizeRequest(URL, "GET", None, headers)

    assert oauth_params(headers)["oauth_signature_method"] == "HMAC-SHA1"
    assert oauth_params(headers)["oauth_signature"] != "c%26s"


def test_oauth_signs_a_json_body_without_treating_it_as_parameters() -> None:
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("t", "s"))
    headers = {"Content-Type": "application/json"}

    authorizer.authorizeRequest(URL, "PATCH", b"name", headers)

    assert oauth_params(headers)["oauth_consumer_key"] == "consumer"


def test_oauth_refuses_an_unknown_signature_method() -> None:
    with pytest.raises(ValueError, match="RSA-SHA1"):
        OAuthAuthorizer("consumer", signature_method="RSA-SHA1")


def test_oauth_without_a_consumer_cannot_sign() -> None:
    with pytest.raises(CredentialsError, match="no consumer"):
        OAuthAuthorizer().authorizeRequest(URL, "GET", None, {})


def test_oauth_user_agent_params_name_the_consumer() -> None:
    assert OAuthAuthorizer("just-a-consumer").user_agent_params == {
        "oauth_consumer": "just-a-consumer"
    }


def test_oauth_user_agent_params_add_the_application_name_when_given() -> None:
    authorizer = OAuthAuthorizer("consumer", application_name="Recipe Tool")

    assert authorizer.user_agent_params == {
        "oauth_consumer": "consumer",
        "application": "Recipe Tool",
    }


def test_access_token_from_string_reads_the_lazr_form() -> None:
    token = AccessToken.from_string("oauth_token=key%201&oauth_token_secret=s%26cret")

    assert (token.key, token.secret) == ("key 1", "s&cret")
    assert AccessToken.from_string(token.to_string()) == token


def test_access_token_from_string_names_what_is_missing() -> None:
    with pytest.raises(CredentialsError, match="oauth_token_secret"):
        AccessToken.from_string("oauth_token=key")


@pytest.mark.parametrize(
    "obj",
    [
        BasicHttpAuthorizer("alice", "SECRET-PASSWORD"),
        Consumer("ckey", "SECRET-CONSUMER"),
        AccessToken("tkey", "SECRET-TOKEN"),
        OAuthAuthorizer("ckey", "SECRET-CONSUMER", AccessToken("tkey", "SECRET-TOKEN")),
    ],
    ids=["basic", "consumer", "token", "oauth"],
)
def test_repr_and_str_show_keys_but_never_secrets(obj: object) -> None:
    for text in (repr(obj), str(obj)):
        assert "SECRET" not in text
        assert ("alice" in text) or ("key" in text)


@pytest.mark.parametrize("method", ["PLAINTEXT", "HMAC-SHA1"])
def test_signing_logs_neither_secrets_nor_the_signature(
    caplog: pytest.LogCaptureFixture, method: str
) -> None:
    authorizer = OAuthAuthorizer(
        "consumer", "SECRET-C", AccessToken("token", "SECRET-T"), signature_method=method
    )
    headers: dict[str, str] = {}
    caplog.set_level(logging.DEBUG)

    authorizer.authorizeRequest(URL, "GET", None, headers)

    assert "SECRET" not in caplog.text
    assert unquote(oauth_params(headers)["oauth_signature"]) not in caplog.text
