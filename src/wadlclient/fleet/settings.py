"""The fleet's settings, read from the environment: every worker of a fleet is started the same way.

``WADLCLIENT_FLEET_REDIS`` (default ``redis://127.0.0.1:6379/0``) is the
fleet's Redis: Celery's broker and result backend (unless
``CELERY_BROKER_URL`` / ``CELERY_RESULT_BACKEND`` say otherwise), the
shards' checkpoints and the request budget. ``WADLCLIENT_FLEET_RATE``
(requests per second) and ``WADLCLIENT_FLEET_IN_FLIGHT`` set the budget
(unset: none; each process's own limits hold). ``WADLCLIENT_FLEET_VISIBILITY_TIMEOUT``
(seconds, default 3600): how long a task taken by a worker that died
waits before Redis hands it to another. ``WADLCLIENT_FLEET_LEASE`` (seconds,
default 60): how long a shard stays held by a worker that died (killed,
frozen) before another may resume it; a live worker renews it every third
of it, however long an entry's work takes. ``WADLCLIENT_FLEET_CHECKPOINT_EVERY`` (seconds, default
1; 0: after every entry): how often a shard checkpoints, so how much a
killed worker's successor works again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wadlclient.fleet.budget import RedisBudget
from wadlclient.fleet.work import DEFAULT_EVERY
from wadlclient.redact import shown_url

if TYPE_CHECKING:
    import redis

__all__ = ["FleetSettings", "connect", "settings_from_env"]

DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
REDIS_VARIABLE = "WADLCLIENT_FLEET_REDIS"
RATE_VARIABLE = "WADLCLIENT_FLEET_RATE"
IN_FLIGHT_VARIABLE = "WADLCLIENT_FLEET_IN_FLIGHT"
VISIBILITY_VARIABLE = "WADLCLIENT_FLEET_VISIBILITY_TIMEOUT"
LEASE_VARIABLE = "WADLCLIENT_FLEET_LEASE"
EVERY_VARIABLE = "WADLCLIENT_FLEET_CHECKPOINT_EVERY"
DEFAULT_LEASE = 60.0
#: Kombu's own default: an hour.
DEFAULT_VISIBILITY_TIMEOUT = 3600.0


@dataclass(frozen=True)
class FleetSettings:
    """Where the fleet's Redis is, its broker and backend, its budget, its redelivery delay."""

    redis_url: str = DEFAULT_REDIS
    broker_url: str = DEFAULT_REDIS
    backend_url: str = DEFAULT_REDIS
    rate: float | None = None
    in_flight: int | None = None
    visibility_timeout: float = DEFAULT_VISIBILITY_TIMEOUT
    lease: float = DEFAULT_LEASE
    checkpoint_every: float = DEFAULT_EVERY

    def budget(self) -> RedisBudget | None:
        """The request budget these settings ask for (None when they set neither limit)."""
        if self.rate is None and self.in_flight is None:
            return None
        return RedisBudget(connect(self.redis_url), rate=self.rate, in_flight=self.in_flight)


def _number(name: str, whole: bool) -> float | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        number = int(value) if whole else float(value)
    except ValueError:
        number = 0
    if not number > 0:
        kind = "a whole number, 1 or more" if whole else "a number above 0"
        raise ValueError(f"{name} must be {kind}, not {value!r}")
    return number


def settings_from_env() -> FleetSettings:
    """The settings the environment gives (one clear ValueError naming a bad variable)."""
    redis_url = os.environ.get(REDIS_VARIABLE, "").strip() or DEFAULT_REDIS
    if not redis_url.lower().startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"{REDIS_VARIABLE} must be a redis:// URL, not {shown_url(redis_url)!r}")
    in_flight = _number(IN_FLIGHT_VARIABLE, whole=True)
    visibility = _number(VISIBILITY_VARIABLE, whole=False)
    lease = _number(LEASE_VARIABLE, whole=False)
    every = os.environ.get(EVERY_VARIABLE, "").strip()
    try:
        checkpoint_every = float(every) if every else DEFAULT_EVERY
    except ValueError:
        checkpoint_every = -1.0
    if not checkpoint_every >= 0:
        raise ValueError(f"{EVERY_VARIABLE} must be a number of seconds, 0 or more, not {every!r}")
    return FleetSettings(
        redis_url=redis_url,
        broker_url=os.environ.get("CELERY_BROKER_URL", "").strip() or redis_url,
        backend_url=os.environ.get("CELERY_RESULT_BACKEND", "").strip() or redis_url,
        rate=_number(RATE_VARIABLE, whole=False),
        in_flight=None if in_flight is None else int(in_flight),
        visibility_timeout=DEFAULT_VISIBILITY_TIMEOUT if visibility is None else visibility,
        lease=DEFAULT_LEASE if lease is None else lease,
        checkpoint_every=checkpoint_every,
    )


def connect(url: str) -> redis.Redis:
    """A Redis client for the fleet's own keys (checkpoints, budget)."""
    try:
        import redis
    except ImportError:
        raise ImportError(
            "the fleet needs the redis package: pip install 'wadlclient[fleet]'"
        ) from None
    try:
        return redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)
    except ValueError:
        raise ValueError(f"not a Redis URL: {shown_url(url)!r}") from None
