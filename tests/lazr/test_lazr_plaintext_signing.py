"""OAuth PLAINTEXT is signed without oauthlib, and the header is oauthlib's but for its nonce.

An anonymous launchpadlib login signs every request PLAINTEXT; making that
header without oauthlib spares each process its import. The header must
stay the one oauthlib's client makes (and tests/auth/test_independent_verifier.py
checks against oauthlib's server-side endpoint): same parameters, same
order, same encoding. The compat layer's authorizer is the engine's.
"""

from __future__ import annotations

import re

import pytest
from oauthlib import oauth1
from oauthlib.oauth1.rfc5849 import signature as oauth_signature
from oauthlib.oauth1.rfc5849.utils import parse_authorization_header, unescape

import wadlclient
from wadlclient.errors import CredentialsError
from wadlclient.lazr.restfulclient.authorize.oauth import AccessToken, OAuthAuthorizer

URL = "http://127.0.0.1:8080/1.0/people?ws.size=5"

# (consumer key, consumer secret, token key, token secret, realm): anonymous
# as launchpadlib logs in, a real token, and characters the encoding must escape.
CREDENTIALS = [
    ("launchpadlib app", "", "", "", "https://api.launchpad.net/"),
    ("consumer", "", "tokenKey0123", "tokenSecret", "OAuth"),
    ("c k~é", "s&x=1", "tok=1/+", "sec ret%", "OAuth"),
    ("consumer", "", "key", "secret", ""),
]


def _signed(authorizer: wadlclient.OAuthAuthorizer) -> str:
    """The Authorization header of a GET; a stale one in another case is replaced."""
    headers: dict[str, str] = {"authorization": "stale"}
    authorizer.authorizeRequest(URL, "GET", None, headers)
    assert list(headers) == ["Authorization"]
    return headers["Authorization"]


def _without_fresh_values(header: str) -> str:
    """The header as sent, with the nonce and timestamp emptied."""
    return re.sub(r'(oauth_nonce|oauth_timestamp)="[^"]*"', r'\1=""', header)


@pytest.mark.parametrize(("key", "secret", "token", "token_secret", "realm"), CREDENTIALS)
def test_plaintext_header_is_oauthlibs_but_for_nonce_and_timestamp(
    key: str, secret: str, token: str, token_secret: str, realm: str
) -> None:
    ours = _signed(OAuthAuthorizer(key, secret, AccessToken(token, token_secret), realm))
    client = oauth1.Client(
        key,
        client_secret=secret,
        resource_owner_key=token or None,
        resource_owner_secret=token_secret,
        signature_method=oauth1.SIGNATURE_PLAINTEXT,
        signature_type=oauth1.SIGNATURE_TYPE_AUTH_HEADER,
        realm=realm,
    )
    _, signed, _ = client.sign(URL, http_method="GET")

    assert _without_fresh_values(ours) == _without_fresh_values(signed["Authorization"])
    assert ours != _without_fresh_values(ours)


@pytest.mark.parametrize(("key", "secret", "token", "token_secret", "realm"), CREDENTIALS)
def test_compat_plaintext_signature_is_the_two_secrets(
    key: str, secret: str, token: str, token_secret: str, realm: str
) -> None:
    params = dict(parse_authorization_header(_signed(
        OAuthAuthorizer(key, secret, AccessToken(token, token_secret), realm)
    )))  # fmt: skip

    assert unescape(params["oauth_signature"]) == oauth_signature.sign_plaintext(
        secret, token_secret
    )
    assert params["oauth_timestamp"].isdigit()
    assert params["oauth_nonce"].endswith(params["oauth_timestamp"])


def test_each_plaintext_request_gets_a_fresh_nonce() -> None:
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("", ""))
    nonces = {
        dict(parse_authorization_header(_signed(authorizer)))["oauth_nonce"] for _ in range(50)
    }
    assert len(nonces) == 50


def test_hmac_sha1_is_still_signed_by_the_engine() -> None:
    authorizer = OAuthAuthorizer(
        "consumer", "", AccessToken("key", "secret"), signature_method="HMAC-SHA1"
    )
    assert dict(parse_authorization_header(_signed(authorizer)))["oauth_signature_method"] == (
        "HMAC-SHA1"
    )


def test_a_form_body_is_still_checked_by_the_engines_signer() -> None:
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("key", "secret"))
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    with pytest.raises(ValueError, match="GET/HEAD requests should not include body"):
        authorizer.authorizeRequest(URL, "GET", b"a=b", form)


def test_signing_without_a_consumer_raises_credentials_error() -> None:
    authorizer = OAuthAuthorizer(access_token=AccessToken("key", "secret"))
    with pytest.raises(CredentialsError):
        authorizer.authorizeRequest(URL, "GET", None, {})
