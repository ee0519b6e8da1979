"""Where each shard of a job stands, in Redis: its last token, whether it is done, who runs it.

A task killed with SIGKILL leaves its shard's last token here; the task,
delivered again, resumes from it. Brokers deliver a task again while its
first worker still runs it too (Redis's visibility timeout passed), so a
shard is run by one worker at a time: the runner holds an owner lease,
renewed every third of it by a thread of its own (`Renewal`) while the
shard runs, however long a page, the request budget or an entry's work
makes it wait (a lease renewed only between entries ran out during a slow
one, and the copy delivered again worked that entry too); and before an
entry is worked, when no renewal was confirmed in the last third: a
runner that lost its lease (its process was frozen longer than the lease)
stops before working another entry (`ShardTaken`).
A lease of a killed worker runs out after ``lease`` seconds, and the
shard is free again.

Keys: ``wadlclient:fleet:<job>:<shard>`` (a hash: token, done, entries)
and ``...:owner``; both expire ``keep`` seconds after the last write.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wadlclient.errors import RestfulError

if TYPE_CHECKING:
    import redis

__all__ = ["Checkpoints", "Claim", "Renewal", "ShardBusy", "ShardTaken"]

logger = logging.getLogger("wadlclient.fleet")

# KEYS: the state hash, the owner key. ARGV: owner, lease (ms), keep (s), token, entries, done.
_SAVE = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'token', ARGV[4], 'entries', ARGV[5], 'done', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[3])
if ARGV[6] == '1' then
  redis.call('DEL', KEYS[2])
else
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
"""
_HOLD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class ShardBusy(RestfulError):
    """Another worker runs this shard now (the broker delivered its task twice): try later."""


class ShardTaken(RestfulError):
    """This worker's lease on a shard ran out and another worker took it: this one stops."""


@dataclass
class Claim:
    """One worker's hold on a shard, with where the shard stood when it was taken."""

    key: str
    owner: str
    token: str | None
    entries: int
    done: bool


class Checkpoints:
    """The checkpoints of every shard of every job, in one Redis."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        lease: float = 60.0,
        keep: float = 7 * 86400.0,
        prefix: str = "wadlclient:fleet",
    ) -> None:
        self._client = client
        self.lease = lease
        self._lease_ms = max(1, round(lease * 1000))
        self._keep = max(1, round(keep))
        self._prefix = prefix
        self._save = client.register_script(_SAVE)
        self._release = client.register_script(_RELEASE)
        self._hold = client.register_script(_HOLD)

    def key(self, job: str, shard: int) -> str:
        return f"{self._prefix}:{job}:{shard}"

    def claim(self, job: str, shard: int) -> Claim:
        """Hold a shard of ``job`` and read where it stands; `ShardBusy` if another holds it."""
        key, owner = self.key(job, shard), uuid.uuid4().hex
        if not self._client.set(key + ":owner", owner, nx=True, px=self._lease_ms):
            raise ShardBusy(f"shard {shard} of job {job!r} is being run by another worker")
        state = self._read(key)
        token = state.get("token") or None
        return Claim(key, owner, token, int(state.get("entries", "0")), state.get("done") == "1")

    def hold(self, claim: Claim) -> None:
        """Renew the lease before working an entry; `ShardTaken` if it ran out meanwhile.

        Reading the next entry (a page, a new root) can outlast a lease: the
        entry is worked only while the shard is still this worker's.
        """
        if not self._hold(keys=[claim.key + ":owner"], args=[claim.owner, self._lease_ms]):
            raise ShardTaken(f"{claim.key}: the lease ran out and another worker took the shard")

    def renewing(self, claim: Claim) -> Renewal:
        """A thread that renews ``claim``'s lease while the shard runs (a context manager)."""
        return Renewal(self, claim)

    def save(self, claim: Claim, token: str | None, *, done: bool = False) -> None:
        """Record ``token`` (the position after the last entry worked) and renew the lease."""
        args: list[str | int] = [
            claim.owner,
            self._lease_ms,
            self._keep,
            token or "",
            claim.entries,
            int(done),
        ]
        if not self._save(keys=[claim.key, claim.key + ":owner"], args=args):
            raise ShardTaken(f"{claim.key}: the lease ran out and another worker took the shard")
        claim.token, claim.done = token, done

    def release(self, claim: Claim) -> None:
        """Let go of the shard without finishing it (an error: the task may be tried again)."""
        self._release(keys=[claim.key + ":owner"], args=[claim.owner])

    def state(self, job: str, shard: int) -> Claim | None:
        """Where a shard stands, without holding it (None: never started)."""
        key = self.key(job, shard)
        state = self._read(key)
        if not state:
            return None
        token = state.get("token") or None
        return Claim(key, "", token, int(state.get("entries", "0")), state.get("done") == "1")

    def _read(self, key: str) -> dict[str, str]:
        def text(value: bytes | str) -> str:
            return value.decode() if isinstance(value, bytes) else value

        return {text(k): text(v) for k, v in self._client.hgetall(key).items()}


class Renewal:
    """Renews a claim's lease every third of it, on a daemon thread, until the ``with`` ends.

    The lease then runs out only when the worker's process stops (killed,
    frozen): a slow page, a wait for the fleet's budget or a long work no
    longer hands its shard to a second delivery midway. `check` before
    each entry: `ShardTaken` once a renewal found the shard another's, or
    when no renewal was confirmed for half the lease (the thread did not
    run: the process was frozen) and the lease is no longer ours.
    """

    __slots__ = ("_checkpoints", "_claim", "_confirmed", "_lost", "_stop", "_thread")

    def __init__(self, checkpoints: Checkpoints, claim: Claim) -> None:
        self._checkpoints = checkpoints
        self._claim = claim
        self._confirmed = time.monotonic()
        self._lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wadlclient-lease", daemon=True)

    def __enter__(self) -> Renewal:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        every = self._checkpoints.lease / 3
        while not self._stop.wait(every):
            started = time.monotonic()
            try:
                self._checkpoints.hold(self._claim)
            except ShardTaken:
                self._lost = True
                logger.warning(
                    "%s: the lease ran out; this worker stops the shard", self._claim.key
                )
                return
            except Exception as error:  # Redis out of reach a moment: the next beat tries again
                logger.debug("%s: the lease not renewed now: %s", self._claim.key, error)
                continue
            self._confirmed = started

    def confirmed(self) -> None:
        """The lease was renewed now (a checkpoint saved)."""
        self._confirmed = time.monotonic()

    def check(self) -> None:
        """`ShardTaken` if the shard is no longer this worker's; call before working an entry."""
        if self._lost:
            raise ShardTaken(f"{self._claim.key}: the lease ran out and another worker took it")
        if time.monotonic() - self._confirmed > self._checkpoints.lease / 2:
            started = time.monotonic()
            self._checkpoints.hold(self._claim)
            self._confirmed = started
