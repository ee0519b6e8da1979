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
    """One counting semaphore per origin, made on first use; thread-safe."""

    __slots__ = ("_lock", "_slots", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = check_max_in_flight(limit)
        self._slots: dict[Hashable, threading.Semaphore] = {}
        self._lock = threading.Lock()

    def _slot(self, origin: Hashable) -> threading.Semaphore:
        slot = self._slots.get(origin)
        if slot is None:
            with self._lock:
                slot = self._slots.setdefault(origin, threading.Semaphore(self.limit))
        return slot

    def take(self, origin: Hashable) -> None:
        """Wait for a free slot of ``origin`` and take it."""
        self._slot(origin).acquire()

    def try_take(self, origin: Hashable) -> bool:
        """Take a slot of ``origin`` if one is free now; whether one was."""
        return self._slot(origin).acquire(blocking=False)

    def give(self, origin: Hashable) -> None:
        """Give back a slot `take` or `try_take` took."""
        self._slot(origin).release()
