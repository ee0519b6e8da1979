"""`RedisStore`: cache entries in a Redis server shared by a fleet of workers.

Bounds: every key is written with a lifetime (``ttl``, 7 days by default,
renewed by each write), and a value larger than ``max_entry_bytes`` is not
stored; the store as a whole is bounded by the server's ``maxmemory``
with an eviction policy (``volatile-lru`` or ``allkeys-lru``), which is
the server operator's to set: an evicted entry is only a miss.

A Redis that is down, unreachable or slow must never fail or stall the
caller. No read waits more than ``timeout`` seconds (0.5 by default), and
each operation (connecting included) must end within four times
``timeout``, plus one second for each 8 MB it moves (`redis_bounds`). An
operation that waited for bytes more than 0.4 ``timeout`` is slow;
when slow operations are half of the recent ones and waited twice
``timeout`` in all, Redis is too slow. The first failure logs ONE warning,
and for the next ``retry_after`` seconds the store answers every call at
once as a miss, then tries again. A value is read with GETRANGE, so one
over ``max_entry_bytes`` is refused before it is read whole.
"""

from __future__ import annotations

import logging
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any

from wadlclient.cache.redis_bounds import SlowReplies, bound_connections, operation

if TYPE_CHECKING:
    import redis

__all__ = ["RedisStore", "is_redis_url"]

logger = logging.getLogger("wadlclient.cache")

#: The URL schemes of a Redis cache, in any case.
REDIS_SCHEMES = ("redis", "rediss", "unix")
# A reply's bytes beyond a value's: the RESP framing of the largest reply.
_REPLY_SLACK = 64 * 1024
# A claim's value: someone fetches the name; or no one will (its answer was not stored).
_HELD, _RELEASED = b"1", b"0"
_CLAIM_STATES = {_HELD: "held", _RELEASED: "released"}


def is_redis_url(value: object) -> bool:
    """Whether ``value`` is a ``redis://``, ``rediss://`` or ``unix://`` URL (any case)."""
    if not isinstance(value, str):
        return False
    scheme, separator, _rest = value.partition("://")
    return bool(separator) and scheme.lower() in REDIS_SCHEMES


