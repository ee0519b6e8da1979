"""The OAuth 1.0 ``Authorization`` header of a PLAINTEXT signature (RFC 5849, 3.4.4 and 3.5.1).

A PLAINTEXT signature covers neither the URL nor the body, only the two
secrets, so it needs none of oauthlib: an anonymous launchpadlib login
(``Launchpad.login_anonymously``) signs every request this way and need
not import it. HMAC-SHA1 stays with oauthlib (`wadlclient.auth.authorizers`).
"""

from __future__ import annotations

import random
import time
from urllib.parse import quote

__all__ = ["plaintext_authorization"]

_NONCE_SOURCE = random.SystemRandom()


def _escape(value: str) -> str:
    """RFC 5849 3.6 percent-encoding: everything but the unreserved characters."""
    return quote(value, safe="~")


def plaintext_authorization(
    realm: str,
    consumer_key: str,
    consumer_secret: str,
    token_key: str,
    token_secret: str,
) -> str:
    """The header value, with a fresh nonce and timestamp.

    As oauthlib writes it (the header the HMAC-SHA1 path makes): its
    parameter order, no ``oauth_token`` without a token key, no realm
    when ``realm`` is empty.
    """
    timestamp = str(int(time.time()))
    params = [
        ("oauth_nonce", str(_NONCE_SOURCE.getrandbits(64)) + timestamp),
        ("oauth_timestamp", timestamp),
        ("oauth_version", "1.0"),
        ("oauth_signature_method", "PLAINTEXT"),
        ("oauth_consumer_key", consumer_key),
    ]
    if token_key:
        params.append(("oauth_token", token_key))
    params.append(("oauth_signature", f"{_escape(consumer_secret)}&{_escape(token_secret)}"))
    fields = ", ".join(f'{name}="{_escape(value)}"' for name, value in params)
    return f'OAuth realm="{realm}", {fields}' if realm else f"OAuth {fields}"
