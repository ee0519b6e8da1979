"""Shared test configuration.

The service fixtures (``cookbook_service``, ``cookbook_service_factory``)
come from the ``cookbook_service.testing`` pytest plugin, registered by the
package's entry point. The shared data (the Launchpad WADL) is found the
way the benchmarks find it: ``$WADLCLIENT_SHARED_DIR``, then ``shared/``
beside the clone (as in CI), then ``/work/shared``.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.config import launchpad_wadl_path as _launchpad_wadl_path
from tests.realservice.lazr_example import LazrExample, lazr_examples
from tests.tls_service import TLSService, running_tls_service

from cookbook_service.testing import RunningService

#: pytest-xdist's controller rewrites the test modules' asserts once for all its workers.
pytest_plugins = ["tests.rewrite_once"]

#: The modules whose tests run longest (each a single test of 6 to 17 s, in a suite of
#: 2,000-odd tests of a tenth of a second), in that order.
LONGEST_FIRST = (
    "tests/differential/test_lazr_differential.py",
    "tests/bench/test_bench_harness.py",
    "tests/newcomer/test_docs.py",
    "tests/consumers/test_craft_application.py",
    "tests/consumers/test_small_programs_on_wadlclient.py",
    "tests/newcomer/test_docs_site.py",
    "tests/hostile/test_fuzz.py",
    "tests/typed/test_launchpad_devel.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, the rest in their order: no long test is the last to start.

    pytest-xdist's worksteal hands each worker a run of the list and lets
    an idle one take the second half of what another has not started; a
    long test near the end of a run starts when the others are nearly done
    and keeps the whole suite waiting. Run first, the long tests overlap
    everything else. Whole modules move, so a module's tests stay together.
    """
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(autouse=True)
def _no_secret_held_from_an_earlier_test() -> Iterator[None]:
    """Each test starts with no credential held for redaction (`wadlclient.redact.forget`).

    A worker runs many tests in one process: a password such as ``secret``
    held by one would hide that word in a later test's messages.
    """
    yield
    from wadlclient.redact import forget

    forget()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep what collection made (modules, test items: all alive to the end) out of the GC's walks.

    Each full collection walks every tracked object; collecting the whole
    suite leaves about 140,000 of them, and walking those again and again
    cost about a second of CPU per worker, for nothing. `gc.freeze` moves
    them out of its sight; objects made later are collected as before.
    """
    gc.freeze()
    _blocks_at_freeze[0] = sys.getallocatedblocks()


#: Python's own thresholds for its cyclic collector, as this process started with them.
PYTHON_GC_THRESHOLDS = gc.get_threshold()

#: The collector's thresholds while the suite runs: a young collection every 50,000
#: new objects, not every 700.
SUITE_GC_THRESHOLDS = (50_000, 20, 10)

#: Collect and freeze at the end of a module once this many more memory blocks are allocated
#: than after the last freeze (about 100,000 objects the collector tracks: a tracked object
#: comes with three or four blocks of its own and of what it holds). Counting the tracked
#: objects themselves (`gc.get_objects`) walks them all, at every module's end.
FREEZE_AFTER_BLOCKS = 400_000

#: The blocks allocated after the last freeze (`sys.getallocatedblocks`).
_blocks_at_freeze = [0]


def _freeze() -> None:
    """Collect, then move what is left out of the collector's sight (`gc.freeze`)."""
    gc.collect()
    gc.freeze()
    _blocks_at_freeze[0] = sys.getallocatedblocks()


