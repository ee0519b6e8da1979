"""Connection pools made fork-safe: a forked child starts with none of its parent's connections.

A child made by ``fork`` (multiprocessing's default start method on Linux)
inherits its parent's sockets: two processes writing requests on one
keep-alive connection read each other's answers (requests #4323). Every
pool registered here drops, in the child, the connections and locks it
inherited, without closing them (they are still the parent's), and opens
its own on its next request.
"""

from __future__ import annotations

import os
import weakref
from typing import Protocol

__all__ = ["reset_after_fork"]


class ForkAware(Protocol):
    def _after_fork(self) -> None:
        """Forget the connections and locks inherited from the parent."""


_pools: weakref.WeakSet[ForkAware] = weakref.WeakSet()


def reset_after_fork(pool: ForkAware) -> None:
    """Have ``pool._after_fork()`` called in every child forked from now on."""
    _pools.add(pool)


def _in_child() -> None:
    for pool in list(_pools):
        pool._after_fork()


os.register_at_fork(after_in_child=_in_child)
