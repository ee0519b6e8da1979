"""An authorizer's principal: whose answers a shared cache keeps, named without a secret."""

from __future__ import annotations

import re

from wadlclient import AccessToken, BasicHttpAuthorizer, OAuthAuthorizer
from wadlclient.auth import HttpAuthorizer
from wadlclient.auth.principal import UNDECLARED
from wadlclient.headers import Headers
from wadlclient.http.principals import principal_of


def oauth(token: str, secret: str, consumer: str = "app") -> OAuthAuthorizer:
    return OAuthAuthorizer(consumer, "", AccessToken(token, secret))


def test_the_same_credentials_are_the_same_principal_in_every_authorizer() -> None:
    """A fleet's workers each make their own authorizer: their answers must meet."""
    assert oauth("tok", "sekrit").principal == oauth("tok", "sekrit").principal
    assert BasicHttpAuthorizer("ann", "pw").principal == BasicHttpAuthorizer("ann", "pw").principal


def test_other_credentials_are_another_principal() -> None:
    principals = {
        oauth("tok", "sekrit").principal,
        oauth("other", "sekrit").principal,
        oauth("tok", "sekrit", consumer="other-app").principal,
        oauth("tok", "forged").principal,  # a known token key, without its secret
        BasicHttpAuthorizer("ann", "pw").principal,
        BasicHttpAuthorizer("ann", "other").principal,
    }

    assert len(principals) == 6


def test_a_principal_is_a_fingerprint_holding_no_key_or_secret() -> None:
    principal = oauth("token-key-1234", "token-secret-5678").principal

    assert principal is not None and re.fullmatch(r"[0-9a-f]{32}", principal)
    assert "1234" not in principal and "5678" not in principal


def test_anonymous_access_has_no_principal() -> None:
    assert oauth("", "").principal is None
    assert OAuthAuthorizer("app").principal is None
    # The null authorizer declares nothing; what it sends (nothing) makes it anonymous.
    assert HttpAuthorizer().principal == UNDECLARED
    assert principal_of(HttpAuthorizer(), "http://h/", "GET", None, Headers()) is None


def test_new_credentials_make_a_new_principal() -> None:
    authorizer = oauth("tok", "sekrit")
    before = authorizer.principal

    authorizer.access_token = AccessToken("tok", "renewed")

    assert authorizer.principal not in (None, before)
