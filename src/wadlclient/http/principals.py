"""Whose request this is, for the cache: what the authorizer declares, else what it sends.

A shared cache partitions answers by principal (`wadlclient.cache.sharing`).
The authorizers of this library declare theirs (a fingerprint of their
credentials). An authorizer written elsewhere usually declares nothing, or
inherits a ``principal`` written for another way of signing (a subclass of
`HttpAuthorizer` that sets ``Authorization: Bearer ...``): taking that at
its word would make its answers anonymous, shared with every other caller.
So a principal counts only when the class that signs declares it (the
class defining ``principal`` is the one defining ``authorizeRequest``, or
a subclass of it); otherwise the principal is derived from what the
authorizer puts on this very request:

- it adds or changes no header, and the caller passed no credential-named
  header: anonymous (None); a declared None is taken at its word only from
  a class that says so (OAuth's anonymous token), else checked this way;
- it sends the same credentials twice running: a keyed fingerprint of the
  credential headers (`wadlclient.auth.principal.fingerprint`, stretched
  like a password), so two processes holding one token share a partition
  and nothing in the store reveals or tests guesses at the token cheaply;
- it signs each request afresh (a nonce, a timestamp): a principal private
  to that authorizer object, never shared with anyone else.

Deriving calls ``authorizeRequest`` on a copy of the request's headers,
which the pipeline does again on the request it sends.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

from wadlclient.auth.principal import UNDECLARED, fingerprint
from wadlclient.cache.sharing import UNIDENTIFIED
from wadlclient.headers import Headers
from wadlclient.redact import secret_name

__all__ = ["declared_principal", "principal_of"]

_CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})
_PRIVATE_ATTRIBUTE = "_wadlclient_private_principal"
_private_by_object: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _definer(cls: type, name: str) -> type | None:
    """The class of ``cls``'s MRO whose own namespace defines ``name``."""
    return next((klass for klass in cls.__mro__ if name in vars(klass)), None)


def declared_principal(authorizer: object) -> str | None:
    """The principal ``authorizer`` declares for what it signs; `UNIDENTIFIED` when it does not.

    A principal inherited from above the class that signs (a subclass
    overriding ``authorizeRequest`` only) is not a declaration.
    """
    cls = type(authorizer)
    owner, signer = _definer(cls, "principal"), _definer(cls, "authorizeRequest")
    if owner is None or (signer is not None and not issubclass(owner, signer)):
        return UNIDENTIFIED
    principal = getattr(authorizer, "principal", UNIDENTIFIED)
    if principal is None:
        return None
    if not isinstance(principal, str) or principal == UNDECLARED:
        return UNIDENTIFIED
    return principal


def _anonymous_when_none(authorizer: object) -> bool:
    """Whether the class declaring ``principal`` says None is truly anonymous access.

    Any other None is checked against what is sent: anonymous means no
    credential sent. (An anonymous OAuth token sends a fresh nonce and no
    secret: judged by its headers, it would never share an answer.)
    """
    owner = _definer(type(authorizer), "principal")
    return owner is not None and bool(vars(owner).get("_anonymous_when_none", False))


def _is_credential(name: str) -> bool:
    return name.lower() in _CREDENTIAL_HEADERS or secret_name(name)


def _sent(
    authorizer: object, url: str, method: str, body: bytes | None, headers: Headers
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The credential headers one signing of this request carries: (names, values), sorted."""
    if authorizer is None:
        # Nothing signs: the headers as they are, of which only credentials count.
        pairs = sorted((name, headers[name]) for name in headers if _is_credential(name))
        return tuple(name for name, _ in pairs), tuple(value for _, value in pairs)
    probe = headers.copy()
    probe.pop("authorization", None)
    authorizer.authorizeRequest(url, method, body, probe)  # type: ignore[attr-defined]
    pairs = sorted(
        (name.lower(), probe[name])
        for name in probe
        if _is_credential(name) or headers.get(name) != probe[name]
    )
    return tuple(name for name, _ in pairs), tuple(value for _, value in pairs)


#: Credentials seen sent alike twice -> their fingerprint (a stretched hash: made once each).
_stable: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}
_STABLE_LIMIT = 64
_stable_lock = threading.Lock()


def _fingerprint_of(sent: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
    principal = _stable.get(sent)
    if principal is None:
        principal = fingerprint("sent", *sent)
        with _stable_lock:
            if len(_stable) >= _STABLE_LIMIT:
                _stable.pop(next(iter(_stable)))
            _stable[sent] = principal
    return principal


def _random_name() -> str:
    """32 random hex digits: ``secrets.token_hex(16)`` without importing secrets and hmac."""
    return os.urandom(16).hex()


def _private_to(authorizer: object) -> str:
    """A principal only ``authorizer`` (this object, in this process) ever has."""
    namespace = getattr(authorizer, "__dict__", None)
    if isinstance(namespace, dict):
        return namespace.setdefault(_PRIVATE_ATTRIBUTE, _random_name())  # type: ignore[no-any-return]
    try:
        return _private_by_object.setdefault(authorizer, _random_name())
    except TypeError:  # neither a __dict__ nor weak references: no partition at all
        return UNIDENTIFIED


def principal_of(
    authorizer: object, url: str, method: str, body: bytes | None, headers: Headers
) -> str | None:
    """Whose request this is: the declared principal, else one derived from what is sent.

    None: anonymous (no credential sent).
    """
    if authorizer is not None:
        declared = declared_principal(authorizer)
        if declared is None and _anonymous_when_none(authorizer):
            return None
        if declared is not None and declared != UNIDENTIFIED:
            return declared
    sent = _sent(authorizer, url, method, body, headers)
    if not sent[0]:
        return None
    signs_afresh = (
        sent not in _stable
        and authorizer is not None
        and _sent(authorizer, url, method, body, headers) != sent
    )
    if signs_afresh:
        return _private_to(authorizer)
    return _fingerprint_of(sent)
