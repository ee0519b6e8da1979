"""Launchpad's signature: ``X-Hub-Signature: sha1=<HMAC-SHA1 of the raw body>``.

Verification needs the body exactly as it arrived, as bytes: anything
else is refused at once (`BodyNotBytes`) rather than failing later as a
mismatch nobody can explain, the most common webhook bug there is. The
comparison is constant-time (`hmac.compare_digest`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

from wadlclient.webhooks.errors import (
    BodyNotBytes,
    SignatureMismatch,
    SignatureMissing,
    WebhookSetupError,
)

__all__ = ["Headers", "header_map", "raw_body", "secret_bytes", "sign", "verify"]

#: Headers as a framework hands them over: a mapping (dict, Starlette's, Flask's,
#: Django's ``request.headers``), a WSGI environ, or ASGI's list of byte pairs.
Headers: TypeAlias = Mapping[str, Any] | Iterable[tuple[bytes, bytes]] | Iterable[tuple[str, str]]

SIGNATURE_HEADER = "x-hub-signature"
_SIGNATURE = re.compile(r"sha1=([0-9a-fA-F]{40})")
#: Launchpad refuses longer secrets (its WADL: "less than 200 bytes long").
MAX_SECRET_BYTES = 199


def raw_body(body: object) -> bytes:
    """``body`` as bytes, if it is the raw body; else `BodyNotBytes` naming what it was."""
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    kind = type(body).__name__
    if isinstance(body, str):
        cause = (
            "a str: the body was decoded to text, and text encoded again need not give "
            "the same bytes"
        )
    elif isinstance(body, (dict, list)):
        cause = (
            f"a {kind}: the body was parsed as JSON, and a payload serialised again "
            "(key order, spaces, escapes) never has the bytes Launchpad signed"
        )
    else:
        cause = f"a {kind}"
    raise BodyNotBytes(
        f"a webhook body must be the raw bytes of the request, as received; got {cause}. "
        "Pass `await request.body()` (Starlette, FastAPI), `request.get_data()` (Flask) or "
        "`request.body` (Django), before anything parses it."
    )


def secret_bytes(secret: object) -> bytes:
    """The secret as Launchpad uses it (UTF-8), checked: non-empty and short enough."""
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, bytes):
        raise WebhookSetupError(f"a webhook secret is a str or bytes, not {type(secret).__name__}")
    if not secret:
        raise WebhookSetupError(
            "the webhook secret is empty: Launchpad signs nothing without one, so nothing "
            "could be verified; set one with newWebhook(secret=...) or webhook.setSecret()"
        )
    if len(secret) > MAX_SECRET_BYTES:
        raise WebhookSetupError(
            f"the webhook secret is {len(secret)} bytes long; Launchpad takes less than 200"
        )
    return secret


def sign(body: bytes, secret: str | bytes) -> str:
    """The ``X-Hub-Signature`` value Launchpad sends for ``body`` with ``secret``."""
    digest = hmac.new(secret_bytes(secret), raw_body(body), hashlib.sha1).hexdigest()
    return f"sha1={digest}"


def header_map(headers: Headers) -> dict[str, str]:
    """Header name (lower case) -> value, from any of the shapes `Headers` names."""
    if isinstance(headers, Mapping):
        if "wsgi.version" in headers or "REQUEST_METHOD" in headers:
            return _from_environ(headers)
        items: Iterable[Any] = headers.items()
    else:
        items = headers
    found: dict[str, str] = {}
    for name, value in items:
        key = name.decode("latin-1") if isinstance(name, bytes) else str(name)
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        found.setdefault(key.lower(), text)
    return found


def _from_environ(environ: Mapping[str, Any]) -> dict[str, str]:
    """A WSGI environ's (or Django's ``request.META``) headers, by their HTTP names."""
    found = {
        key[5:].replace("_", "-").lower(): str(value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    }
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            found[key.replace("_", "-").lower()] = str(environ[key])
    return found


def verify(body: bytes, headers: Headers, secret: str | bytes) -> None:
    """Return if ``X-Hub-Signature`` signs ``body`` with ``secret``; else raise, naming why."""
    data = raw_body(body)
    key = secret_bytes(secret)
    given = header_map(headers).get(SIGNATURE_HEADER, "").strip()
    if not given:
        raise SignatureMissing(
            "the delivery has no X-Hub-Signature header: the webhook has no secret on "
            "Launchpad (set one with webhook.setSecret()), a proxy removed the header, "
            "or the request did not come from Launchpad"
        )
    found = _SIGNATURE.fullmatch(given)
    if found is None:
        raise SignatureMismatch(
            "the X-Hub-Signature header is not 'sha1=' and 40 hex digits, as Launchpad "
            "sends it: the request did not come from Launchpad"
        )
    expected = hmac.new(key, data, hashlib.sha1).hexdigest()
    if not hmac.compare_digest(expected, found.group(1).lower()):
        raise SignatureMismatch(
            f"X-Hub-Signature does not match the {len(data)}-byte body: the secret differs "
            "from the webhook's (check webhook.setSecret()), the body was changed on the "
            "way (a proxy, or a framework that parsed and re-serialised or re-encoded it: "
            "verify the raw bytes as received), or the delivery is forged"
        )
