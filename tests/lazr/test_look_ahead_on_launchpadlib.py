"""Unchanged launchpadlib scripts get the default look-ahead: the N+1 loop's reads go together.

The scripts run under ``python -m wadlclient.lazr_compat`` against the
Launchpad-shaped task service of the benchmarks (500 tasks, each on its
own bug, 120 owners, 20 ms per answer), which counts the requests and the
most in flight at once. No client sends fewer than 620 requests plus its
pages for ``task.bug.owner.name``. The scripts run in turn in one child,
each against a service of its own, the last with the look-ahead turned off.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from benchmarks.lptasks import LINKED, OWNERS, TASKS, TaskService
from tests.lazr.test_launchpadlib_on_loopback import run_scenarios

#: Pages of 150 entries: 500 tasks are 4.
PAGES = 4


Runs = dict[str, tuple[TaskService, dict[str, Any]]]


@pytest.fixture(scope="module")
def default_look_ahead(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """The scripts in turn in one child, each on its own service; the last has no look-ahead."""
    names = ("task_owners", "every_tenth_bug", "every_tenth_bug WADLCLIENT_LOOK_AHEAD=0")
    with ExitStack() as stack:
        services = [stack.enter_context(TaskService(latency_ms=20)) for _ in names]
        runs = [
            (name, service.base_url, tmp_path_factory.mktemp(name.split()[0]))
            for name, service in zip(names, services, strict=True)
        ]
        results = run_scenarios(runs, tmp_path_factory.mktemp("home"))
        yield dict(zip(names, zip(services, results, strict=True), strict=True))


def ran(runs: Runs, name: str) -> tuple[TaskService, dict[str, Any]]:
    service, result = runs[name]
    assert "error" not in result, result["error"]
    return service, result


def test_an_unchanged_n_plus_one_script_sends_about_the_floor_many_at_a_time(
    default_look_ahead: Runs,
) -> None:
    tasks_far, result = ran(default_look_ahead, "task_owners")
    owners = result["owners"]

    assert (len(owners), len(set(owners))) == (TASKS, OWNERS)
    # Counted from the login on: its WADL and root requests, the pages, the links.
    linked = [p for p in tasks_far.paths if p.startswith(("/1.0/bugs/", "/1.0/~"))]
    assert LINKED <= len(linked) <= 1.05 * (LINKED + PAGES) - PAGES
    assert 4 <= tasks_far.most_in_flight <= 8


def test_an_unchanged_sparse_script_sends_only_the_bugs_it_reads(default_look_ahead: Runs) -> None:
    tasks_far, result = ran(default_look_ahead, "every_tenth_bug")
    titles = result["titles"]

    assert len(titles) == TASKS // 10
    bugs = [p for p in tasks_far.paths if p.startswith("/1.0/bugs/")]
    assert sorted(bugs) == sorted(f"/1.0/bugs/{n + 1}" for n in range(0, TASKS, 10))
    assert tasks_far.most_concurrent("/1.0/bugs/") > 1  # the stride's bugs went ahead together


def test_the_environment_turns_it_off_for_a_script(default_look_ahead: Runs) -> None:
    tasks_far, result = ran(default_look_ahead, "every_tenth_bug WADLCLIENT_LOOK_AHEAD=0")

    assert len(result["titles"]) == TASKS // 10
    assert tasks_far.most_concurrent("/1.0/bugs/") == 1
