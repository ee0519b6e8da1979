"""Fixtures of the flaky-network tests: the example service behind the fault proxy."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from benchmarks.faultproxy import FaultPlan, FaultProxy

from cookbook_service.testing import RunningService


@pytest.fixture
def flaky_service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """The example service with 40 recipes (pages of 5), its journal empty."""
    return cookbook_service_factory(seed_recipes=40)


@pytest.fixture
def fault_proxy(flaky_service: RunningService) -> Iterator[Callable[[FaultPlan], FaultProxy]]:
    """``fault_proxy(plan)``: a proxy in front of ``flaky_service`` (closed after the test)."""
    made: list[FaultProxy] = []

    def start(plan: FaultPlan) -> FaultProxy:
        proxy = FaultProxy(flaky_service.port, plan).__enter__()
        made.append(proxy)
        return proxy

    yield start
    for proxy in made:
        proxy.__exit__()
