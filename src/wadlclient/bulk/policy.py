"""`BulkPolicy`: how many requests a bulk change keeps in flight, and what it tries again.

An immutable value, like `wadlclient.Retry`: a script builds one (or
takes the default) and passes it to `wadlclient.bulk.update` or
`wadlclient.bulk.call`.
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

from wadlclient.http.retry import retry_after_seconds

__all__ = ["DEFAULT_POLICY", "RESEND_STATUSES", "BulkPolicy"]

#: Answers to a save that say "not now" (too many requests, a bad or busy gateway, a busy
#: server): the save is sent again once a fresh read shows that it did not act.
RESEND_STATUSES = frozenset({429, 502, 503, 504})


class BulkPolicy(NamedTuple):
    """The two lanes of a bulk change and its bounds; every field has a polite default.

    ``writes``: saves (PATCH) and named operations in flight at most, the
    *write lane* (4). ``min_interval``: seconds between the starts of two
    writes, for a server that asks for a pace (0: none). ``reads``: items
    worked on at once, each starting with a fresh read (8); reads wait
    for no write. ``conflicts``: times an item's change is read again and
    applied again after a 412 (someone changed the entry since it was
    read) before the item is reported failed (3). ``resends``: times a
    save that met one of ``statuses`` or a transient transport failure is
    sent again (3), each only once a fresh read shows that it did not act,
    after a backoff of up to ``backoff_base`` seconds doubling to at most
    ``backoff_max``, jittered, or the server's ``Retry-After`` (capped at
    ``backoff_max``).
    """

    writes: int = 4
    min_interval: float = 0.0
    reads: int = 8
    conflicts: int = 3
    resends: int = 3
    statuses: frozenset[int] = RESEND_STATUSES
    backoff_base: float = 0.5
    backoff_max: float = 30.0

    def check(self) -> BulkPolicy:
        """The policy itself, or a `ValueError` naming the field that cannot be."""
        if self.writes < 1 or self.reads < 1:
            raise ValueError("a bulk policy needs at least 1 write and 1 read in flight")
        if self.min_interval < 0 or self.backoff_base < 0 or self.backoff_max < 0:
            raise ValueError("a bulk policy's intervals and backoffs cannot be negative")
        if self.conflicts < 0 or self.resends < 0:
            raise ValueError("a bulk policy's conflicts and resends cannot be negative")
        return self

    def backoff(self, resend: int, retry_after: str | None = None) -> float:
        """Seconds to wait before resend number ``resend`` (from 1): the server's, or jittered."""
        asked = retry_after_seconds(retry_after, time.time())
        if asked is not None:
            return min(asked, self.backoff_max)
        return random.uniform(0.0, min(self.backoff_base * 2 ** (resend - 1), self.backoff_max))



DEFAULT_POLICY = BulkPolicy()
