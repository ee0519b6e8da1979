"""Who is asking: HTTP Basic and OAuth 1.0a verification for the example service.

The service calls :func:`authenticate_request` once per request and gets a
:class:`Principal` back, or an :class:`AuthenticationFailed` that it turns
into a 401 with the exception's ``www_authenticate`` header. Storage is the
service's business (:class:`CredentialStore`); this module only decides.

OAuth follows the lazr.restful dialect: parameters travel in the
``Authorization`` header, PLAINTEXT signatures are the norm (HMAC-SHA1 is
accepted too), and a token with an empty key and secret is anonymous access,
which the example service grants to any consumer, known or not.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import urlsplit

from oauthlib.oauth1.rfc5849 import signature as oauth_signature
from oauthlib.oauth1.rfc5849 import utils as oauth_utils

__all__ = [
    "ACCESS_ANONYMOUS",
    "ACCESS_WRITE",
    "AUTH_MODES",
    "AuthenticationFailed",
    "CredentialStore",
    "Principal",
    "authenticate",
    "authenticate_request",
    "hash_password",
    "new_password_record",
    "verify_password",
]

#: The ways the service can be run: no authorization, HTTP Basic, OAuth 1.0a.
AUTH_MODES = ("none", "basic", "oauth")

ACCESS_WRITE = "write"
ACCESS_ANONYMOUS = "anonymous"

MODES = ("none", "basic", "oauth")

#: How far an OAuth timestamp may stray from the server clock, in seconds.
TIMESTAMP_WINDOW = 600

_SIGNATURE_METHODS = ("PLAINTEXT", "HMAC-SHA1")
_FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"

# scrypt cost: about 60 ms per hash on a laptop core; verified passwords are
# remembered (see _VerifiedMemo) so a session does not pay it per request.
_SCRYPT_N = 2**14
_SCRYPT_R = 8
_SCRYPT_P = 1
_HASH_BYTES = 32
_SALT_BYTES = 16


@dataclass(frozen=True)
class Principal:
    """The party a request speaks for, and what it may do.

    ``access`` is ``"write"`` (may write and sees private fields) or
    ``"anonymous"`` (read-only, private fields hidden); a token's access
    level passes through unchanged.
    """

    name: str | None
    access: str
    scheme: str | None


class AuthenticationFailed(Exception):
    """The request does not prove who it is; the service answers 401.

    The message says why for the server log; it never contains a password,
    a secret or a signature.
    """

    def __init__(self, reason: str, www_authenticate: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.www_authenticate = www_authenticate


class CredentialStore(Protocol):
    """What the verification needs from the service's storage."""

    def password_record(self, username: str) -> tuple[str, str] | None:
        """``(salt_hex, hash_hex)`` for the user, or None if there is no such user."""
        ...

    def consumer_secret(self, consumer_key: str) -> str | None:
        """The consumer's secret (often ``""``), or None for an unknown consumer."""
        ...

    def token(self, consumer_key: str, token_key: str) -> tuple[str, str] | None:
        """``(token_secret, access)`` for a token of that consumer, or None."""
        ...


def hash_password(password: str, salt_hex: str | None = None) -> tuple[str, str]:
    """Hash a password with scrypt; returns ``(salt_hex, hash_hex)``.

    A fresh random salt is drawn unless one is given (to verify).
    """
    salt = secrets.token_bytes(_SALT_BYTES) if salt_hex is None else bytes.fromhex(salt_hex)
    digest = hashlib.scrypt(
        password.encode("utf-8"),
        salt=salt,
        n=_SCRYPT_N,
        r=_SCRYPT_R,
        p=_SCRYPT_P,
        dklen=_HASH_BYTES,
    )
    return salt.hex(), digest.hex()


@dataclass
class _VerifiedMemo:
    """Remembers passwords already verified, as keyed digests, to skip scrypt.

    Entries are keyed by the stored record, so a changed password (new salt
    or hash) never matches an old entry. The digest key is random per
    process and never leaves memory.
    """

    capacity: int = 256
    _key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    _entries: OrderedDict[tuple[str, str, str], bytes] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _digest(self, password: str) -> bytes:
        return hmac.new(self._key, password.encode("utf-8"), hashlib.sha256).digest()

    def knows(self, record: tuple[str, str, str], password: str) -> bool:
        with self._lock:
            known = self._entries.get(record)
            if known is None:
                return False
            self._entries.move_to_end(record)
        return hmac.compare_digest(known, self._digest(password))

    def remember(self, record: tuple[str, str, str], password: str) -> None:
        digest = self._digest(password)
        with self._lock:
            self._entries[record] = digest
            self._entries.move_to_end(record)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)


