"""A fleet of unchanged launchpadlib programs on wadlclient shares one cache: $WADLCLIENT_CACHE.

launchpadlib passes wadlclient a cache *directory* (under its
``launchpadlib_dir``); the variable takes its place, so a Redis server
(a real one, started for the session) serves every worker. Each run is a
new container-like child whose own directory is a fresh temporary one:
only Redis can make the second start warm. The Launchpad-like loopback
service's journal shows which requests reached it. The containers of the
first two tests run once, in turn, on one service (`fleet`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from tests.lazr.lpservice import Exchange, LoopbackServer
from tests.lazr.test_login_from_environment import CREDENTIALS, answer, run_in_container


@dataclass
class Run:
    """What one container's run printed, and the requests of it that reached the service."""

    result: dict[str, Any]
    sent: list[Exchange]


@dataclass
class Fleet:
    """Three containers in turn on one service: two sharing Redis, then one without the variable."""

    cold: Run
    warm: Run
    plain: Run
    #: The Redis keys of WADL models once the first container was done.
    models: list[bytes]


@pytest.fixture(scope="module")
def fleet(launchpad_wadl_bytes: bytes, redis_url: str) -> Iterator[Fleet]:
    """The `Fleet`'s runs, made once (each a new container-like child); the tests only read."""
    with redis.Redis.from_url(redis_url) as client:
        client.flushdb()
        with LoopbackServer(launchpad_wadl_bytes) as server:
            runs: list[Run] = []
            models: list[bytes] = []
            for cache in (redis_url, redis_url, None):
                result = answer(run_in_container(server, CREDENTIALS, cache=cache))
                runs.append(Run(result, list(server.state.journal)))
                server.state.journal.clear()
                models = models or client.keys("wadlclient:wadl-model-*")
            yield Fleet(*runs, models=models)


def _wadl_requests(run: Run) -> list[int]:
    return [exchange.status for exchange in run.sent if "wadl" in exchange.accept]


def test_the_second_launchpadlib_start_on_a_shared_redis_downloads_no_wadl(fleet: Fleet) -> None:
    assert _wadl_requests(fleet.cold) == [200]
    assert fleet.models != []

    assert fleet.warm.result["people"] == fleet.cold.result["people"] == ["ada", "alan", "grace"]
    assert _wadl_requests(fleet.warm) == []
    sent = [exchange.path.partition("?")[0] for exchange in fleet.warm.sent]
    assert sent == ["/1.0/people"]  # the root (WADL and JSON) came from Redis


def test_without_the_variable_each_container_downloads_the_wadl_again(fleet: Fleet) -> None:
    # After two containers that left the WADL and its model in Redis.
    assert fleet.plain.result["people"] == ["ada", "alan", "grace"]
    assert _wadl_requests(fleet.plain) == [200]


def test_a_bad_value_is_one_line_naming_the_variable_never_its_password(
    launchpad_like: LoopbackServer,
) -> None:
    done = run_in_container(launchpad_like, CREDENTIALS, cache="redis://:hunter2@cache:port/0")

    assert done.returncode == 2
    assert done.stderr == (  # one line, before the program starts
        "python -m wadlclient.lazr_compat: $WADLCLIENT_CACHE is 'redis://cache:port/0': the "
        "port is not a number from 0 to 65535 (give redis://host:port/db, rediss://..., "
        "unix:///path or a directory path)\n"
    )
    assert "hunter2" not in done.stderr
    assert launchpad_like.state.journal == []
