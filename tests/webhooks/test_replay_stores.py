"""Each delivery id is accepted once: in memory (bounded, expiring) and in a real Redis."""

from __future__ import annotations

import socket

import pytest
import redis

from wadlclient.webhooks import (
    MemoryReplayStore,
    RedisReplayStore,
    ReplayStoreUnavailable,
    WebhookSetupError,
)


class Clock:
    """Seconds a test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_memory_claims_an_id_once_and_again_after_release() -> None:
    store = MemoryReplayStore()

    assert store.claim("1") is True
    assert store.claim("1") is False
    store.release("1")
    assert store.claim("1") is True


def test_memory_forgets_an_id_after_its_ttl() -> None:
    clock = Clock()
    store = MemoryReplayStore(ttl=60, clock=clock)
    store.claim("1")

    clock.now += 59
    assert store.claim("1") is False
    clock.now += 2
    assert store.claim("1") is True


def test_memory_holds_at_most_max_entries_forgetting_the_oldest() -> None:
    store = MemoryReplayStore(max_entries=3)
    for delivery in "1234":
        store.claim(delivery)

    assert len(store) == 3
    assert store.claim("4") is False
    assert store.claim("1") is True  # the oldest was forgotten


def test_a_store_without_room_or_time_is_a_setup_error() -> None:
    with pytest.raises(WebhookSetupError):
        MemoryReplayStore(max_entries=0)
    with pytest.raises(WebhookSetupError):
        RedisReplayStore("redis://127.0.0.1:1/0", ttl=0)


def test_redis_lets_one_of_two_processes_claim_a_delivery(empty_redis: str) -> None:
    first, second = RedisReplayStore(empty_redis), RedisReplayStore(empty_redis)

    assert first.claim("7") is True
    assert second.claim("7") is False
    second.release("7")
    assert first.claim("7") is True


def test_redis_keeps_an_id_with_the_stores_ttl(empty_redis: str) -> None:
    RedisReplayStore(empty_redis, ttl=3600, prefix="hooks:").claim("7")

    with redis.Redis.from_url(empty_redis) as client:
        assert client.keys("*") == [b"hooks:7"]
        assert 0 < client.ttl("hooks:7") <= 3600


def test_redis_down_refuses_the_delivery_so_launchpad_retries() -> None:
    with socket.socket() as probe:  # a port nothing listens on: a real refused connection
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = RedisReplayStore(f"redis://127.0.0.1:{port}/0", timeout=0.5)

    with pytest.raises(ReplayStoreUnavailable) as caught:
        store.claim("7")

    assert caught.value.status == 503 and "retries it later" in str(caught.value)
