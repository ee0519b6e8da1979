"""The pool keeps at most ``max_in_flight`` requests in flight per origin, whoever sends them.

Against the Launchpad-shaped task service of the benchmarks, which waits
20 ms per answer and counts the most requests it had in flight at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from benchmarks.lptasks import TaskService

from wadlclient import SUN_WADL_MEDIA_TYPE, ServiceRoot
from wadlclient.headers import Headers
from wadlclient.http import DEFAULT_TIMEOUT, Request
from wadlclient.http.limits import DEFAULT_MAX_IN_FLIGHT, MAX_IN_FLIGHT_VARIABLE
from wadlclient.http.pool import ConnectionPool


@pytest.fixture
def far() -> Iterator[TaskService]:
    with TaskService(latency_ms=20) as service:
        yield service


def _get(service: TaskService, number: int) -> Request:
    return Request("GET", f"{service.api}bugs/{number}", Headers({"Accept": "application/json"}))


def test_threads_sharing_a_pool_keep_at_most_eight_in_flight_by_default(far: TaskService) -> None:
    pool = ConnectionPool()
    try:
        with ThreadPoolExecutor(max_workers=24) as threads:
            answers = list(
                threads.map(lambda n: pool.send(_get(far, n), timeout=DEFAULT_TIMEOUT), range(96))
            )
    finally:
        pool.close()

    assert [a.status for a in answers] == [200] * 96
    assert far.most_in_flight == DEFAULT_MAX_IN_FLIGHT == 8


def test_the_environment_sets_a_pools_limit(
    far: TaskService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MAX_IN_FLIGHT_VARIABLE, "3")
    pool = ConnectionPool()
    try:
        with ThreadPoolExecutor(max_workers=12) as threads:
            list(threads.map(lambda n: pool.send(_get(far, n), timeout=DEFAULT_TIMEOUT), range(36)))
    finally:
        pool.close()

    assert pool.max_in_flight == 3
    assert far.most_in_flight == 3


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_a_limit_in_the_environment_that_is_not_a_count_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(MAX_IN_FLIGHT_VARIABLE, value)

    with pytest.raises(ValueError, match="WADLCLIENT_MAX_IN_FLIGHT must be a whole number"):
        ConnectionPool()


def test_a_thread_starting_more_requests_than_slots_never_waits_for_itself(
    far: TaskService,
) -> None:
    pool = ConnectionPool(max_in_flight=1)
    done = threading.Event()
    statuses: list[int] = []

    def start_two_then_read() -> None:
        first = pool.start(_get(far, 1), timeout=DEFAULT_TIMEOUT)
        second = pool.start(_get(far, 2), timeout=DEFAULT_TIMEOUT)  # no slot: sent when read
        statuses.extend([first.result().status, second.result().status])
        done.set()

    try:
        threading.Thread(target=start_two_then_read, daemon=True).start()
        assert done.wait(10), "the second start waited for a slot its own thread held"
    finally:
        pool.close()

    assert statuses == [200, 200]
    assert far.most_in_flight == 1


def test_a_root_limited_to_one_request_in_flight_still_opens(far: TaskService) -> None:
    # It starts its JSON request, then sends its WADL request from the same
    # thread: that one goes without a slot rather than wait for the thread's own.
    with ServiceRoot(
        None, far.base_url, wadl_media_type=SUN_WADL_MEDIA_TYPE, max_in_flight=1
    ) as root:
        opened_with = far.most_in_flight
        far.reset()

        bugs = [task.bug.title for task in root.bugs.searchTasks()[:5]]

    assert opened_with <= 2
    assert len(bugs) == 5
    assert far.most_in_flight == 1
