"""Bulk changes through a flaky network: nothing lost, nothing done twice, every failure named.

The fault proxy (benchmarks/faultproxy.py) answers a seeded share of the
saves with 503 (not passed on: the save did not act), or passes a save on
and loses its answer (the save acted; the client hears nothing). The
change appends to the recipe's instructions, so a save applied twice
would show twice: every recipe must end with it exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.faultproxy import LOSE, FaultPlan, FaultProxy

from cookbook_service.testing import RunningService
from wadlclient import BulkPolicy, Retry, ServerError, ServiceRoot, bulk

#: Quick waits: the rules are those of the defaults.
QUICK = BulkPolicy(backoff_base=0.01)
FAST_RETRY = Retry(backoff_max=0.02)
MARK = " [bulk]"


def mark(recipe: Any) -> None:
    recipe.instructions = recipe.instructions + MARK


def marked(service: RunningService) -> dict[int, int]:
    """How many times the instructions of each recipe anyone may see carry the mark."""
    rows, _total = service.store.recipes(0, 1000, sees_private=False)
    return {int(row["id"]): str(row["instructions"]).count(MARK) for row in rows}


def test_saves_answered_503_are_sent_again_and_land_once(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    proxy = fault_proxy(FaultPlan(method_statuses={"PATCH": {503: 0.3}}, seed=3))
    with ServiceRoot(None, proxy.url, retry=FAST_RETRY) as root:
        report = bulk.update(root.recipes, mark, policy=QUICK)

    refused = proxy.count(503, "PATCH")
    recipes = len(marked(flaky_service))
    assert report.ok and len(report) == recipes == 48 and refused > 5
    assert report.counts()["writes"] == recipes + refused
    assert set(marked(flaky_service).values()) == {1}


def test_saves_whose_answer_was_lost_are_not_sent_twice(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    proxy = fault_proxy(FaultPlan(lose=0.25, methods=frozenset({"PATCH"}), seed=5))
    with ServiceRoot(None, proxy.url, retry=FAST_RETRY) as root:
        report = bulk.update(root.recipes, mark, policy=QUICK)

    lost = proxy.count(LOSE, "PATCH")
    assert report.ok and lost > 5
    assert set(marked(flaky_service).values()) == {1}
    # A lost answer cost a read, no second save.
    assert [e.status for e in flaky_service.journal.entries() if e.method == "PATCH"] == [209] * 48


def test_saves_that_keep_failing_are_reported_and_retried_later(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    down = FaultPlan(method_statuses={"PATCH": {503: 1.0}}, max_in_a_row=100)
    proxy = fault_proxy(down)
    with ServiceRoot(None, proxy.url, retry=FAST_RETRY) as root:
        report = bulk.update(root.recipes[:4], mark, policy=QUICK._replace(resends=2))
        assert [type(r.error) for r in report.failed] == [ServerError] * 4
        assert report.counts()["writes"] == 4 * 3
        assert "HTTP Error 503" in str(report)

        proxy.plan = FaultPlan()  # the service is back
        again = report.retry()

    assert again.ok and [r.item for r in again] == [r.item for r in report]
    assert list(marked(flaky_service).values())[:4] == [1, 1, 1, 1]


def test_a_named_operation_answered_503_is_reported_and_not_sent_again(
    flaky_service: RunningService, fault_proxy: Callable[[FaultPlan], FaultProxy]
) -> None:
    proxy = fault_proxy(FaultPlan(method_statuses={"POST": {503: 0.5}}, seed=11))
    names = [f"Bulk book {n}" for n in range(12)]
    with ServiceRoot(None, proxy.url, retry=FAST_RETRY) as root:

        def create(name: str) -> Any:
            return root.cookbooks.create(
                name=name, cuisine="General", copyright_date="2024-01-01", price=1.0
            )

        report = bulk.call(names, create, policy=QUICK)

    assert proxy.count(method="POST") == 12  # each call made once
    failed = {r.item for r in report.failed}
    assert failed and all(isinstance(r.error, ServerError) for r in report.failed)
    created = {r.item for r in report if r.status == "called"}
    assert len(created) + len(failed) == 12
    assert all(repr(r.value.name) == r.item for r in report if r.status == "called")
