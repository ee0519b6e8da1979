"""The Redis cache's edges: a trickling server, a huge value, a claim on an uncacheable WADL.

Real parts: a redis-server of the test's own behind a real TCP proxy that
trickles its replies (`trickle`), and worker processes starting at once
against a loopback server of the Launchpad WADL.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis
from benchmarks.lpserver import make_handler, root_json
from benchmarks.redis_server import redis_server
from tests.cache.trickle import TrickleProxy

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from cookbook_service.wadl import generate_wadl
from wadlclient import SUN_WADL_MEDIA_TYPE, ServiceRoot
from wadlclient.cache import RedisStore, StoreCache

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_redis(redis_url: str) -> Iterator[Any]:
    """A redis-server of this test's own (``redis_url`` is asked for only to skip without one)."""
    with redis_server() as server:
        yield server


def test_a_trickling_redis_costs_a_worker_a_few_seconds_and_one_warning(
    own_redis: Any, cookbook_service: RunningService, caplog: pytest.LogCaptureFixture
) -> None:
    """Replies 64 bytes every 0.3 s: each read is within the socket timeout, the whole is not."""
    with TrickleProxy(own_redis.port, chunk=64, interval=0.3) as proxy:
        began = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
            root = ServiceRoot(None, cookbook_service.base_url, cache=proxy.url())
            read = [root.recipes[str(each)].instructions for each in PUBLIC_RECIPE_IDS[:4]]
            root.close()
        took = time.monotonic() - began

    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "unavailable" in warnings[0], warnings
    assert all(read)  # the client went on without the cache
    assert took < 5  # the issue measured 111.7 s


