"""How many requests one walk may send: a few per page it has moved forward by.

A walk asks again when the results move (`wadlclient.objects.steady`),
and follows the next links a server gives; a server that never settles,
or whose next link keeps naming the same offset between the walk's
re-reads, could keep it asking forever without the walk ever going
further. So every request of a walk is counted, on whatever thread it
is sent, against what the walk has delivered: the pages by which its
place moved past the furthest offset it had reached. Past `PER_PAGE`
requests a page, plus `SLACK` and the walk's look-ahead, the walk ends
with one `ResponseError` naming the collection.

An honest walk never comes near it: over results that do not change it
sends one request a page, and over results that change under it, a
re-read of a page or two now and then.
"""

from __future__ import annotations

import threading

from wadlclient.errors import ResponseError
from wadlclient.objects.paging import Page, WalkPlan

__all__ = ["PER_PAGE", "SLACK", "WalkBudget"]

#: Requests a walk may send for each page it moved forward by.
PER_PAGE = 2
#: Requests a walk may send beyond that (re-reads when the results moved at its start).
SLACK = 32


class WalkBudget:
    """The requests one walk has sent, and the pages it has moved forward by. Thread-safe."""

    __slots__ = ("_furthest", "_lock", "_name", "_pages", "_requests", "_slack")

    def __init__(self, plan: WalkPlan) -> None:
        self._name = plan.name
        self._slack = SLACK + max(plan.depth, 0)
        self._lock = threading.Lock()
        self._requests = 0
        self._pages = 0
        self._furthest = -1

    def spend(self) -> None:
        """Count one request about to be sent, or end the walk if it has sent too many."""
        with self._lock:
            self._requests += 1
            requests, pages = self._requests, self._pages
        if requests > PER_PAGE * pages + self._slack:
            raise ResponseError(
                f"the walk over {self._name} sent {requests - 1} requests for {pages} "
                "pages: its server keeps sending it back over the same pages"
            )

    def reached(self, page: Page) -> None:
        """Count ``page`` as delivered if its next link goes past every offset reached so far.

        A next link without an offset counts (the walk follows those once
        each, `PageGuard`); a page without a next link does not: it ends
        the walk, unless the server contradicts it on the next request.
        """
        if page.next is None:
            return
        after = page.next_start
        with self._lock:
            if after is None:
                self._pages += 1
            elif after > self._furthest:
                self._furthest = after
                self._pages += 1
