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

import threading
from collections.abc import Callable
from types import TracebackType

__all__ = ["AddressRewrite", "rewrite_service_addresses", "rewritten_address"]

#: ``rewrite(url)``: another versioned root URL for ``url``, or None to leave it.
AddressRewrite = Callable[[str], "str | None"]

_entered: list[rewrite_service_addresses] = []
_lock = threading.Lock()


class rewrite_service_addresses:
    """Within the ``with`` block, every new `ServiceRoot` asks ``rewrite`` for its address."""

    def __init__(self, rewrite: AddressRewrite) -> None:
        self._rewrite = rewrite

    def __enter__(self) -> AddressRewrite:
        with _lock:
            _entered.append(self)
        return self._rewrite

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with _lock:
            _entered[:] = [entered for entered in _entered if entered is not self]


def rewritten_address(url: str) -> str:
    """``url`` as the rewrites in force have it (the latest entered first); itself if none."""
    if not _entered:
        return url
    with _lock:
        entered = list(reversed(_entered))
    for each in entered:
        replaced = each._rewrite(url)
        if replaced is not None:
            return replaced
    return url
