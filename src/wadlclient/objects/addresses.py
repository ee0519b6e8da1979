"""Service-address rewrites: where a `ServiceRoot` made for one address really goes.

A test points code that names ``https://api.launchpad.net/`` at a fake
without changing it: ``with rewrite_service_addresses(rewrite): ...``
makes every root started in the block (native, typed, or lazr.restfulclient's
on wadlclient) ask ``rewrite(url)`` for its versioned root URL first; a
URL it answers replaces the one given, None leaves it. The testing kit's
`wadlclient.testing.routed_to` is built on it. Rewrites apply to the whole
process (the code under test may start a root in any thread); the latest
one entered is asked first.
"""

from __future__ import annotations

from collections.abc import Callable

from wadlclient.in_force import HookInForce

__all__ = ["AddressRewrite", "rewrite_service_addresses", "rewritten_address"]

#: ``rewrite(url)``: another versioned root URL for ``url``, or None to leave it.
AddressRewrite = Callable[[str], "str | None"]


class rewrite_service_addresses(HookInForce[AddressRewrite]):
    """Within the ``with`` block, every new `ServiceRoot` asks ``rewrite`` for its address."""


def rewritten_address(url: str) -> str:
    """``url`` as the rewrites in force have it (the latest entered first); itself if none."""
    for rewrite in rewrite_service_addresses.in_force():
        replaced = rewrite(url)
        if replaced is not None:
            return replaced
    return url
