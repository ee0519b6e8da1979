"""Replay protection: each ``X-Launchpad-Delivery`` is accepted once.

Launchpad's signature carries no timestamp, so a captured delivery
verifies forever; only remembering the delivery ids already seen stops
a replay. A store claims an id (True the first time, False after) and
releases it when the handler failed, so Launchpad's retry of that
delivery (same id) is accepted. Ids are kept ``ttl`` seconds: long
enough to outlast Launchpad's retries, which stop after a day.

`MemoryReplayStore` serves one process; `RedisReplayStore` a fleet of
them (``SET NX EX``: the first process to claim an id wins, atomically).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from wadlclient.webhooks.errors import ReplayStoreUnavailable, WebhookSetupError

__all__ = ["DEFAULT_TTL", "MemoryReplayStore", "RedisReplayStore", "ReplayStore"]

#: Seconds a delivery id is remembered: a week.
DEFAULT_TTL = 7 * 24 * 3600


class ReplayStore(Protocol):
    """Where a receiver remembers the deliveries it accepted."""

    def claim(self, delivery_id: str) -> bool:
        """True if ``delivery_id`` was not seen (it is now), False if it was."""
        ...

    def release(self, delivery_id: str) -> None:
        """Forget ``delivery_id`` (its handler failed: Launchpad's retry must get through)."""
        ...


class MemoryReplayStore:
    """Delivery ids in this process's memory: at most ``max_entries``, each for ``ttl`` seconds.

    When full, the oldest id is forgotten first (a replay of it would then
    be accepted): size ``max_entries`` above the deliveries of a ``ttl``.
    ``clock`` gives seconds (a test passes its own, to step over the ``ttl``).
    """

    def __init__(
        self,
        *,
        ttl: float = DEFAULT_TTL,
        max_entries: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl <= 0 or max_entries <= 0:
            raise WebhookSetupError("a replay store's ttl and max_entries must be positive")
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def claim(self, delivery_id: str) -> bool:
        now = self._clock()
        with self._lock:
            while self._seen:
                oldest, expires = next(iter(self._seen.items()))
                if expires > now and len(self._seen) < self.max_entries:
                    break
                del self._seen[oldest]
            if delivery_id in self._seen:
                return False
            self._seen[delivery_id] = now + self.ttl
            return True

    def release(self, delivery_id: str) -> None:
        with self._lock:
            self._seen.pop(delivery_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._seen)


class RedisReplayStore:
    """Delivery ids in Redis, shared by every process: ``SET <prefix><id> 1 NX EX <ttl>``.

    ``redis`` is a ``redis://`` URL or a ``redis.Redis`` client. When Redis
    cannot answer, a delivery is refused (`ReplayStoreUnavailable`, 503):
    Launchpad retries it later, and no replay slips through meanwhile.
    """

    def __init__(
        self,
        redis: Any,
        *,
        ttl: int = DEFAULT_TTL,
        prefix: str = "wadlclient:webhook-delivery:",
        timeout: float = 2.0,
    ) -> None:
        if ttl <= 0:
            raise WebhookSetupError("a replay store's ttl must be positive")
        self.ttl = int(ttl)
        self.prefix = prefix
        self.client = _client(redis, timeout) if isinstance(redis, str) else redis

    def claim(self, delivery_id: str) -> bool:
        return bool(self._call("set", self.prefix + delivery_id, b"1", nx=True, ex=self.ttl))

    def release(self, delivery_id: str) -> None:
        self._call("delete", self.prefix + delivery_id)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        import redis

        try:
            return getattr(self.client, name)(*args, **kwargs)
        except (redis.RedisError, OSError) as error:
            raise ReplayStoreUnavailable(
                f"the replay store (Redis) did not answer ({type(error).__name__}): the "
                "delivery is refused so that Launchpad retries it later"
            ) from error


def _client(url: str, timeout: float) -> Any:
    try:
        import redis
    except ImportError:
        raise WebhookSetupError(
            "a Redis replay store needs the redis package: pip install 'wadlclient[redis]'"
        ) from None
    try:
        return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    except ValueError as error:
        raise WebhookSetupError(f"not a Redis URL a replay store can use: {error}") from None
