"""A request budget shared beyond this process: what the transport asks before each attempt.

A fleet of workers (`wadlclient.fleet`) must be as polite to a service as
one careful script: a rate and a number of requests in flight held across
every process and machine. The transport cannot know where such a budget
lives (Redis, for the fleet) and may not import the layer that does, so it
asks through this small `Budget` protocol, as it asks the cache through
`cache_policy.Cache`.

Every attempt on the wire (a retry and a redirect's next hop too) spends
one request of the budget before it is written; a request whose answer is
read whole (`Sender.send`, `StartingSender.start`) also holds one slot in
flight until then. A streamed answer (a hosted file) spends a request but
holds no slot, as the connection pool's own limit (`limits`) has it.

A thread that holds slots for requests it started (a service root sends
its WADL request while its JSON is on the way) does not wait for another:
its next request goes without one, as the pool's own limit has it, so no
thread ever waits for a slot it holds itself: a root that opens may have
one request more in flight than the budget, for the moment it starts.

A transport uses the budget it is given, else the one `use_budget`
installed for the whole process (a fleet's worker installs one when it
starts), else none: then only this process's limits hold (`limits`).
"""

from __future__ import annotations

import threading
from typing import Protocol

from wadlclient.http.models import Response
from wadlclient.http.sender import Exchange
from wadlclient.http.urls import Origin

__all__ = ["Budget", "Lease", "budget_in_use", "holds_started", "leased", "use_budget"]


class Lease(Protocol):
    """One request's share of a budget: a slot in flight, if it took one."""

    def give(self) -> None:
        """Give the slot back (at once; the budget also takes it back when the lease runs out)."""
        ...


class Budget(Protocol):
    """Requests per second and requests in flight, per origin, however many processes share it."""

    def take(self, origin: Origin, *, slot: bool, until: float | None) -> Lease:
        """Wait for the budget to allow one more request to ``origin``, and spend it.

        ``slot``: also hold one of the requests in flight until `Lease.give`.
        ``until``: the call's deadline (``time.monotonic()``); past it, a
        `wadlclient.errors.TransportTimeout` saying the budget was waited for.
        """
        ...


_lock = threading.Lock()
_installed: Budget | None = None
#: Thread ident -> slots it holds for requests it started whose answers are not read yet.
_started: dict[int, int] = {}


def use_budget(budget: Budget | None) -> Budget | None:
    """Make ``budget`` the one every transport of this process asks (None: none); the last one."""
    global _installed
    with _lock:
        last, _installed = _installed, budget
    return last


def budget_in_use() -> Budget | None:
    """The budget `use_budget` installed for this process, or None."""
    return _installed


def holds_started() -> bool:
    """Whether this thread holds slots for requests it started (its next goes without one)."""
    return _started.get(threading.get_ident(), 0) > 0


class _LeasedExchange:
    """A started exchange that holds a slot of the budget until its answer is read or given up."""

    def __init__(self, exchange: Exchange, lease: Lease) -> None:
        self._exchange = exchange
        self._lease: Lease | None = lease
        self._starter = threading.get_ident()
        with _lock:
            _started[self._starter] = _started.get(self._starter, 0) + 1

    def _give(self) -> None:
        lease, self._lease = self._lease, None
        if lease is None:
            return
        with _lock:
            left = _started.get(self._starter, 0) - 1
            if left > 0:
                _started[self._starter] = left
            else:
                _started.pop(self._starter, None)
        lease.give()

    def result(self) -> Response:
        try:
            return self._exchange.result()
        finally:
            self._give()

    def discard(self) -> None:
        try:
            self._exchange.discard()
        finally:
            self._give()


def leased(exchange: Exchange, lease: Lease) -> Exchange:
    """``exchange``, giving ``lease`` back once its answer is read or discarded."""
    return _LeasedExchange(exchange, lease)
