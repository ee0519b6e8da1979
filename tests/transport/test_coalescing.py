"""Identical GETs in flight are sent once; their askers share the one answer.

The example service answers after 300 ms here, so requests started
together are surely in flight together; its journal counts what was sent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from cookbook_service.testing import RunningService
from wadlclient.errors import NotFound
from wadlclient.http import HTTPResponse, Transport

LATENCY_MS = 300


@pytest.fixture
def slow(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    return cookbook_service_factory(latency_ms=LATENCY_MS)


def _together(count: int, call: Callable[[], object]) -> list[object]:
    """``call()`` on ``count`` threads released at once; their results or errors."""
    results: list[object] = [None] * count
    gate = threading.Barrier(count)

    def run(index: int) -> None:
        gate.wait()
        try:
            results[index] = call()
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return results


def _sent(service: RunningService, path: str) -> int:
    return sum(1 for entry in service.journal.entries() if entry.path == path)


def test_threads_asking_for_the_same_url_at_once_share_one_request(slow: RunningService) -> None:
    url = slow.url("recipes/1")
    with Transport() as transport:
        answers = _together(4, lambda: transport.request("GET", url))

    assert _sent(slow, "/1.0/recipes/1") == 1
    assert all(isinstance(a, HTTPResponse) and a.json()["id"] == 1 for a in answers)


def test_an_error_in_flight_is_every_askers_error(slow: RunningService) -> None:
    url = slow.url("recipes/9999")
    with Transport() as transport:
        answers = _together(3, lambda: transport.request("GET", url))

    assert _sent(slow, "/1.0/recipes/9999") == 1
    assert all(isinstance(a, NotFound) for a in answers)


def test_a_request_begun_early_is_joined_by_a_later_read_of_the_same_url(
    slow: RunningService,
) -> None:
    url = slow.url("recipes/2")
    with Transport() as transport:
        pending = transport.begin("GET", url)
        read = transport.request("GET", url)
        early = pending.result()

    assert _sent(slow, "/1.0/recipes/2") == 1
    assert read.json() == early.json()


def test_requests_with_headers_of_their_own_are_not_shared(slow: RunningService) -> None:
    url = slow.url("recipes/3")
    with Transport() as transport:
        _together(2, lambda: transport.request("GET", url, headers={"X-Trace": "1"}))

    assert _sent(slow, "/1.0/recipes/3") == 2


def test_after_an_answer_lands_the_next_request_is_sent_anew(slow: RunningService) -> None:
    url = slow.url("recipes/4")
    with Transport() as transport:
        transport.request("GET", url)
        transport.request("GET", url)

    assert _sent(slow, "/1.0/recipes/4") == 2
