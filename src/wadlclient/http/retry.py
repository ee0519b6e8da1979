"""When to send a request again, and how long to wait first: an immutable policy value.

Every change to the retry rules is a change to `Retry` (its defaults, or
`Retry.increment`); the transport only asks it.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
import random
import socket
import ssl
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from wadlclient.errors import (
    ConnectError,
    ConnectionDropped,
    TransportError,
    TransportTimeout,
    reduce_error,
)
from wadlclient.headers import parse_http_date
from wadlclient.http.models import Response

__all__ = [
    "RETRY_METHODS",
    "RETRY_STATUSES",
    "SAFE_METHODS",
    "Retry",
    "RetryExhausted",
    "full_jitter",
    "is_transient",
    "retry_after_seconds",
]

#: Methods that only read: a cached answer may stand for them.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Methods retried by default: sending them twice does no more than sending them once.
RETRY_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
#: Answers that say "not now": too many requests, a bad or busy gateway, a busy server.
RETRY_STATUSES = frozenset({429, 502, 503, 504})


def full_jitter(backoff: float) -> float:
    """A wait drawn evenly from 0 to ``backoff``: clients told to wait do not return together."""
    return random.uniform(0.0, backoff)


#: What a resolver says of a name that does not exist (not of one it could not look up now).
_UNKNOWN_HOST = frozenset(
    getattr(socket, name) for name in ("EAI_NONAME", "EAI_NODATA") if hasattr(socket, name)
)


def is_transient(error: TransportError) -> bool:
    """Whether trying again may help: a timeout, a refused or dropped connection.

    A certificate the client does not trust, a host name that does not
    exist (the resolver's "Name or service not known"; a resolver that
    could not answer now, "Temporary failure in name resolution", is
    retried), an invalid URL or a body over the limit will be the same the
    next time.
    """
    if isinstance(error, ConnectError):
        return not any(_is_tls(cause) or _is_unknown_host(cause) for cause in _causes(error))
    return isinstance(error, (TransportTimeout, ConnectionDropped))


def _causes(error: BaseException) -> list[BaseException]:
    """The error and the first few of its causes (a sender wraps its library's error)."""
    found: list[BaseException] = []
    cause: BaseException | None = error
    while cause is not None and len(found) < 8:
        found.append(cause)
        cause = cause.__cause__ or cause.__context__
    return found


def _is_tls(cause: BaseException) -> bool:
    """A TLS failure: an untrusted certificate, a failed handshake."""
    return isinstance(cause, ssl.SSLError)


def _is_unknown_host(cause: BaseException) -> bool:
    return isinstance(cause, socket.gaierror) and cause.errno in _UNKNOWN_HOST


class RetryExhausted(Exception):
    """No retry is left for this answer: the transport returns ``response`` as it is."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)  # its __init__ takes what its args do not hold


class Retry(NamedTuple):
    """The retry state of one request: `increment` returns the next state, `sleep` waits.

    What is retried: for the idempotent ``methods`` only (a POST or PATCH
    may have acted: only a caller who knows it is safe adds them), an
    answer with one of the ``statuses`` (429, 502, 503, 504), and a
    transport failure that may pass (`is_transient`: a timeout, a refused
    connection, a connection dropped before the whole answer). At most
    ``total`` times, after a backoff of 0, 1, 2, 4, ... times
    ``backoff_base`` seconds (at most ``backoff_max``) passed through
    ``jitter`` (`full_jitter`: anywhere from 0 to it), or after the
    server's ``Retry-After`` (seconds or HTTP-date, at most
    ``retry_after_max``). The transport stops earlier when a wait would
    pass the call's deadline.

    The default base of 1 s is lazr.restfulclient's schedule: it rides out
    an outage of half a minute (a service restarting). Where failures are
    brief and independent (a flaky proxy), a base of 0.1 s spends less time
    waiting: `benchmarks.flaky` measures both.
    """

    total: int = 6
    statuses: frozenset[int] = RETRY_STATUSES
    backoff_max: float = 30.0
    retry_after_max: float = 30.0
    attempts: int = 0
    delay: float = 0.0
    methods: frozenset[str] = RETRY_METHODS
    jitter: Callable[[float], float] = full_jitter
    backoff_base: float = 1.0

    def is_retry(self, method: str, status: int) -> bool:
        """Whether this answer to this method may be tried again (retries left or not)."""
        return status in self.statuses and method in self.methods

    def may_resend(self, method: str, error: TransportError) -> bool:
        """Whether this failure of this method may be tried again (retries left or not)."""
        return method in self.methods and is_transient(error)

    def increment(
        self, method: str, *, response: Response | None = None, error: TransportError | None = None
    ) -> "Retry":
        """The state after one more try; raises ``error`` or `RetryExhausted` when none is left."""
        if error is not None:
            if not self.may_resend(method, error) or self.attempts >= self.total:
                raise error
            return self._replace(attempts=self.attempts + 1, delay=self._backoff())
        if response is None:
            raise ValueError("increment needs a response or an error")
        if self.attempts >= self.total:
            raise RetryExhausted(response)
        return self._replace(attempts=self.attempts + 1, delay=self._delay_after(response))

    def _delay_after(self, response: Response) -> float:
        """The server's Retry-After (capped), else the backoff."""
        asked = retry_after_seconds(response.headers.get("retry-after"), time.time())
        if asked is not None:
            return min(asked, self.retry_after_max)
        return self._backoff()

    def _backoff(self) -> float:
        """0, 1, 2, 4, ... times the base (capped), through the jitter."""
        return self.jitter(min(self.backoff_base * int(2 ** (self.attempts - 1)), self.backoff_max))

    def sleep(self, sleep: Callable[[float], None] = time.sleep) -> None:
        """Wait as this state says (``sleep`` injected by tests)."""
        sleep(self.delay)


def retry_after_seconds(value: str | None, now: float) -> float | None:
    """Seconds to wait as the server asked (delta-seconds or HTTP-date), or None.

    A malformed value counts as absent. Only ASCII digits are delta-seconds:
    ``str.isdigit`` also accepts ``²``, which ``float`` refuses.
    """
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    when = parse_http_date(value)
    return None if when is None else max(0.0, when - now)
