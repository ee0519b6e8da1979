"""When to send a request again, and how long to wait first: an immutable policy value.

Every change to the retry rules is a change to `Retry` (its defaults, or
`Retry.increment`); the transport only asks it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import NamedTuple

from wadlclient.errors import ConnectionDropped, TransportError
from wadlclient.headers import parse_http_date
from wadlclient.http.models import Response

__all__ = ["RETRY_METHODS", "SAFE_METHODS", "Retry", "RetryExhausted", "full_jitter"]

#: Methods whose dropped request may be resent: the server did nothing it should not repeat.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Methods retried after a 502/503 by default: sending them twice does no more than once.
RETRY_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


def full_jitter(backoff: float) -> float:
    """A wait drawn evenly from 0 to ``backoff``: clients told to wait do not return together."""
    return random.uniform(0.0, backoff)


class RetryExhausted(Exception):
    """No retry is left for this answer: the transport returns ``response`` as it is."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


class Retry(NamedTuple):
    """The retry state of one request: `increment` returns the next state, `sleep` waits.

    - ``statuses`` (502, 503) are retried for the idempotent ``methods``
      only (a POST or PATCH may have acted: only a caller who knows it is
      safe adds them), at most ``total`` times, after a backoff of 0, 1, 2,
      4, ... seconds (at most ``backoff_max``) passed through ``jitter``
      (`full_jitter`: anywhere from 0 to it), or after the server's
      ``Retry-After`` (seconds or HTTP-date, at most ``retry_after_max``).
    - A connection dropped before the answer (`ConnectionDropped`) is
      retried once, at once, for the safe methods only, and not when the
      sender already resent it. Refused connections and timeouts are not
      retried.
    """

    total: int = 6
    statuses: frozenset[int] = frozenset({502, 503})
    backoff_max: float = 30.0
    retry_after_max: float = 30.0
    attempts: int = 0
    dropped_retried: bool = False
    delay: float = 0.0
    methods: frozenset[str] = RETRY_METHODS
    jitter: Callable[[float], float] = full_jitter

    def is_retry(self, method: str, status: int) -> bool:
        """Whether this answer to this method may be tried again (retries left or not)."""
        return status in self.statuses and method in self.methods

    def increment(
        self, method: str, *, response: Response | None = None, error: TransportError | None = None
    ) -> Retry:
        """The state after one more try; raises ``error`` or `RetryExhausted` when none is left."""
        if error is not None:
            retryable = (
                isinstance(error, ConnectionDropped)
                and not error.retried
                and method in SAFE_METHODS
                and not self.dropped_retried
            )
            if not retryable:
                raise error
            return self._replace(dropped_retried=True, delay=0.0)
        if response is None:
            raise ValueError("increment needs a response or an error")
        if self.attempts >= self.total:
            raise RetryExhausted(response)
        return self._replace(attempts=self.attempts + 1, delay=self._delay_after(response))

    def _delay_after(self, response: Response) -> float:
        """0, 1, 2, 4, ... seconds (capped), or the server's Retry-After (capped)."""
        asked = _retry_after(response.headers.get("retry-after"), time.time())
        if asked is not None:
            return min(asked, self.retry_after_max)
        return self.jitter(min(float(int(2 ** (self.attempts - 1))), self.backoff_max))

    def sleep(self, sleep: Callable[[float], None] = time.sleep) -> None:
        """Wait as this state says (``sleep`` injected by tests)."""
        sleep(self.delay)


def _retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait as the server asked (delta-seconds or HTTP-date), or None."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    when = parse_http_date(value)
    return None if when is None else max(0.0, when - now)
