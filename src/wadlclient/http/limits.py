"""At most so many requests in flight per origin: the client's manners towards a server.

Everything one service root sends goes through its connection pool: the
pages a walk asks for ahead, `prefetch`'s workers, the look-ahead's, and
the program's own threads. The pool takes a slot of the request's origin
(scheme, host, port) before writing a request and gives it back once the
answer is read whole, so all of them together keep at most ``limit``
requests in flight there; the others wait their turn, nothing fails.

``max_in_flight`` (`ServiceRoot`, `ConnectionPool`) sets the limit; the
environment's ``WADLCLIENT_MAX_IN_FLIGHT`` does for the roots that do not
(launchpadlib's), and 8 when it is unset. A streamed answer (a hosted
file read as it arrives) takes no slot: the program decides how long it
stays open, and a slot it kept would stop every other request.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Hashable

__all__ = [
    "DEFAULT_MAX_IN_FLIGHT",
    "MAX_IN_FLIGHT_VARIABLE",
    "InFlight",
    "check_max_in_flight",
    "max_in_flight_from_env",
]

#: Requests in flight per origin when neither the root nor the environment says.
DEFAULT_MAX_IN_FLIGHT = 8
#: The environment variable that sets the limit for roots that do not.
MAX_IN_FLIGHT_VARIABLE = "WADLCLIENT_MAX_IN_FLIGHT"


def check_max_in_flight(value: object) -> int:
    """``value`` if it is a whole number of requests, 1 or more; else a clear ValueError."""
    if type(value) is not int or value < 1:
        raise ValueError(f"max_in_flight must be a whole number, 1 or more, not {value!r}")
    return value


def max_in_flight_from_env() -> int:
    """``WADLCLIENT_MAX_IN_FLIGHT`` as a number of requests (`DEFAULT_MAX_IN_FLIGHT` when unset)."""
    value = os.environ.get(MAX_IN_FLIGHT_VARIABLE, "").strip()
    if not value:
        return DEFAULT_MAX_IN_FLIGHT
    if not value.isdigit() or int(value) < 1:
        raise ValueError(
            f"{MAX_IN_FLIGHT_VARIABLE} must be a whole number of requests, 1 or more, not {value!r}"
        )
    return int(value)


class InFlight:
    """One counting semaphore per origin, made on first use; thread-safe.

    A request started early (`try_start`: written now, its answer read
    later) keeps its slot until read. Its thread may send another request
    before reading it (a service root sends its WADL request while its JSON
    is on the way): that one does not wait for a slot when none is free, so
    that no thread ever waits for a slot it holds itself. Such a thread may
    so have one request more in flight than the limit, while it starts up.
    """

    __slots__ = ("_lock", "_slots", "_started", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = check_max_in_flight(limit)
        self._slots: dict[Hashable, threading.Semaphore] = {}
        #: (thread ident, origin) -> slots held for requests that thread started.
        self._started: dict[tuple[int, Hashable], int] = {}
        self._lock = threading.Lock()

    def _slot(self, origin: Hashable) -> threading.Semaphore:
        slot = self._slots.get(origin)
        if slot is None:
            with self._lock:
                slot = self._slots.setdefault(origin, threading.Semaphore(self.limit))
        return slot

    def take(self, origin: Hashable) -> bool:
        """Wait for a free slot of ``origin`` and take it: True (`give` it back).

        False, at once, when none is free and this thread holds slots of
        ``origin`` for requests it started: it goes without one.
        """
        slot = self._slot(origin)
        if slot.acquire(blocking=False):
            return True
        with self._lock:
            if self._started.get((threading.get_ident(), origin)):
                return False
        slot.acquire()
        return True

    def try_start(self, origin: Hashable) -> int | None:
        """Take a slot of ``origin`` for a request started now, if one is free.

        Returns the starter (this thread's ident, for `give_started`), or None.
        """
        if not self._slot(origin).acquire(blocking=False):
            return None
        starter = threading.get_ident()
        with self._lock:
            key = (starter, origin)
            self._started[key] = self._started.get(key, 0) + 1
        return starter

    def give(self, origin: Hashable) -> None:
        """Give back a slot `take` took."""
        self._slot(origin).release()

    def give_started(self, origin: Hashable, starter: int) -> None:
        """Give back a slot `try_start` took (from any thread)."""
        with self._lock:
            key = (starter, origin)
            left = self._started.get(key, 0) - 1
            if left > 0:
                self._started[key] = left
            else:
                self._started.pop(key, None)
        self._slot(origin).release()
