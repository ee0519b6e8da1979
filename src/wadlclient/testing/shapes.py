"""Launchpad's URL shapes as the fake uses them: the facts, and web addresses made from them.

The shapes themselves (where Launchpad keeps ``~ada``, ``~ada/+snap/frob``,
``ubuntu/+archive/primary``...) are Launchpad facts the WADL does not carry,
kept with their provenance in `wadlclient.facts.launchpad_urls` and re-exported
here. A fake of a Launchpad WADL uses them unless told otherwise, so code
that builds a URL, or a key lookup (``lp.people["ada"]``), reaches the entry
there as it would on Launchpad.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from wadlclient.facts.launchpad_urls import (
    LAUNCHPAD_COLLECTIONS,
    LAUNCHPAD_HOSTS,
    LAUNCHPAD_PATHS,
    LAUNCHPAD_ROOT_LINKS,
    LAUNCHPAD_SITES,
    is_launchpad,
)
from wadlclient.testing.paths import quote_path

__all__ = [
    "LAUNCHPAD_COLLECTIONS",
    "LAUNCHPAD_HOSTS",
    "LAUNCHPAD_PATHS",
    "LAUNCHPAD_ROOT_LINKS",
    "is_launchpad",
    "web_link_maker",
]

_SITE_OF = {type_id: site for site, types in LAUNCHPAD_SITES.items() for type_id in types}


def web_link_maker(published_base: str) -> Callable[[str, str], str]:
    """``web_link(type_id, path)``: the entry's web page, as Launchpad gives it
    (``https://launchpad.net/~ada``, ``https://bugs.launchpad.net/bugs/1``): the API
    host without ``api.``, on the site of the entry's kind."""
    split = urlsplit(published_base)
    host = (split.netloc or "").removeprefix("api.")

    def web_link(type_id: str, path: str) -> str:
        site = _SITE_OF.get(type_id)
        where = f"{site}.{host}" if site else host
        return f"{split.scheme}://{where}/{quote_path(path)}"

    return web_link