def test_many_small_slow_replies_add_up_to_too_slow(
    own_redis: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Each reply (one piece, 0.3 s late) ends within its bound; together they are too slow."""
    with TrickleProxy(own_redis.port, chunk=4096, interval=0) as proxy:
        store = RedisStore(proxy.url(), timeout=0.5)
        store.exists("connected")  # at full speed
        proxy.interval = 0.3
        began = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
            found = [store.exists(f"entry-{index}") for index in range(40)]
        took = time.monotonic() - began
        store.close()

    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert found == [False] * 40
    assert len(warnings) == 1 and "too slow" in warnings[0], warnings
    assert took < 6  # not 40 x 0.3 s = 12 s: the bound is half that, for a loaded machine


def test_a_value_over_the_size_limit_is_refused_before_it_is_read_whole(
    own_redis: Any,
) -> None:
    with redis.Redis.from_url(own_redis.url) as client:
        client.set("wadlclient:huge", b"x" * (16 << 20))
        client.set("wadlclient:small", b"y" * 1000)
    with TrickleProxy(own_redis.port, interval=0) as proxy:
        store = RedisStore(proxy.url(), max_entry_bytes=1 << 20)

        huge, small = store.load("huge"), store.load("small")

        store.close()
        read = proxy.returned
    assert (huge, small) == (None, b"y" * 1000)
    assert read < 2 << 20  # not the 16 MiB


def test_an_upper_case_redis_scheme_is_a_redis_url(
    empty_redis: str, cookbook_service: RunningService
) -> None:
    upper = "REDIS" + empty_redis[len("redis") :]

    ServiceRoot(None, cookbook_service.base_url, cache=upper).close()

    with redis.Redis.from_url(empty_redis) as client:
        assert client.keys("wadlclient:*")


@pytest.fixture
def uncacheable_wadl_server() -> Iterator[tuple[str, Any]]:
    """The example service's WADL on loopback, with ``no-store``: (URL, handler).

    Its own small WADL, not Launchpad's: each worker parses the WADL it
    fetched, and what is under test is the claim, whatever the document.

    The handler class counts the WADLs sent (``wadl_sent``) and keeps when
    each WADL request came and each WADL was sent (``asked``, ``sent``). The
    first WADL is held until the test sets ``release`` (30 s at most), so the
    test decides what is under way while a worker waits for it.
    """
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)  # set below
    base = f"http://127.0.0.1:{server.server_address[1]}/1.0/"
    wadl = generate_wadl(base, SUN_WADL_MEDIA_TYPE)
    handler = make_handler(wadl, root_json(wadl, base))

    class NoStore(handler):  # type: ignore[valid-type,misc]
        asked: list[float] = []
        sent: list[float] = []
        release = threading.Event()

        def _send(self, status: int, media_type: str, body: bytes) -> None:
            if "wadl" in media_type:
                NoStore.asked.append(time.monotonic())
                if len(NoStore.asked) == 1:
                    NoStore.release.wait(30)
            super()._send(status, media_type, body)
            if "wadl" in media_type:
                NoStore.sent.append(time.monotonic())

        def send_header(self, keyword: str, value: str) -> None:
            if keyword.lower() == "cache-control":
                value = "no-store"
            super().send_header(keyword, value)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server.RequestHandlerClass = NoStore
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield base.removesuffix("1.0/"), NoStore
    finally:
        NoStore.release.set()
        server.shutdown()
        server.server_close()


WORKER = textwrap.dedent(
    """
    import sys
    from wadlclient import ServiceRoot, SUN_WADL_MEDIA_TYPE
    from wadlclient.cache.redis_store import RedisStore

    real_state = RedisStore.claim_state

    def claim_state(self, name):  # each state of a claim this worker reads, told on stdout
        state = real_state(self, name)
        print("claim", state, name, flush=True)
        return state

    RedisStore.claim_state = claim_state
    print("imported", flush=True)
    ServiceRoot(None, sys.argv[1], cache=sys.argv[2], wadl_media_type=SUN_WADL_MEDIA_TYPE).close()
    """
)


def test_a_claim_on_an_uncacheable_wadl_ends_with_its_answer(
    uncacheable_wadl_server: tuple[str, Any], empty_redis: str
) -> None:
    """The first worker's WADL says no-store: the other stops waiting when it arrives.

    The waiting worker reads the claim as released (the first one's answer
    came), never as lapsed (the 5 s claim run out): told by the worker,
    not timed.
    """
    service, handler = uncacheable_wadl_server
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    command = [sys.executable, "-c", WORKER, service, empty_redis]
    workers = [subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)]
    _until(lambda: bool(handler.asked))  # the first holds the claim and waits for its WADL
    workers.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True))
    assert workers[1].stdout is not None and workers[1].stdout.readline() == "imported\n"
    time.sleep(0.3)  # the second, past its imports, now waits on the claim
    handler.release.set()

    seen, _ = workers[1].communicate(timeout=60)
    codes = [worker.wait(timeout=60) for worker in workers]

    assert codes == [0, 0]
    assert handler.wadl_sent == 2  # nothing stored: each fetched its own
    # The states it read of the claim on the WADL's answer (its claim on the model is another).
    states = [line.split()[1] for line in seen.splitlines() if "vnd.sun.wadl+xml" in line]
    assert states and states[-1] == "released" and "None" not in states, seen


def _until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_lapsed_claim_is_taken_over_by_one_waiter_not_all(empty_redis: str) -> None:
    """A claimant that never stores (it died): one waiter takes its place, the others wait on."""
    url, wadl = "http://fleet.test/1.0/", "application/vnd.sun.wadl+xml"
    caches = [StoreCache(RedisStore(empty_redis), owns_store=True, fill_wait=1.0) for _ in "abcd"]
    assert caches[0].get(url, wadl) is None  # the claimant, which will never answer
    outcomes: dict[int, str] = {}

    def worker(index: int) -> None:
        found = caches[index].get(url, wadl)
        if found is not None:
            outcomes[index] = "served"
            return
        outcomes[index] = "fetched"
        caches[index].put(url, wadl, _Stored(), b"<application/>")

    threads = [threading.Thread(target=worker, args=(index,)) for index in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    for cache in caches:
        cache.close()
    assert sorted(outcomes.values()) == ["fetched", "served", "served"]


def test_a_released_claim_sends_newcomers_to_fetch_at_once(empty_redis: str) -> None:
    url, wadl = "http://fleet.test/1.0/", "application/vnd.sun.wadl+xml"
    claimant, newcomer = (StoreCache(RedisStore(empty_redis), owns_store=True) for _ in "ab")
    assert claimant.get(url, wadl) is None
    claimant.settle(url, wadl)  # its answer proved uncacheable

    looks: list[str] = []
    state_of = newcomer.store.claim_state  # type: ignore[attr-defined]

    def counted(name: str) -> str | None:
        looks.append(name)
        return state_of(name)  # type: ignore[no-any-return]

    newcomer.store.claim_state = counted  # type: ignore[attr-defined]
    found = newcomer.get(url, wadl)

    claimant.close()
    newcomer.close()
    # Counted, not timed: one look at the claim says "released", so no wait for its 5 s.
    assert found is None and len(looks) == 1


class _Stored:
    """An answer a cache stores: 200, a lifetime."""

    status = 200
    headers = {"Cache-Control": "max-age=3600", "Content-Type": "application/vnd.sun.wadl+xml"}
