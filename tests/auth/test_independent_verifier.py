"""Our OAuth signatures checked by oauthlib's own server-side endpoint.

Our service accepting our client proves little; oauthlib's ResourceEndpoint
is an independent implementation of RFC 5849 verification.
"""

from __future__ import annotations

from typing import Any

import httpx
from oauthlib.oauth1 import RequestValidator, ResourceEndpoint

from wadlclient.auth import AccessToken, OAuthAuthorizer

CONSUMER_KEY = "wadlclientTestConsumer01"
CONSUMER_SECRET = "consumerSecret"
TOKEN_KEY = "accessTokenKey0123456789"
TOKEN_SECRET = "tokenSecret"
URL = "http://127.0.0.1:8080/1.0/recipes?ws.size=2"


class Validator(RequestValidator):  # type: ignore[misc]
    """Knows one consumer and one token; accepts PLAINTEXT and HMAC-SHA1 over http."""

    def __init__(self) -> None:
        super().__init__()
        self.nonces: set[tuple[str, str, str]] = set()

    enforce_ssl = False
    allowed_signature_methods = ("PLAINTEXT", "HMAC-SHA1")
    dummy_client = "dummyClientKey0123456789"
    dummy_access_token = "dummyAccessToken01234567"

    def validate_client_key(self, client_key: str, request: Any) -> bool:
        return client_key == CONSUMER_KEY

    def get_client_secret(self, client_key: str, request: Any) -> str:
        return CONSUMER_SECRET if client_key == CONSUMER_KEY else "dummy"

    def validate_access_token(self, client_key: str, token: str, request: Any) -> bool:
        return (client_key, token) == (CONSUMER_KEY, TOKEN_KEY)

    def get_access_token_secret(self, client_key: str, token: str, request: Any) -> str:
        return TOKEN_SECRET if token == TOKEN_KEY else "dummy"

    def validate_timestamp_and_nonce(
        self, client_key: str, timestamp: str, nonce: str, request: Any, **kwargs: Any
    ) -> bool:
        seen = (client_key, timestamp, nonce)
        if seen in self.nonces:
            return False
        self.nonces.add(seen)
        return True

    def validate_realms(self, client_key: str, token: str, request: Any, **kwargs: Any) -> bool:
        return True


def signed(
    authorizer: OAuthAuthorizer, method: str, body: bytes | None, headers: dict[str, str]
) -> httpx.Headers:
    sent = httpx.Headers(headers)
    authorizer.authorizeRequest(URL, method, body, sent)
    return sent


def test_plaintext_signed_request_is_accepted_by_oauthlib_resource_endpoint() -> None:
    authorizer = OAuthAuthorizer(
        CONSUMER_KEY, CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET)
    )
    headers = signed(authorizer, "GET", None, {})

    valid, request = ResourceEndpoint(Validator()).validate_protected_resource_request(
        URL, "GET", headers=dict(headers)
    )

    assert valid, request.validator_log
    assert request.signature_method == "PLAINTEXT"


def test_plaintext_with_a_wrong_token_secret_is_refused_by_oauthlib() -> None:
    authorizer = OAuthAuthorizer(CONSUMER_KEY, CONSUMER_SECRET, AccessToken(TOKEN_KEY, "wrong"))
    headers = signed(authorizer, "GET", None, {})

    valid, request = ResourceEndpoint(Validator()).validate_protected_resource_request(
        URL, "GET", headers=dict(headers)
    )

    assert not valid
    assert request.validator_log["signature"] is False


def test_hmac_sha1_signature_over_a_form_body_is_accepted_by_oauthlib() -> None:
    authorizer = OAuthAuthorizer(
        CONSUMER_KEY,
        CONSUMER_SECRET,
        AccessToken(TOKEN_KEY, TOKEN_SECRET),
        signature_method="HMAC-SHA1",
    )
    body = b"ws.op=rename&name=Caf%C3%A9"
    headers = signed(
        authorizer, "POST", body, {"Content-Type": "application/x-www-form-urlencoded"}
    )

    valid, request = ResourceEndpoint(Validator()).validate_protected_resource_request(
        URL, "POST", body=body.decode(), headers=dict(headers)
    )

    assert valid, request.validator_log


def test_hmac_sha1_signature_does_not_cover_a_tampered_form_body() -> None:
    authorizer = OAuthAuthorizer(
        CONSUMER_KEY,
        CONSUMER_SECRET,
        AccessToken(TOKEN_KEY, TOKEN_SECRET),
        signature_method="HMAC-SHA1",
    )
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    headers = signed(authorizer, "POST", b"ws.op=rename&name=A", form)

    valid, request = ResourceEndpoint(Validator()).validate_protected_resource_request(
        URL, "POST", body="ws.op=rename&name=B", headers=dict(headers)
    )

    assert not valid
    assert request.validator_log["signature"] is False
