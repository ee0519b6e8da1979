"""lazr.restfulclient's ServiceRoot on wadlclient takes a Redis URL as its cache, as ours does."""

from __future__ import annotations

from tests.lazr.lpservice import LoopbackServer

from wadlclient.lazr.restfulclient.resource import ServiceRoot


def test_a_second_lazr_root_on_a_warm_redis_asks_nothing_for_the_wadl(
    launchpad_like: LoopbackServer, empty_redis: str
) -> None:
    ServiceRoot(None, launchpad_like.service_root, empty_redis, version="1.0")
    first = [e.status for e in launchpad_like.state.journal if "wadl" in e.accept]

    ServiceRoot(None, launchpad_like.service_root, empty_redis, version="1.0")
    again = [e.status for e in launchpad_like.state.journal if "wadl" in e.accept]

    assert first == [200]
    assert again == [200]  # the root is fresh for an hour: served from Redis, no request
