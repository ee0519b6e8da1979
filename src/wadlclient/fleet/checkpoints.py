"""Where each shard of a job stands, in Redis: its last token, whether it is done, who runs it.

A task killed with SIGKILL leaves its shard's last token here; the task,
delivered again, resumes from it. Brokers deliver a task again while its
first worker still runs it too (Redis's visibility timeout passed), so a
shard is run by one worker at a time: the runner holds an owner lease,
renewed with each checkpoint and, once a third of it has passed, before
an entry is worked: a runner that lost its lease stops before working
another entry (`ShardTaken`).
A lease of a killed worker runs out after ``lease`` seconds, and the
shard is free again.

Keys: ``wadlclient:fleet:<job>:<shard>`` (a hash: token, done, entries)
and ``...:owner``; both expire ``keep`` seconds after the last write.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis

__all__ = ["Checkpoints", "Claim", "ShardBusy", "ShardTaken"]

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


class ShardBusy(Exception):
    """Another worker runs this shard now (the broker delivered its task twice): try later."""


class ShardTaken(Exception):
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