_memo = _VerifiedMemo()
_DUMMY_SALT = "00" * _SALT_BYTES


def new_password_record(username: str, password: str) -> tuple[str, str]:
    """``(salt_hex, hash_hex)`` to store for a user's new password, known as verified.

    The password was just hashed: its first use need not hash it again
    (the record is the memo's key, so a later record does not match).
    """
    salt_hex, hash_hex = hash_password(password)
    _memo.remember((username, salt_hex, hash_hex), password)
    return salt_hex, hash_hex


def verify_password(store: CredentialStore, username: str, password: str) -> bool:
    """True when ``password`` is the user's; constant time in the comparison.

    An unknown user still costs one hash, so timing does not reveal which
    user names exist.
    """
    record = store.password_record(username)
    if record is None:
        hash_password(password, _DUMMY_SALT)
        return False
    salt_hex, hash_hex = record
    memo_key = (username, salt_hex, hash_hex)
    if _memo.knows(memo_key, password):
        return True
    try:
        _, candidate = hash_password(password, salt_hex)
    except ValueError:
        return False
    if hmac.compare_digest(candidate, hash_hex):
        _memo.remember(memo_key, password)
        return True
    return False


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value, whatever the case of the mapping's keys."""
    value = headers.get(name)
    if value is not None:
        return value
    wanted = name.lower()
    for key, candidate in headers.items():
        if key.lower() == wanted:
            return candidate
    return None


def _basic(headers: Mapping[str, str], store: CredentialStore, realm: str) -> Principal:
    challenge = f'Basic realm="{realm}"'
    value = _header(headers, "Authorization")
    if value is None:
        raise AuthenticationFailed("no Authorization header", challenge)
    scheme, _, encoded = value.strip().partition(" ")
    if scheme.lower() != "basic" or not encoded.strip():
        raise AuthenticationFailed("Authorization is not Basic", challenge)
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise AuthenticationFailed("malformed Basic credentials", challenge) from None
    username, colon, password = decoded.partition(":")
    if not colon:
        raise AuthenticationFailed("malformed Basic credentials", challenge)
    if not verify_password(store, username, password):
        raise AuthenticationFailed(f"wrong user name or password for {username!r}", challenge)
    return Principal(username, ACCESS_WRITE, "Basic")


@dataclass(frozen=True)
class _SignedRequest:
    """The attributes oauthlib's signature verifiers read from a request."""

    uri: str
    http_method: str
    params: list[tuple[str, str]]
    signature: str


def _oauth_params(
    url: str, headers: Mapping[str, str], body: bytes | str | None, challenge: str
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The OAuth protocol parameters, and every parameter that is signed."""
    value = _header(headers, "Authorization")
    if value is None:
        raise AuthenticationFailed("no Authorization header", challenge)
    if not value.lstrip().lower().startswith("oauth "):
        raise AuthenticationFailed("Authorization is not OAuth", challenge)
    try:
        header_params = oauth_utils.parse_authorization_header(value.strip())
    except ValueError:
        raise AuthenticationFailed("malformed OAuth Authorization header", challenge) from None
    protocol = {
        name: oauth_utils.unescape(item)
        for name, item in header_params
        if name.startswith("oauth_")
    }
    form_body: str | None = None
    content_type = _header(headers, "Content-Type") or ""
    if body and content_type.split(";")[0].strip().lower() == _FORM_MEDIA_TYPE:
        form_body = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        signed = oauth_signature.collect_parameters(
            uri_query=urlsplit(url).query,
            body=form_body,
            headers={"Authorization": value.strip()},
            exclude_oauth_signature=True,
            with_realm=False,
        )
    except ValueError:
        raise AuthenticationFailed("malformed OAuth parameters", challenge) from None
    return protocol, list(signed)


def _check_timestamp(params: Mapping[str, str], required: bool, challenge: str) -> None:
    stamp = params.get("oauth_timestamp")
    if stamp is None:
        if required:
            raise AuthenticationFailed("oauth_timestamp missing", challenge)
        return
    if not (stamp.isascii() and stamp.isdigit()):
        raise AuthenticationFailed("oauth_timestamp is not a number", challenge)
    if abs(int(stamp) - time.time()) > TIMESTAMP_WINDOW:
        raise AuthenticationFailed("oauth_timestamp outside the accepted window", challenge)
    if required and not params.get("oauth_nonce"):
        raise AuthenticationFailed("oauth_nonce missing", challenge)


class NonceStore:
    """The nonces of HMAC-signed requests seen inside the timestamp window: a replay is refused.

    Kept per (consumer, token, timestamp, nonce), as RFC 5849 section 3.3
    asks; entries older than the window are dropped, since a request that
    old fails the timestamp check anyway.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str, str, str], int] = {}
        self._next_sweep = 0.0

    def first_use(self, consumer_key: str, token_key: str, stamp: str, nonce: str) -> bool:
        """Record a nonce; False when it was already used with this timestamp."""
        now = time.time()
        key = (consumer_key, token_key, stamp, nonce)
        with self._lock:
            if now >= self._next_sweep:
                oldest = now - TIMESTAMP_WINDOW
                self._seen = {k: t for k, t in self._seen.items() if t >= oldest}
                self._next_sweep = now + 60
            if key in self._seen:
                return False
            self._seen[key] = int(stamp) if stamp.isascii() and stamp.isdigit() else int(now)
            return True