def pytest_configure(config: pytest.Config) -> None:
    """The cyclic collector run less often, for the whole run (collection included).

    At Python's thresholds it ran thousands of times per worker, most
    often during the Launchpad WADL parses (stock launchpadlib parses the
    2.2 MB devel WADL, some 400,000 objects, at every login). Garbage is
    still collected, in larger batches. The tests that measure memory run
    at Python's own thresholds (`python_gc_thresholds`).
    """
    gc.set_threshold(*SUITE_GC_THRESHOLDS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a module's last test: what outlives the module collected once, then frozen.

    What a module leaves alive once its fixtures are gone (imported packages,
    memos, session fixtures: the Launchpad WADL's models, craft-application)
    lives to the end of the run, and every full collection walked it again:
    the full passes, half a second each, cost more than all the others. The
    garbage collected first, what is left is frozen out of the collector's
    sight, as `pytest_collection_finish` does with what collection made.
    Objects made later are collected as before. A module that leaves little
    behind costs nothing here.
    """
    result = yield
    last_of_module = nextitem is None or nextitem.path != item.path
    if last_of_module and sys.getallocatedblocks() - _blocks_at_freeze[0] > FREEZE_AFTER_BLOCKS:
        _freeze()
    return result


@pytest.fixture
def python_gc_thresholds() -> Iterator[None]:
    """Python's own collector thresholds for a test that measures memory, set back after it.

    A test that takes tracemalloc's peak, or counts what is left after a
    walk, measures the memory a user's program holds: at the suite's larger
    thresholds, cyclic garbage would wait longer to be collected and count
    in the peak.
    """
    suite = gc.get_threshold()
    gc.set_threshold(*PYTHON_GC_THRESHOLDS)
    yield
    gc.set_threshold(*suite)


@pytest.fixture(scope="session")
def launchpad_wadl_path() -> Path:
    """The 1.5 MB Launchpad WADL from the shared test data."""
    return _launchpad_wadl_path()


@pytest.fixture(scope="session")
def launchpad_wadl_bytes(launchpad_wadl_path: Path) -> bytes:
    """The Launchpad WADL's bytes, read once per session."""
    return launchpad_wadl_path.read_bytes()


@pytest.fixture(scope="module")
def tls_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TLSService]:
    """The example service over TLS on loopback, its certificate signed by a CA of its own."""
    with running_tls_service(tmp_path_factory.mktemp("tls")) as service:
        yield service


@pytest.fixture(scope="session")
def _lazr_examples() -> Iterator[list[LazrExample]]:
    """lazr.restful's example service as shipped and one recipe per page, from one process.

    Its tests only read; one process loads the ZCML (most of a start's CPU)
    once for both, and for every module of the run that asks for either.
    """
    with lazr_examples(None, 1) as services:
        yield services


@pytest.fixture
def lazr_example_one_per_page(_lazr_examples: list[LazrExample]) -> LazrExample:
    """lazr.restful's example service serving one recipe per page (its private one empties one)."""
    return _lazr_examples[1]


@pytest.fixture
def lazr_example(_lazr_examples: list[LazrExample]) -> LazrExample:
    """lazr.restful's example service as it ships (pages of five)."""
    return _lazr_examples[0]


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A redis-server of this session's own on a free loopback port (skips, saying why, without).

    ``make test`` installs Debian's redis-server when it is missing.
    """
    from benchmarks.redis_server import RedisUnavailable, redis_server

    try:
        server = redis_server()
        running = server.__enter__()
    except RedisUnavailable as error:
        pytest.skip(f"no Redis server for the Redis cache tests: {error}")
    try:
        yield running.url
    finally:
        server.__exit__(None, None, None)


@pytest.fixture
def empty_redis(redis_url: str) -> str:
    """The session's Redis URL, its database emptied first."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        client.flushdb()
    return redis_url


#: (the store, a name, a password) -> the record the store held once that user was added.
_ADDED: dict[tuple[int, str, str], tuple[Any, tuple[str, str] | None]] = {}


@pytest.fixture
def add_user() -> Callable[[RunningService, str, str], None]:
    """``add_user(service, name, password)``: ``service.add_user``, hashing only when needed.

    A pooled service keeps its users from test to test, and each hash is a
    scrypt (~60 ms of CPU): the user is added again only when the store does
    not hold the very record this name and password were given last time
    (another test may have given the name another password).
    """

    def add(service: RunningService, name: str, password: str) -> None:
        key = (id(service.store), name, password)
        held = _ADDED.get(key)
        if held is not None and held[0] is service.store:
            record = service.store.password_record(name)
            if record is not None and record == held[1]:
                return
        service.add_user(name, password)
        _ADDED[key] = (service.store, service.store.password_record(name))

    return add
