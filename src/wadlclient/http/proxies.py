"""Proxies from the environment, by the rules curl, requests and `urllib.request` share.

``HTTP_PROXY``, ``HTTPS_PROXY`` and ``ALL_PROXY`` (either case, the lower
case winning) are read when a sender is made; ``NO_PROXY`` is applied when an
origin is first routed. Read here rather than through `urllib.request`,
whose import would be most of the cost of importing the transport.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping

from wadlclient.http.urls import Origin

__all__ = ["environment_proxies", "proxy_for"]

_SCHEMES = ("http", "https", "all")


def _environment(name: str) -> str:
    """``name`` from the environment, lower case first; upper-case HTTP_PROXY not under CGI."""
    value = os.environ.get(name)
    if value is None and not (name == "http_proxy" and "REQUEST_METHOD" in os.environ):
        value = os.environ.get(name.upper())
    return (value or "").strip()


def environment_proxies() -> dict[str, str]:
    """The proxy URL for each scheme the environment names (``HTTP_PROXY``, ``ALL_PROXY``, ...)."""
    found: dict[str, str] = {}
    for scheme in _SCHEMES:
        url = _environment(f"{scheme}_proxy")
        if url:
            found[scheme] = url if "://" in url else f"http://{url}"
    return found


def _bypassed(host: str, port: int, no_proxy: str) -> bool:
    """Whether ``NO_PROXY`` names this host: ``*``, a domain suffix, an address or a network."""
    host = host.strip("[]").lower().rstrip(".")
    for entry in (item.strip().lower() for item in no_proxy.split(",")):
        if not entry:
            continue
        if entry == "*":
            return True
        name, _, wanted_port = entry.rpartition(":") if _has_port(entry) else (entry, "", "")
        if wanted_port and wanted_port != str(port):
            continue
        name = name.strip("[]").lstrip(".").rstrip(".")
        if host == name or host.endswith("." + name) or _in_network(host, name):
            return True
    return False


def _has_port(entry: str) -> bool:
    """Whether a ``NO_PROXY`` entry ends in ``:port`` (an IPv6 address alone does not)."""
    head, colon, tail = entry.rpartition(":")
    is_port = tail.isascii() and tail.isdigit()  # not "²", which str.isdigit() accepts
    return bool(colon) and is_port and (head.endswith("]") or ":" not in head)


def _in_network(host: str, entry: str) -> bool:
    """Whether ``host`` is an address inside ``entry`` written as an address or a network."""
    try:
        return ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False


def proxy_for(proxies: Mapping[str, str], origin: Origin) -> str | None:
    """The proxy URL for an origin, or None when ``NO_PROXY`` (or nothing) says direct."""
    scheme, host, port = origin
    proxy = proxies.get(scheme) or proxies.get("all")
    if proxy is None or _bypassed(host, port, _environment("no_proxy")):
        return None
    return proxy
