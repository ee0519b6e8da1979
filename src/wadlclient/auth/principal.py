"""Whose credentials these are, as a fingerprint a shared cache may keep.

A cache shared by several principals (a Redis, one directory) keeps an
authorized answer for the principal that asked (`wadlclient.cache.sharing`);
it needs a name for that principal that is stable across processes holding
the same credentials, yet says nothing about them. The fingerprint is a
keyed hash: HMAC-SHA256 keyed with the credentials' secrets over their
public parts (OAuth consumer key and token key, or a Basic user name), 128
bits in hex. It cannot be turned back into the key or the secret, and
someone who knows the token key but not its secret cannot make it, so a
forged authorizer never reads another principal's answers. A password is
stretched first (PBKDF2): whoever can read the store must not be able to
test guesses at it quickly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["PASSWORD_ROUNDS", "UNDECLARED", "PrincipalMemo", "fingerprint", "remembered"]

#: PBKDF2 rounds for a password (Basic): a few milliseconds, once per authorizer.
PASSWORD_ROUNDS = 20_000
#: What an authorizer's ``principal`` is when it does not say: the cache then
#: derives one from what the authorizer sends (`wadlclient.http.principals`).
UNDECLARED = "?"
#: Kinds whose secret may be guessable (a password; any value an authorizer
#: of the caller's own sends), stretched with PBKDF2 first.
_STRETCHED = frozenset({"basic", "sent"})
_DOMAIN = b"wadlclient principal v1"
_HEX_DIGITS = 32


def _framed(parts: Sequence[str]) -> bytes:
    """The parts as one unambiguous byte string (each one prefixed with its length)."""
    encoded = [part.encode("utf-8", "surrogatepass") for part in parts]
    return b"".join(b"%d:%s" % (len(part), part) for part in encoded)


def fingerprint(kind: str, public: Sequence[str], secret: Sequence[str]) -> str:
    """The principal of credentials of ``kind`` (``"oauth"``, ``"basic"``): 32 hex digits.

    ``public`` names who they are (consumer key, token key; a user name;
    header names), ``secret`` proves it (consumer secret, token secret; a
    password or the values of credential headers sent (``"sent"``), which
    are stretched with PBKDF2 first).
    """
    import hashlib  # loads OpenSSL: only once a principal is asked for
    import hmac

    identity = _framed([kind, *public])
    key = _framed(secret)
    if kind in _STRETCHED:
        key = hashlib.pbkdf2_hmac("sha256", key, _DOMAIN + identity, PASSWORD_ROUNDS)
    return hmac.new(key, _DOMAIN + identity, hashlib.sha256).hexdigest()[:_HEX_DIGITS]


class PrincipalMemo:
    """One authorizer's fingerprint, made again only when its credentials change."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        # Replaced whole, so a thread never pairs one call's credentials with another's value.
        self._memo: tuple[tuple[str, ...], str] = ((), "")

    def __repr__(self) -> str:
        return "PrincipalMemo()"

    def of(self, kind: str, public: tuple[str, ...], secret: tuple[str, ...]) -> str:
        """`fingerprint` of these credentials (remembered)."""
        given = (kind, *public, *secret)
        remembered, principal = self._memo
        if given != remembered:
            principal = fingerprint(kind, public, secret)
            self._memo = (given, principal)
        return principal


def remembered(owner: Any, kind: str, public: tuple[str, ...], secret: tuple[str, ...]) -> str:
    """`fingerprint`, kept on ``owner`` (an authorizer) while its credentials stay the same."""
    memo: PrincipalMemo = vars(owner).setdefault("_principal_memo", PrincipalMemo())
    return memo.of(kind, public, secret)