#: The nonces this process has accepted.
NONCES = NonceStore()


def authenticate(
    consumer_key: str,
    token_key: str,
    params: Mapping[str, str],
    store: CredentialStore,
    *,
    method: str = "GET",
    url: str = "",
    signed_params: list[tuple[str, str]] | None = None,
    realm: str = "cookbook",
) -> Principal:
    """Decide an OAuth request (SPEC "OAuth authorizer" table, row by row).

    ``params`` are the request's OAuth protocol parameters. A valid consumer
    and token pass with the token's access; an empty token key and secret is
    anonymous access for any consumer, known or not (an unknown consumer's
    secret counts as empty); anything else fails.
    """
    challenge = f'OAuth realm="{realm}"'
    if not consumer_key:
        raise AuthenticationFailed("oauth_consumer_key missing", challenge)
    version = params.get("oauth_version", "1.0")
    if version != "1.0":
        raise AuthenticationFailed(f"unsupported oauth_version {version!r}", challenge)
    method_name = params.get("oauth_signature_method", "")
    if method_name not in _SIGNATURE_METHODS:
        raise AuthenticationFailed(f"unsupported oauth_signature_method {method_name!r}", challenge)
    _check_timestamp(params, required=method_name != "PLAINTEXT", challenge=challenge)

    consumer_secret = store.consumer_secret(consumer_key)
    if token_key:
        if consumer_secret is None:
            raise AuthenticationFailed(f"unknown consumer {consumer_key!r}", challenge)
        token = store.token(consumer_key, token_key)
        if token is None:
            raise AuthenticationFailed(f"unknown token for consumer {consumer_key!r}", challenge)
        token_secret, access = token
    else:
        token_secret, access = "", ACCESS_ANONYMOUS

    request = _SignedRequest(
        uri=url,
        http_method=method.upper(),
        params=signed_params if signed_params is not None else [],
        signature=params.get("oauth_signature", ""),
    )
    secret = consumer_secret or ""
    if method_name == "PLAINTEXT":
        valid = oauth_signature.verify_plaintext(request, secret, token_secret)
    else:
        valid = bool(url) and oauth_signature.verify_hmac_sha1(request, secret, token_secret)
    if not valid:
        raise AuthenticationFailed(f"bad signature from consumer {consumer_key!r}", challenge)
    if method_name != "PLAINTEXT" and not NONCES.first_use(
        consumer_key, token_key, params.get("oauth_timestamp", ""), params.get("oauth_nonce", "")
    ):
        raise AuthenticationFailed("oauth_nonce already used: a replayed request", challenge)
    return Principal(consumer_key, access, "OAuth")


def authenticate_request(
    mode: str,
    method: str,
    url: str,
    headers: Mapping[str, str],
    store: CredentialStore,
    realm: str = "cookbook",
    *,
    body: bytes | str | None = None,
) -> Principal:
    """Verify one request under the service's authorization ``mode``.

    ``url`` is the absolute request URL as the client addressed it (needed
    for HMAC-SHA1). ``body`` matters only for HMAC-SHA1 signatures over an
    ``application/x-www-form-urlencoded`` body; without it such a request
    fails verification, PLAINTEXT requests do not need it.
    """
    if mode == "none":
        return Principal(None, ACCESS_WRITE, None)
    if mode == "basic":
        return _basic(headers, store, realm)
    if mode == "oauth":
        challenge = f'OAuth realm="{realm}"'
        protocol, signed = _oauth_params(url, headers, body, challenge)
        return authenticate(
            protocol.get("oauth_consumer_key", ""),
            protocol.get("oauth_token", ""),
            protocol,
            store,
            method=method,
            url=url,
            signed_params=signed,
            realm=realm,
        )
    raise ValueError(f"unknown authorization mode {mode!r}; expected one of {MODES}")
