"""One request budget for a whole fleet, held in Redis: a rate and a number in flight per origin.

Celery's own rate limits are per worker (celery #5732): 16 workers at 5
requests a second each are 80 a second at the service. This budget is
shared by every process that names the same Redis and budget name, on any
machine, and `wadlclient.http` asks it before every attempt (the
`wadlclient.http.budget.Budget` protocol).

- The rate is a GCRA (the generic cell rate algorithm, a token bucket kept
  as one timestamp): one request every ``1/rate`` seconds, ``burst`` of
  them at once after a quiet spell. Redis's clock decides, so machines
  whose clocks disagree still share one schedule.
- Requests in flight are leases in a sorted set, scored by when they run
  out: a worker killed with SIGKILL never gives its slots back, and they
  return once ``lease`` seconds have passed.

Both are checked and spent by one Lua script, atomically: one round trip
per request when the budget allows it; else the script says how long to
wait (the rate) or the caller polls (a slot).
"""

from __future__ import annotations

import contextlib
import random
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from wadlclient.errors import ConnectError, TransportTimeout
from wadlclient.http.urls import Origin
from wadlclient.redact import shown_url

if TYPE_CHECKING:
    import redis

__all__ = ["RedisBudget"]

# KEYS: the rate's timestamp, the slots' sorted set.
# ARGV: interval (us), burst, want a slot (0/1), slot limit, lease id, lease (ms).
# Returns {1, 0} when spent, {0, wait in us} when the rate says wait, {0, -1} when no slot is free.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local want = ARGV[3] == '1'
if want then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
    return {0, -1}
  end
end
if interval > 0 then
  local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
  if tat < now then tat = now end
  local allowed_at = tat - interval * (tonumber(ARGV[2]) - 1)
  if now < allowed_at then
    return {0, allowed_at - now}
  end
  local next_tat = tat + interval
  redis.call('SET', KEYS[1], string.format('%d', next_tat),
             'PX', math.floor((next_tat - now) / 1000) + 1000)
end
if want then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[6]) * 1000, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]) + 1000)
end
return {1, 0}
"""


class _Slot:
    """A slot in flight, given back by removing its lease."""

    __slots__ = ("_budget", "_key", "_lease")

    def __init__(self, budget: RedisBudget, key: str, lease: str) -> None:
        self._budget = budget
        self._key = key
        self._lease: str | None = lease

    def give(self) -> None:
        lease, self._lease = self._lease, None
        if lease is not None:
            self._budget.give_back(self._key, lease)


class _NoSlot:
    """A request that spent the rate only (a stream, or a budget with no in-flight limit)."""

    __slots__ = ()

    def give(self) -> None:
        pass


_NO_SLOT = _NoSlot()


class RedisBudget:
    """A `wadlclient.http.budget.Budget` in Redis, shared by every process that names it.

    ``rate``: requests per second per origin (None: no rate). ``in_flight``:
    requests in flight per origin (None: none held here; each process's own
    limit still holds). ``burst``: requests the rate lets through at once
    after a quiet spell (1: evenly spaced). ``lease``: seconds after which a
    slot its holder never gave back (a killed worker's) is free again; make
    it longer than a request can last (the transport's deadline). ``name``:
    budgets of other names in the same Redis are independent.
    """

    def __init__(
        self,
        redis_client: redis.Redis,
        *,
        rate: float | None = None,
        in_flight: int | None = None,
        burst: int = 1,
        lease: float = 300.0,
        name: str = "default",
        poll: float = 0.02,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate is not None and not rate > 0:
            raise ValueError(f"the budget's rate must be more than 0 requests a second, not {rate}")
        if in_flight is not None and (type(in_flight) is not int or in_flight < 1):
            raise ValueError(
                f"the budget's in_flight must be a whole number, 1 or more, not {in_flight!r}"
            )
        if type(burst) is not int or burst < 1:
            raise ValueError(f"the budget's burst must be a whole number, 1 or more, not {burst!r}")
        if not lease > 0:
            raise ValueError(f"the budget's lease must be more than 0 seconds, not {lease}")
        self.rate = rate
        self.in_flight = in_flight
        self._client = redis_client
        self._interval_us = 0 if rate is None else max(1, round(1_000_000 / rate))
        self._burst = burst
        self._lease_ms = max(1, round(lease * 1000))
        self._name = name
        self._poll = poll
        self._sleep = sleep
        self._take = redis_client.register_script(_TAKE)

    def _keys(self, origin: Origin) -> list[str]:
        scheme, host, port = origin
        # One hash tag, so that both keys live on one node of a Redis cluster.
        tag = f"{{wadlclient:budget:{self._name}:{scheme}://{host}:{port}}}"
        return [tag + ":rate", tag + ":slots"]

    def take(self, origin: Origin, *, slot: bool, until: float | None) -> _Slot | _NoSlot:
        """Wait until the budget allows one more request to ``origin``; spend it (`Budget.take`)."""
        want = slot and self.in_flight is not None
        keys = self._keys(origin)
        lease = uuid.uuid4().hex if want else ""
        args: list[int | str] = [
            self._interval_us,
            self._burst,
            int(want),
            self.in_flight or 0,
            lease,
            self._lease_ms,
        ]
        while True:
            granted, wait_us = self._run(keys, args)
            if granted:
                return _Slot(self, keys[1], lease) if want else _NO_SLOT
            # No slot free (-1): look again soon, not all at the same moment.
            delay = wait_us / 1e6 if wait_us >= 0 else self._poll * (0.5 + random.random() / 2)
            if until is not None and time.monotonic() + delay > until:
                raise TransportTimeout(
                    "the call's deadline passed while waiting for the fleet's request budget "
                    f"({self._describe()})"
                )
            self._sleep(delay)

    def give_back(self, key: str, lease: str) -> None:
        """Free the slot of ``lease`` (a lease not given back runs out by itself)."""
        import redis

        with contextlib.suppress(redis.RedisError, OSError):  # else its lease runs out
            self._client.zrem(key, lease)

    def _run(self, keys: list[str], args: list[int | str]) -> tuple[int, int]:
        import redis

        try:
            granted, wait = self._take(keys=keys, args=args)
        except (redis.RedisError, OSError) as error:
            raise ConnectError(
                f"the fleet's request budget ({self._describe()}) is out of reach: {error}"
            ) from error
        return int(granted), int(wait)

    def _describe(self) -> str:
        kwargs = self._client.connection_pool.connection_kwargs
        where = f"redis://{kwargs.get('host', '?')}:{kwargs.get('port', '?')}/{kwargs.get('db', 0)}"
        rate = "no rate" if self.rate is None else f"{self.rate:g} requests/s"
        flight = "" if self.in_flight is None else f", {self.in_flight} in flight"
        return f"{self._name!r} at {shown_url(where)}: {rate}{flight}"
