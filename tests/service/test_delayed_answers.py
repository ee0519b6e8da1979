"""``RunningService.delayed(ms)``: only the answers a test measures wait, not its set-up."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from cookbook_service.testing import RunningService


def _seconds_in_service(service: RunningService) -> float:
    """How long the service took over the last request it answered, its wait included."""
    entry = service.journal.entries()[-1]
    return entry.answered - entry.started


def test_answers_wait_inside_the_block_and_not_after(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    # A wait a loaded machine cannot mimic: an answer after the block takes far less than 1 s.
    with cookbook_service.delayed(1000):
        web.get(cookbook_service.url("recipes"))
        inside = _seconds_in_service(cookbook_service)
    web.get(cookbook_service.url("recipes"))

    assert inside >= 1.0
    assert _seconds_in_service(cookbook_service) < 1.0


def test_the_block_replaces_the_services_own_latency_and_gives_it_back(
    cookbook_service_factory: Callable[..., RunningService], web: httpx.Client
) -> None:
    service = cookbook_service_factory(latency_ms=100)
    with pytest.raises(RuntimeError), service.delayed(0):
        web.get(service.url("recipes"))
        inside = _seconds_in_service(service)
        raise RuntimeError("the block fails")
    web.get(service.url("recipes"))

    assert inside < 0.1
    assert _seconds_in_service(service) >= 0.1


def test_a_negative_latency_is_a_clear_error(cookbook_service: RunningService) -> None:
    with (
        pytest.raises(ValueError, match="latency_ms may not be negative"),
        cookbook_service.delayed(-1),
    ):
        pass
