"""Proxies from the environment, by `urllib.request`'s rules.

``HTTP_PROXY``, ``HTTPS_PROXY`` and ``ALL_PROXY`` (any case) are read when a
sender is made; ``NO_PROXY`` is applied by `urllib.request.proxy_bypass`
when an origin is first routed.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Mapping

from wadlclient.http.urls import Origin

__all__ = ["environment_proxies", "proxy_for"]


def environment_proxies() -> dict[str, str]:
    """Proxies as `urllib.request.getproxies` reads them (``HTTP_PROXY``, ``ALL_PROXY``, ...)."""
    return {
        scheme: url if "://" in url else f"http://{url}"
        for scheme, url in urllib.request.getproxies().items()
        if scheme in ("http", "https", "all") and url
    }


def proxy_for(proxies: Mapping[str, str], origin: Origin) -> str | None:
    """The proxy URL for an origin, or None when ``NO_PROXY`` (or nothing) says direct."""
    scheme, host, port = origin
    proxy = proxies.get(scheme) or proxies.get("all")
    if proxy is None or urllib.request.proxy_bypass(f"{host}:{port}"):
        return None
    return proxy
