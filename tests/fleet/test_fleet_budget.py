"""The request budget shared through Redis (RedisBudget), against a real redis-server.

The service's journal counts what reached it: requests in flight at once,
requests per one-second window. Several roots in one process stand for
several workers here (each has its own connections and its own Redis
client); tests/fleet/test_fleet_celery.py holds a fleet of real workers
to the same budget.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import redis

from cookbook_service.seed import PUBLIC_RECIPE_IDS
from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.errors import ConnectError, TransportTimeout
from wadlclient.fleet import FleetError, RedisBudget, ShardBusy, ShardTaken
from wadlclient.http import Transport
from wadlclient.http.budget import use_budget

ORIGIN = ("http", "127.0.0.1", 1)


@pytest.fixture
def installed() -> Iterator[None]:
    """Whatever budget the test installs for the process is removed after it."""
    yield
    use_budget(None)


def fetch_in_threads(service: RunningService, roots: int, each: int) -> None:
    """``roots`` roots, each in its own thread, fetch ``each`` recipes (one request apiece)."""
    made = [ServiceRoot(None, service.base_url) for _ in range(roots)]
    service.journal.clear()

    def fetch(root: ServiceRoot) -> None:
        for n in range(each):
            recipe_id = PUBLIC_RECIPE_IDS[n % len(PUBLIC_RECIPE_IDS)]
            root.recipes[str(recipe_id)].lp_refresh()

    threads = [threading.Thread(target=fetch, args=(root,)) for root in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_requests_in_flight_stay_within_the_shared_budget(
    cookbook_service_factory: Callable[..., RunningService], empty_redis: str, installed: None
) -> None:
    service = cookbook_service_factory(latency_ms=60)
    use_budget(RedisBudget(redis.Redis.from_url(empty_redis), in_flight=2))

    fetch_in_threads(service, roots=6, each=3)

    assert service.journal.most_concurrent() <= 2


def test_the_rate_holds_in_every_one_second_window(
    cookbook_service: RunningService, empty_redis: str, installed: None
) -> None:
    use_budget(RedisBudget(redis.Redis.from_url(empty_redis), rate=20))

    fetch_in_threads(cookbook_service, roots=3, each=10)

    starts = sorted(entry.started for entry in cookbook_service.journal.entries())
    assert len(starts) >= 30
    busiest = max(sum(1 for s in starts if first <= s < first + 1.0) for first in starts)
    assert busiest <= 22  # 20 a second, and no more than 10 % over


def test_a_slot_never_given_back_is_free_again_when_its_lease_runs_out(empty_redis: str) -> None:
    budget = RedisBudget(redis.Redis.from_url(empty_redis), in_flight=1, lease=0.5)
    budget.take(ORIGIN, slot=True, until=None)  # its holder is killed: never given back

    with pytest.raises(TransportTimeout, match="request budget"):
        budget.take(ORIGIN, slot=True, until=time.monotonic() + 0.05)
    budget.take(ORIGIN, slot=True, until=time.monotonic() + 10).give()


def test_a_slot_given_back_is_free_at_once(empty_redis: str) -> None:
    budget = RedisBudget(redis.Redis.from_url(empty_redis), in_flight=1, lease=600)

    budget.take(ORIGIN, slot=True, until=None).give()

    budget.take(ORIGIN, slot=True, until=time.monotonic() + 0.05).give()


def test_a_budget_out_of_reach_is_one_error_naming_it_without_the_password() -> None:
    client = redis.Redis.from_url(
        "redis://:s3cret@127.0.0.1:1/0", socket_connect_timeout=1, socket_timeout=1
    )
    budget = RedisBudget(client, rate=5)

    with pytest.raises(ConnectError, match="request budget") as caught:
        budget.take(ORIGIN, slot=True, until=None)

    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    "arguments",
    [{"rate": 0}, {"in_flight": 0}, {"in_flight": 1.5}, {"burst": 0}, {"lease": 0}],
)
def test_a_budget_that_cannot_work_is_refused(arguments: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="budget's"):
        RedisBudget(redis.Redis(), **arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "error", [FleetError("work 'x': no"), ShardBusy("shard 1 busy"), ShardTaken("taken")]
)
def test_the_fleets_errors_pickle(error: Exception) -> None:
    again = pickle.loads(pickle.dumps(error))

    assert type(again) is type(error) and str(again) == str(error)


@pytest.mark.parametrize("ending", ["read", "given up"])
def test_a_request_started_early_gives_its_slot_back_once_read_or_given_up(
    cookbook_service: RunningService, empty_redis: str, ending: str
) -> None:
    budget = RedisBudget(redis.Redis.from_url(empty_redis), in_flight=1, lease=600)
    with Transport(budget=budget, deadline=5) as transport:
        pending = transport.begin("GET", cookbook_service.base_url + "1.0/")
        if ending == "read":
            pending.result()
        else:
            pending.discard()

        # With the one slot still held, this would wait out the deadline.
        assert transport.request("GET", cookbook_service.base_url + "1.0/recipes").status == 200


def test_one_request_in_flight_still_opens_a_root_that_starts_requests_early(
    cookbook_service: RunningService, empty_redis: str, installed: None
) -> None:
    # A root sends its WADL request while its JSON is on the way: that thread
    # must not wait for the one slot it holds itself.
    use_budget(RedisBudget(redis.Redis.from_url(empty_redis), in_flight=1, lease=600))

    root = ServiceRoot(None, cookbook_service.base_url, deadline=5)

    assert len(list(root.recipes)) == len(PUBLIC_RECIPE_IDS)
