"""The cache a program's environment names: ``WADLCLIENT_CACHE``, for fleets that cannot pass one.

launchpadlib's ``login_with`` and ``Launchpad(...)`` take a cache
*directory*, so a fleet of launchpadlib programs could never share a
Redis cache; the compatibility layer reads this variable instead. Its
value is a Redis URL (``redis://host:6379/0``, ``rediss://`` for TLS,
``unix:///path/redis.sock``) or a directory path (``~`` and
``$VARIABLES`` expanded). It is checked here, without importing the
redis client, so that a bad value is one `CacheError` line naming the
variable, never a password from it.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping

from wadlclient.cache.locations import looks_like_url, shown
from wadlclient.cache.redis_store import is_redis_url
from wadlclient.errors import CacheError

__all__ = ["CACHE_VARIABLE", "cache_from_environment"]

#: The environment variable read for the cache.
CACHE_VARIABLE = "WADLCLIENT_CACHE"

_EXPECTED = "give redis://host:port/db, rediss://..., unix:///path or a directory path"


def cache_from_environment(
    variable: str = CACHE_VARIABLE, environ: Mapping[str, str] | None = None
) -> str | None:
    """The Redis URL or directory the variable names, checked; None when unset or blank.

    Raises `CacheError` (one line, no password) for a URL of another
    scheme, a Redis URL without a host or with a bad port or database, or
    a path that exists and is not a directory.
    """
    value = (os.environ if environ is None else environ).get(variable, "").strip()
    if not value:
        return None
    if looks_like_url(value):
        _check_url(value, variable)
        return value
    path = os.path.expandvars(os.path.expanduser(value))
    if os.path.exists(path) and not os.path.isdir(path):
        raise CacheError(f"${variable} names {path}, which is not a directory ({_EXPECTED})")
    return path


def _check_url(value: str, variable: str) -> None:
    parts = urllib.parse.urlsplit(value)
    # No user name, password or query (redis-py reads ?password= too) in the message.
    safe = shown(value)
    if not is_redis_url(value):
        raise CacheError(f"${variable} is {safe!r}: not a Redis URL ({_EXPECTED})")
    if parts.scheme.lower() == "unix":
        problem = "" if parts.path.strip("/") else "no socket path"
    else:
        problem = _redis_url_problem(parts)
    if problem:
        raise CacheError(f"${variable} is {safe!r}: {problem} ({_EXPECTED})")


def _redis_url_problem(parts: urllib.parse.SplitResult) -> str:
    """What is wrong with a redis:// or rediss:// URL ("" when nothing is)."""
    try:
        parts.port  # noqa: B018 (a port that is not a number raises)
    except ValueError:
        return "the port is not a number from 0 to 65535"
    if not parts.hostname:
        return "no host"
    database = parts.path.strip("/")
    if database and not (database.isascii() and database.isdigit()):
        return f"the database {database!r} is not a number"
    return ""
