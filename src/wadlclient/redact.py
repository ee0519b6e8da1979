"""What may be shown of a URL: the one rule of what looks like a secret, for logs and errors.

A URL reaches DEBUG lines, error messages and reprs as the client sent
it, and a URL may carry a secret: a password in its user information, or a
capability in its query (Launchpad's ``temporary_blobs.fetch(token=...)``
is a GET). `shown_url` hides both; `secret_name` is the rule of which
names hold secrets, which the testing kit's recorder applies too.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import unquote_plus

__all__ = ["HIDDEN", "secret_name", "shown_url"]

#: What stands in a shown URL for a value it hides.
HIDDEN = "<hidden>"
_ENDINGS = ("password", "passwd", "passphrase", "secret", "token", "key", "signature", "verifier")
_ANYWHERE = ("password", "passwd", "secret")
# Compiled on first use: ``import wadlclient`` imports this module, and most runs never ask.
_PATTERNS = {
    "words": r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+",
    "query_pair": r"(?<=[?&;])([^=&;#]+)=([^&;#]*)",
    "userinfo": r"^([a-zA-Z][\w+.-]*://[^/@?#:]*):[^/@?#]*@",
    "not_alphanumeric": r"[^a-z0-9]",
}


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[name])


@functools.lru_cache(maxsize=4096)  # a recording asks of the same few names again and again
def secret_name(name: str) -> bool:
    """Whether a field, parameter or header called ``name`` holds a secret.

    Its last word (``client_secret``, ``x-api-key``, ``apiKey``,
    ``oauth_token``, ``Password``) ends in a secret's word, or the name
    holds ``password``, ``passwd`` or ``secret`` anywhere. A lazr link
    (``..._link``) is a URL, never a secret itself; ``keys`` and
    ``tokens`` name collections, not secrets.
    """
    lowered = name.lower()
    if lowered.endswith("_link"):
        return False
    squashed = _pattern("not_alphanumeric").sub("", lowered)
    if any(word in squashed for word in _ANYWHERE):
        return True
    words = _pattern("words").findall(name)
    return bool(words) and words[-1].lower().endswith(_ENDINGS)


def shown_url(url: str) -> str:
    """``url`` with its password and the values of query parameters named like secrets hidden."""
    if "@" in url:
        url = _pattern("userinfo").sub(lambda m: f"{m.group(1)}:{HIDDEN}@", url, count=1)
    if "?" in url and "=" in url:
        url = _pattern("query_pair").sub(_shown_pair, url)
    return url


def _shown_pair(match: re.Match[str]) -> str:
    name = match.group(1)
    return f"{name}={HIDDEN}" if secret_name(unquote_plus(name)) else match.group(0)