def _where(url: str) -> str:
    """The URL without its user name and password: fit for a log line or a repr."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=host, query=""))


class RedisStore:
    """A `CacheStore` in Redis: keys ``prefix + name``, each with a lifetime.

    Give ``url`` (``redis://host:port/db``, ``rediss://`` for TLS, a
    password as ``redis://:secret@host``) or ``client``, a
    ``redis.Redis`` of your own (its timeouts are then yours to choose).
    """

    private = False
    #: Multiples of ``timeout``: an operation's bound; an operation waiting for bytes longer
    #: than this is slow; slow operations waiting this long in all (within
    #: ``retry_after``, and half of all) make Redis too slow to use.
    OPERATION_BOUND = 4.0
    SLOW_FRACTION = 0.4
    TOO_SLOW_FRACTION = 2.0

    def __init__(
        self,
        url: str | None = None,
        *,
        client: redis.Redis | None = None,
        prefix: str = "wadlclient:",
        ttl: int = 7 * 24 * 3600,
        max_entry_bytes: int = 32 * 1024 * 1024,
        timeout: float = 0.5,
        retry_after: float = 30.0,
    ) -> None:
        if (url is None) == (client is None):
            raise ValueError("give a Redis URL or a client, one of them")
        if ttl <= 0 or max_entry_bytes <= 0 or timeout <= 0:
            raise ValueError("ttl, max_entry_bytes and timeout must be positive")
        if client is None:
            assert url is not None
            client = _client_for(url, timeout)
            self._where = _where(url)
        else:
            self._where = repr(client.connection_pool)
        if hasattr(getattr(client, "connection_pool", None), "connection_class"):
            bound_connections(client)
        self.client = client
        self.prefix = prefix
        self.ttl = ttl
        self.max_entry_bytes = max_entry_bytes
        self.timeout = timeout
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._warned = False
        self._claimed: dict[str, int] = {}  # name -> the claim's lifetime, ms
        self._slowness = SlowReplies(
            timeout * self.SLOW_FRACTION, timeout * self.TOO_SLOW_FRACTION, retry_after
        )

    def __repr__(self) -> str:
        return f"RedisStore({self._where!r})"

    # -- the CacheStore interface ----------------------------------------------------

    def load(self, name: str) -> bytes | None:
        """The value, read no further than ``max_entry_bytes`` + 1 byte (GETRANGE); larger: None."""
        limit = self.max_entry_bytes
        value = self._call(self.client.getrange, self.prefix + name, 0, limit)
        if not isinstance(value, bytes) or not value:
            return None  # missing (GETRANGE answers "" then), or not ours
        if len(value) > limit:
            logger.debug("cache: %s in Redis is over %d bytes; not read", name, limit)
            return None
        return value

    def save(self, name: str, data: bytes) -> None:
        """SET with a lifetime (atomic: a reader gets the old value or the new one).

        A claim this process holds on ``name`` ends with it, stored or not.
        """
        if len(data) > self.max_entry_bytes:
            logger.debug("cache: %s not stored in Redis (%d bytes)", name, len(data))
            self.remove(name)
            return
        if self._claimed.pop(name, None) is not None:
            self._call(self._set_and_release, name, data)
        else:
            self._call(self.client.set, self.prefix + name, data, ex=self.ttl)

    def remove(self, name: str) -> None:
        self._call(self.client.delete, self.prefix + name)
        self.release(name)

    def exists(self, name: str) -> bool:
        return bool(self._call(self.client.exists, self.prefix + name))

    def close(self) -> None:
        """Drop this store's connections (the server keeps the entries)."""
        self._call(self.client.close)

    def claim(self, name: str, seconds: float) -> bool:
        """Whether this process is the one to fetch ``name`` (SET NX with a lifetime).

        When Redis cannot answer, every process fetches for itself: True.
        """
        key = f"{self.prefix}claim:{name}"
        lifetime = max(1, int(seconds * 1000))
        answer = self._call(self.client.set, key, _HELD, nx=True, px=lifetime)
        if answer is None and self._is_down():
            return True
        if answer:
            self._claimed[name] = lifetime
        return bool(answer)

    def release(self, name: str) -> None:
        """End this process's claim on ``name`` (if it holds one): it will not store it.

        The claim is marked released for as long as it would have lasted, so
        that those waiting, and those who come in that time, fetch at once.
        """
        lifetime = self._claimed.pop(name, None)
        if lifetime is not None:
            self._call(self.client.set, f"{self.prefix}claim:{name}", _RELEASED, px=lifetime)

    def claim_state(self, name: str) -> str | None:
        """``"held"`` (someone fetches ``name``), ``"released"`` (no one will), None (no claim)."""
        value = self._call(self.client.get, f"{self.prefix}claim:{name}")
        return _CLAIM_STATES.get(value) if isinstance(value, bytes) else None

    # -- degrading -----------------------------------------------------------------

    def _set_and_release(self, name: str, data: bytes) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.set(self.prefix + name, data, ex=self.ttl)
        pipe.delete(f"{self.prefix}claim:{name}")
        pipe.execute()

    def _is_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _call(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        """Run one bounded Redis command; on failure warn once, then skip Redis for a while."""
        import redis

        if self._is_down():
            return None
        bound = self.timeout * self.OPERATION_BOUND
        try:
            with operation(bound, self.max_entry_bytes + _REPLY_SLACK) as current:
                result = method(*args, **kwargs)
                waited = self._slowness.too_slow_after(current)
        except (redis.RedisError, OSError) as error:
            self._failed(type(error).__name__)
            return None
        if waited:
            self._failed(f"too slow: its replies kept it waiting {waited:.1f} s")
        return result

    def _failed(self, why: str) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.retry_after
            first = not self._warned
            self._warned = True
        if first:
            logger.warning(
                "Redis cache %s unavailable (%s); continuing without caching", self._where, why
            )
        else:
            logger.debug("Redis cache %s still unavailable: %s", self._where, why)


def _driver_info(version: str) -> dict[str, Any]:
    """The library's name and version for CLIENT SETINFO, given rather than looked up.

    redis-py 7 and later look its version up in the installed packages'
    metadata (``importlib.metadata``) for every new connection: about 1.5 ms
    of a worker's start (benchmarks/PROFILES.md, issue 23). Its
    ``__version__`` says the same. Before 7 there is no ``driver_info``; the
    version was read once, when redis was imported.
    """
    try:
        from redis.driver_info import DriverInfo
    except ImportError:
        return {}
    return {"driver_info": DriverInfo(lib_version=version)}


def _client_for(url: str, timeout: float) -> redis.Redis:
    """A client that gives up quickly: short socket timeouts, no retries of its own."""
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        raise ImportError(
            "a redis:// cache needs the redis package: pip install 'wadlclient[redis]'"
        ) from None
    scheme, separator, rest = url.partition("://")
    try:
        return redis.Redis.from_url(
            scheme.lower() + separator + rest,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
            retry_on_timeout=False,
            **_driver_info(redis.__version__),
        )
    except ValueError:
        raise ValueError(
            f"not a Redis URL: {_where(url)!r} (expected redis://host:port/db)"
        ) from None
