"""A fleet of unchanged launchpadlib programs on wadlclient shares one cache: $WADLCLIENT_CACHE.

launchpadlib passes wadlclient a cache *directory* (under its
``launchpadlib_dir``); the variable takes its place, so a Redis server
(a real one, started for the session) serves every worker. Each run is a
new container-like child whose own directory is a fresh temporary one:
only Redis can make the second start warm. The Launchpad-like loopback
service's journal shows which requests reached it.
"""

from __future__ import annotations

import redis
from tests.lazr.lpservice import LoopbackServer
from tests.lazr.test_login_from_environment import CREDENTIALS, answer, run_in_container


def _wadl_requests(server: LoopbackServer) -> list[int]:
    return [exchange.status for exchange in server.state.journal if "wadl" in exchange.accept]


def test_the_second_launchpadlib_start_on_a_shared_redis_downloads_no_wadl(
    launchpad_like: LoopbackServer, empty_redis: str
) -> None:
    first = answer(run_in_container(launchpad_like, CREDENTIALS, cache=empty_redis))
    assert _wadl_requests(launchpad_like) == [200]
    with redis.Redis.from_url(empty_redis) as client:
        assert client.keys("wadlclient:wadl-model-*") != []
    launchpad_like.state.journal.clear()

    second = answer(run_in_container(launchpad_like, CREDENTIALS, cache=empty_redis))

    assert second["people"] == first["people"] == ["ada", "alan", "grace"]
    assert _wadl_requests(launchpad_like) == []
    sent = [exchange.path.partition("?")[0] for exchange in launchpad_like.state.journal]
    assert sent == ["/1.0/people"]  # the root (WADL and JSON) came from Redis


def test_without_the_variable_each_container_downloads_the_wadl_again(
    launchpad_like: LoopbackServer,
) -> None:
    for _run in range(2):
        answer(run_in_container(launchpad_like, CREDENTIALS))

    assert _wadl_requests(launchpad_like) == [200, 200]


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
