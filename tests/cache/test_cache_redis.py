"""The Redis backend against a real redis-server: bounds, a Redis down or hung, and a fleet.

A fleet is several processes started at once on one empty Redis, the
Launchpad WADL served on loopback (benchmarks.lpserver's handler, which
counts the whole WADL documents it sends).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis
from benchmarks.lpserver import make_handler, rewrite_wadl, root_json
from benchmarks.redis_server import redis_server

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from wadlclient import ServiceRoot
from wadlclient.cache import RedisStore, StoreCache

REPO = Path(__file__).resolve().parents[2]


def keys(url: str) -> dict[bytes, int]:
    """Every key in the database and its remaining lifetime in seconds (-1: none)."""
    with redis.Redis.from_url(url) as client:
        return {key: client.ttl(key) for key in client.keys("*")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_every_key_is_written_with_a_lifetime(
    cookbook_service: RunningService, empty_redis: str
) -> None:
    store = RedisStore(empty_redis, ttl=600)
    root = ServiceRoot(None, cookbook_service.base_url, cache=store)
    root.recipes[str(PUBLIC_RECIPE_IDS[0])]

    found = keys(empty_redis)

    assert len(found) == 3  # the root's WADL and JSON, and the recipe
    assert all(key.startswith(b"wadlclient:") for key in found)
    assert all(0 < ttl <= 600 for ttl in found.values())


def test_an_entry_over_the_size_bound_is_not_stored(empty_redis: str) -> None:
    store = RedisStore(empty_redis, max_entry_bytes=1000)
    store.save("small", b"x" * 1000)
    store.save("big", b"x" * 1001)

    assert store.load("small") == b"x" * 1000
    assert store.load("big") is None


def test_connecting_reads_no_package_metadata(
    empty_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # redis-py 7+ looks its own version up in the installed packages for every
    # new connection (about 1.5 ms of a worker's start) unless it is given one.
    import importlib.metadata

    looked_up: list[str] = []
    version = importlib.metadata.version

    def watched(name: str) -> str:
        looked_up.append(name)
        return version(name)

    monkeypatch.setattr(importlib.metadata, "version", watched)
    store = RedisStore(empty_redis)
    store.save("probe", b"1")

    assert store.load("probe") == b"1"
    assert looked_up == []
    store.close()


def test_a_redis_url_password_is_never_shown() -> None:
    store = RedisStore("redis://:hunter2@127.0.0.1:1/0")

    assert "hunter2" not in repr(store)
    assert "hunter2" not in repr(StoreCache(store))


def test_a_bad_redis_url_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match=r"not a Redis URL: 'redis://host:notaport/0'"):
        ServiceRoot(None, "http://127.0.0.1:1/", cache="redis://host:notaport/0")


def test_a_redis_that_is_down_means_uncached_requests_and_one_warning(
    cookbook_service: RunningService, caplog: pytest.LogCaptureFixture, wire
) -> None:
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
        root = ServiceRoot(None, cookbook_service.base_url, cache=down)
        names = [root.recipes[str(each)].instructions for each in PUBLIC_RECIPE_IDS[:3]]
        ServiceRoot(None, cookbook_service.base_url, cache=root._session.cache)
    took = time.monotonic() - began

    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"Redis cache {down} unavailable (ConnectionError)")
    assert all(names)
    assert [status for *_, status in wire.requests(7)] == [200] * 7  # nothing was cached
    assert took < 5


def test_a_hung_redis_costs_one_short_timeout_not_a_hang(
    cookbook_service: RunningService, caplog: pytest.LogCaptureFixture, redis_url: str
) -> None:
    # A server stopped with SIGSTOP accepts connections and never answers. It is a
    # second server (``redis_url`` is asked for only to skip, saying why, without one).
    with redis_server() as server:
        server.process.send_signal(signal.SIGSTOP)
        try:
            began = time.monotonic()
            with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
                root = ServiceRoot(
                    None, cookbook_service.base_url, cache=RedisStore(server.url, timeout=0.3)
                )
                root.recipes[str(PUBLIC_RECIPE_IDS[0])]
            took = time.monotonic() - began
        finally:
            server.process.send_signal(signal.SIGCONT)

    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "(TimeoutError)" in warnings[0]
    assert took < 0.3 * 3 + 1  # one timeout, then Redis is left alone


@pytest.fixture(scope="module")
def launchpad_wadl_server(launchpad_wadl_bytes: bytes) -> Iterator[tuple[str, Any]]:
    """The Launchpad WADL and root on loopback: (service URL, handler class with its counts)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/1.0/"
    wadl = rewrite_wadl(launchpad_wadl_bytes, base)
    handler = make_handler(wadl, root_json(wadl, base))

    class SlowWADL(handler):  # type: ignore[valid-type,misc]
        """Sends the WADL after 0.3 s, as a distant server would: the fleet overlaps."""

        def _send(self, status: int, media_type: str, body: bytes) -> None:
            if "wadl" in media_type and not self.headers.get("If-None-Match"):
                time.sleep(0.3)
            super()._send(status, media_type, body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), SlowWADL)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/", handler
    finally:
        server.shutdown()
        server.server_close()


