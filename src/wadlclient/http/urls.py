"""Absolute URLs taken apart once for the wire: origin, ``Host`` and request target."""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
import functools
import urllib.parse
from typing import NamedTuple

from wadlclient.cache.names import idna_authority

__all__ = ["DEFAULT_PORTS", "Origin", "Target", "join", "parse_url"]

#: Scheme, host and port (default port filled in): what a redirect may not leave.
Origin = tuple[str, str, int]

DEFAULT_PORTS = {"http": 80, "https": 443}

# RFC 3986's reserved and sub-delimiter characters stay as they are; so does
# an existing percent escape. Anything else (a space, non-ASCII) is escaped.
_SAFE_IN_PATH = "!$&'()*+,;=:@/%"
_SAFE_IN_QUERY = _SAFE_IN_PATH + "?"


class Target(NamedTuple):
    """Where a request goes and what its request line and ``Host`` header say."""

    scheme: str
    host: str  # lower-cased, IDNA-encoded, without brackets
    port: int  # the default port filled in
    host_header: str  # host, and the port when not the scheme's default
    path: str  # the origin-form request target: path and query, escaped

    @property
    def origin(self) -> Origin:
        return self.scheme, self.host, self.port

    @property
    def absolute(self) -> str:
        """The absolute-form request target, as a plain HTTP proxy is sent it."""
        return f"{self.scheme}://{self.host_header}{self.path}"


def parse_url(url: str) -> Target | None:
    """The target of an absolute http(s) URL, or None for anything else.

    The part before the query is remembered; a query is escaped each time,
    since URLs with one (collection pages) are new with every request and a
    memo of them would only grow during a long walk. The target is built
    anew, not with ``_replace``: each ``_replace`` leaves a spare tuple in
    CPython's free lists, so a long walk's peak allocations would grow too.
    """
    base, mark, query = url.partition("?")
    if not mark:
        return _parse_base(url)
    query = query.partition("#")[0]
    target = _parse_base(base)
    if target is None or not query:
        return target
    path = target.path + "?" + urllib.parse.quote(query, safe=_SAFE_IN_QUERY)
    return Target(target.scheme, target.host, target.port, target.host_header, path)


@functools.lru_cache(maxsize=256)
def _parse_base(url: str) -> Target | None:
    """`parse_url` of a URL without a query (remembered)."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # an unbalanced "[" (an IPv6 host cut short)
        return None
    scheme = parts.scheme.lower()
    default_port = DEFAULT_PORTS.get(scheme)
    if default_port is None or not parts.hostname:
        return None
    try:
        port = parts.port if parts.port is not None else default_port
    except ValueError:  # a port out of range or not a number
        return None
    host = idna_authority(parts.hostname)
    shown = f"[{host}]" if ":" in host else host
    host_header = shown if port == default_port else f"{shown}:{port}"
    path = urllib.parse.quote(parts.path or "/", safe=_SAFE_IN_PATH)
    return Target(scheme, host, port, host_header, path)


def join(url: str, location: str) -> str:
    """The absolute URL a ``Location`` (maybe relative) names, seen from ``url``."""
    return urllib.parse.urljoin(url, location.strip())
