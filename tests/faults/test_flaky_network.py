"""A flaky network costs time, not errors, for idempotent requests.

A real socket proxy (benchmarks/faultproxy.py, shared with ``make bench``)
stands in front of the example service and, for a seeded share of requests, answers 429/502/503/504,
drops the connection or stalls. A read workload through it, service root
creation included, must give the caller exactly what it gives without
faults: every fault costs one request more on the wire and nothing else.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks.faultproxy import DROP, STALL, FaultPlan, FaultProxy

from cookbook_service.testing import RunningService
from wadlclient import Retry, ServerError, ServiceRoot

#: Shares of faults per request: about half the requests meet one.
FLAKY = FaultPlan(
    statuses={503: 0.2, 502: 0.06, 504: 0.06, 429: 0.06}, drop=0.08, stall=0.06, seed=7
)
#: Short stalls and waits, so that the test takes seconds: the rules are the same.
TIMEOUT = 0.5
FAST_RETRY = Retry(total=6, backoff_max=0.05)


def _workload(root: ServiceRoot) -> dict[str, Any]:
    """Positional reads, lookups by key, walks and a link of an entry: what a script reads."""
    recipes = root.recipes
    return {
        "size": len(recipes),
        "positional": [recipes[index].id for index in range(0, 40, 4)],
        "lookups": [recipes.lookup(key).id for key in range(1, 41, 5)],
        "walk": [recipe.id for recipe in recipes],
        "dishes": sorted(dish.name for dish in root.dishes),
        "slice": [recipe.id for recipe in recipes[7:19]],
        "link": recipes[3].dish.name,
    }


def _run(proxy: FaultProxy) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    with ServiceRoot(None, proxy.url, timeout=TIMEOUT, retry=FAST_RETRY) as root:
        result = _workload(root)
    return result, time.monotonic() - started


def test_a_read_workload_through_a_flaky_network_reaches_the_caller_without_errors(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    expected, calm_seconds = _run(fault_proxy(FaultPlan()))
    needed = len(flaky_service.journal)
    flaky_service.journal.clear()

    proxy = fault_proxy(FLAKY)
    result, flaky_seconds = _run(proxy)

    assert result == expected
    faults = proxy.faults()
    stalls = proxy.count(STALL)
    assert faults >= 10 and stalls >= 1 and proxy.count(DROP) >= 1
    assert all(proxy.count(status) >= 1 for status in (429, 502, 503, 504))
    # Every fault cost exactly one request more; the service saw what it needs.
    assert len(flaky_service.journal) == needed
    assert len(proxy.journal) == needed + faults
    # Each stall costs one timeout; each other fault a wait of at most the backoff cap.
    bound = 1.5 * calm_seconds + stalls * TIMEOUT + faults * FAST_RETRY.backoff_max + 2.0
    assert flaky_seconds < bound


def test_a_post_through_the_flaky_network_is_sent_once(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    proxy = fault_proxy(FaultPlan(statuses={503: 1.0}, methods=frozenset({"POST"})))
    with ServiceRoot(None, proxy.url, timeout=TIMEOUT, retry=FAST_RETRY) as root:
        cookbook = root.cookbooks[0]
        with pytest.raises(ServerError) as caught:
            cookbook.make_more_interesting()

    assert caught.value.attempts == 1
    assert proxy.count(method="POST") == 1
    assert [e.method for e in flaky_service.journal.entries() if e.method == "POST"] == []


def test_a_stalled_post_is_not_sent_again(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    proxy = fault_proxy(FaultPlan(stall=1.0, methods=frozenset({"POST"}), stall_seconds=5))
    with ServiceRoot(None, proxy.url, timeout=TIMEOUT, retry=FAST_RETRY) as root:
        cookbook = root.cookbooks[0]
        with pytest.raises(Exception, match="POST is not retried") as caught:
            cookbook.make_more_interesting()

    assert "timed out" in str(caught.value)
    assert proxy.count(method="POST") == 1
