"""What a ``cache=`` string names: a Redis URL or a directory, never a URL of another kind.

``memcached://host:11211``, ``http://...`` or a mistyped ``redis:/host``
would otherwise be taken for a relative directory and created quietly;
they are refused, in one line that names the URLs that work and shows no
password. A string is taken for a URL when it starts with a scheme of two
characters or more followed by ``:/`` (so ``C:/cache`` is still a path),
or with a Redis scheme and a colon.
"""

from __future__ import annotations

import os
import re

from wadlclient.cache.redis_store import REDIS_SCHEMES, is_redis_url
from wadlclient.errors import CacheError

__all__ = ["CACHE_URLS", "check_location", "looks_like_url", "shown"]

#: The URLs a cache may be, as error messages name them.
CACHE_URLS = "redis://host:port/db, rediss://host:port/db (TLS) or unix:///path/to/redis.sock"

# Patterns, compiled by `re` when first used: most starts name no cache location.
_SCHEME = r"([A-Za-z][A-Za-z0-9+.\-]+):"
_USER_INFO = r"(//)[^/?#@]*@"


def looks_like_url(value: str) -> bool:
    """Whether ``value`` is written as a URL (of any scheme) rather than a path."""
    match = re.match(_SCHEME, value)
    if match is None:
        return False
    return value[match.end() :].startswith("/") or match.group(1).lower() in REDIS_SCHEMES


def shown(value: str) -> str:
    """``value`` fit for a message: no user name or password, no query."""
    return re.sub(_USER_INFO, r"\1", value).partition("?")[0]


def check_location(value: str | bytes) -> None:
    """Refuse a ``cache`` string written as a URL that is not a Redis one (`CacheError`)."""
    text = os.fsdecode(value) if isinstance(value, bytes) else value
    if looks_like_url(text) and not is_redis_url(text):
        raise CacheError(
            f"cache {shown(text)!r} is neither a Redis URL nor a directory: "
            f"give a directory path, or {CACHE_URLS}"
        )
