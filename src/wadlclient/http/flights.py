"""Identical GETs in flight are sent once: the first asker sends, the others share its answer.

Two threads reading the same entry, a prefetch and a reader, or a service
root's early JSON request and a later read of the same URL all want the
same representation at the same time. A `Flight` is one such request:
whoever asks for its answer first reads it (sending it if it was not sent
yet); everyone else waits for that and gets the same answer or the same
error. A flight leaves `Flights` once answered, so a later request goes
through the cache and the wire as usual.

Only plain GETs coalesce: no body, no header of the caller's own (a
conditional header means the caller wants its own 304), redirects
followed, through the same transport (and so the same credentials).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from wadlclient.http.models import HTTPResponse

__all__ = ["Flight", "Flights"]


class Flight:
    """One request's answer, read once by whoever asks first, shared with every other asker."""

    __slots__ = ("_answer", "_error", "_finish", "_lock", "joined", "key", "on_landed")

    def __init__(
        self,
        key: Hashable,
        finish: Callable[[], HTTPResponse],
        on_landed: Callable[[Flight], None],
    ) -> None:
        self.key = key
        self._finish: Callable[[], HTTPResponse] | None = finish
        self._answer: HTTPResponse | None = None
        self._error: BaseException | None = None
        self._lock = threading.Lock()
        #: Askers beyond the one who started the flight.
        self.joined = 0
        self.on_landed = on_landed

    def result(self) -> HTTPResponse:
        """The answer: read now by the first asker, waited for by the others."""
        with self._lock:
            finish, self._finish = self._finish, None
            if finish is not None:
                try:
                    self._answer = finish()
                except BaseException as error:
                    self._error = error
                finally:
                    self.on_landed(self)
        if self._error is not None:
            raise self._error
        assert self._answer is not None
        return self._answer

    def abandon(self) -> bool:
        """Give up an answer nobody has read or joined for; False when someone did."""
        with self._lock:
            if self._finish is None or self.joined:
                return False
            self._finish = None
            self.on_landed(self)
            return True


class Flights:
    """The flights of one transport, by key; thread-safe."""

    __slots__ = ("_by_key", "_lock")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[Hashable, Flight] = {}

    def join(
        self, key: Hashable, start: Callable[[], Callable[[], HTTPResponse]]
    ) -> tuple[Flight, bool]:
        """``(flight, started)``: the flight in the air under ``key``, joined, else a new one.

        ``start`` is called only for a new flight (it may put the request on
        the wire) and returns what reads its answer.
        """
        with self._lock:
            flight = self._by_key.get(key)
            if flight is not None:
                flight.joined += 1
                return flight, False
            flight = Flight(key, start(), self.land)
            self._by_key[key] = flight
            return flight, True

    def land(self, flight: Flight) -> None:
        """Forget an answered (or abandoned) flight: later requests are sent anew."""
        with self._lock:
            if self._by_key.get(flight.key) is flight:
                del self._by_key[flight.key]

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_key)