WORKER = textwrap.dedent(
    """
    import sys, time
    began = time.perf_counter()
    from wadlclient import ServiceRoot, SUN_WADL_MEDIA_TYPE
    root = ServiceRoot(None, sys.argv[1], cache=sys.argv[2], wadl_media_type=SUN_WADL_MEDIA_TYPE)
    print(time.perf_counter() - began)
    """
)


def start_workers(count: int, service: str, cache: str) -> list[subprocess.Popen[str]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    command = [sys.executable, "-c", WORKER, service, cache]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return [subprocess.Popen(command, text=True, env=env, **pipes) for _ in range(count)]


def finish(workers: list[subprocess.Popen[str]]) -> None:
    for worker in workers:
        _, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err[-2000:]


class Fleet:
    """What a fleet of processes started at once on an empty Redis left: its URL and counts."""

    def __init__(self, service: str, handler: Any, redis_url: str) -> None:
        self.service, self.handler, self.redis_url = service, handler, redis_url
        # Two overlap as surely as more (the WADL is sent 0.3 s late); with claims
        # always granted, both download it.
        finish(start_workers(2, service, redis_url))
        self.wadl_sent: int = handler.wadl_sent
        self.keys = keys(redis_url)


@pytest.fixture(scope="module")
def fleet(launchpad_wadl_server: tuple[str, Any], redis_url: str) -> Fleet:
    """A fleet started once for the module's tests of what it leaves (each parse of the
    Launchpad WADL in a new process costs about a second), on a database of its own
    that no other test empties."""
    own = redis_url.rsplit("/", 1)[0] + "/1"
    with redis.Redis.from_url(own) as client:
        client.flushdb()
    return Fleet(*launchpad_wadl_server, own)


def test_a_fleet_starting_at_once_on_an_empty_redis_downloads_the_wadl_once(fleet: Fleet) -> None:
    assert fleet.wadl_sent == 1
    assert any(key.startswith(b"wadlclient:wadl-model-") for key in fleet.keys)


def test_a_new_process_starts_warm_from_redis_the_model_included(fleet: Fleet) -> None:
    served = fleet.handler.requests_served
    with redis.Redis.from_url(fleet.redis_url) as client:
        model = next(iter(client.keys("wadlclient:wadl-model-*")))
        client.set(model, b"damaged", keepttl=True)  # a new process must repair it

    finish(start_workers(1, fleet.service, fleet.redis_url))

    assert fleet.handler.requests_served == served  # WADL and root fresh in Redis: no request
    with redis.Redis.from_url(fleet.redis_url) as client:
        assert client.get(model) not in (None, b"damaged")


def test_processes_writing_and_reading_the_same_entries_never_see_a_torn_one(
    empty_redis: str,
) -> None:
    # benchmarks.fleet's mixer: a read is torn when its bytes do not parse or
    # its body does not match the digest its writer put in the ETag. Two mixers
    # race as surely as four (a save split into SET and APPEND is caught by
    # either): one in a process of its own, one in this process, started once
    # the other has written (its start-up, ~0.7 s of imports, is not mixing).
    from benchmarks.fleet import mix

    command = [sys.executable, "-m", "benchmarks.fleet", "--child", "mix", empty_redis]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    mixer = subprocess.Popen([*command, "1", "1200"], cwd=REPO, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    with redis.Redis.from_url(empty_redis) as client:
        deadline = time.monotonic() + 30
        while not client.dbsize() and mixer.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
    counts = [mix(empty_redis, seed=0, operations=1200)]
    out, err = mixer.communicate(timeout=60)
    assert mixer.returncode == 0, err[-2000:]
    counts.append(json.loads(out.strip().splitlines()[-1]))

    assert sum(c["reads"] for c in counts) - sum(c["misses"] for c in counts) > 500
    assert sum(c["torn"] for c in counts) == 0, counts


def test_the_mixer_counts_an_entry_that_does_not_match_its_digest_as_torn(
    empty_redis: str,
) -> None:
    from benchmarks.fleet import MIX_NAMES, mix

    store = RedisStore(empty_redis, ttl=60)
    cache = StoreCache(store)
    for index in range(MIX_NAMES):
        url = f"http://fleet.test/1.0/entries/{index}"
        body = b"whole body"
        answer = type("Answer", (), {"status": 200, "headers": {"ETag": '"not its digest"'}})
        cache.put(url, "application/json", answer, body)

    counts = mix(empty_redis, seed=0, operations=20)

    assert counts["torn"] > 0
