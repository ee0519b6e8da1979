"""Real launchpadlib, run on wadlclient, against the Launchpad-like loopback service.

The scripts run in a child process started as ``python -m
wadlclient.lazr_compat script.py``: the way a user runs an unchanged
program, and a process where the real lazr.restfulclient is never imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.lazr.lpservice import LoopbackServer

SCENARIOS = Path(__file__).with_name("lp_scenarios.py")


def run_scenario(
    name: str,
    server: LoopbackServer,
    scratch: Path,
    *,
    stock: bool = False,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run a scenario under wadlclient (or, ``stock``, on the real lazr.restfulclient)."""
    return run_script(SCENARIOS, [name, server.service_root, str(scratch)], scratch, stock, env)


def run_script(
    script: Path,
    args: list[str],
    home: Path,
    stock: bool = False,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run a launchpadlib script in a child as a user would; the JSON object it printed last."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(home), **(env or {})}
    runner = [] if stock else ["-m", "wadlclient.lazr_compat"]
    done = subprocess.run(
        [sys.executable, *runner, str(script), *args],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def anonymous_run(
    launchpad_wadl_bytes: bytes, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LoopbackServer, dict[str, Any]]]:
    """One ``anonymous`` run on a service of its own, which the tests below only read.

    The three tests check different parts of the same unchanged script's
    run (its classes, its key lookups, its missing key), so one child serves them.
    """
    with LoopbackServer(launchpad_wadl_bytes) as server:
        yield server, run_scenario("anonymous", server, tmp_path_factory.mktemp("anonymous"))


def test_launchpadlib_anonymous_session_runs_on_wadlclient(
    anonymous_run: tuple[LoopbackServer, dict[str, Any]],
) -> None:
    server, result = anonymous_run
    assert result["root_class_module"] == "wadlclient.lazr.restfulclient.resource"
    assert result["service_root_module"] == "wadlclient.lazr.restfulclient.resource"
    assert result["people"] == ["ada", "alan", "grace"]
    assert result["person_by_key"] == "Ada Lovelace"
    assert result["operation_result"] == "grace"
    wadl_requests = [e for e in server.state.requests_to("/1.0/") if "wadl" in e.accept]
    assert [e.accept for e in wadl_requests] == ["application/vnd.sun.wadl+xml"]


def test_bugs_key_lookup_is_by_bug_number_not_position(
    anonymous_run: tuple[LoopbackServer, dict[str, Any]],
) -> None:
    server, result = anonymous_run
    assert (result["bug_1_id"], result["bug_1_title"]) == (1, "First bug")
    assert result["bug_at_position_1"] == 2
    assert server.state.requests_to("/1.0/bugs/1")


def test_missing_bug_key_raises_key_error(
    anonymous_run: tuple[LoopbackServer, dict[str, Any]],
) -> None:
    server, result = anonymous_run
    assert result["missing_bug"] == "KeyError 999"
    assert [e.status for e in server.state.requests_to("/1.0/bugs/999")] == [404]


def test_expired_token_runs_the_authorization_engine_once_and_retries(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    launchpad_like.state.expired_tokens.add("stale")
    result = run_scenario("expired_token", launchpad_like, tmp_path)
    assert result["engine_runs"] == 1
    assert result["token_now"] == "fresh-1"
    assert result["bug_1_title"] == "First bug"
    first_two = launchpad_like.state.journal[:2]
    assert [(e.path, e.token, e.status) for e in first_two] == [
        ("/1.0/", "stale", 401),
        ("/1.0/", "fresh-1", 200),
    ]
    assert all(e.token == "fresh-1" for e in launchpad_like.state.journal[1:])


def test_a_cache_written_by_stock_launchpadlib_keeps_wadlclient_warm(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    stock = run_scenario("people", launchpad_like, tmp_path, stock=True)
    sent_by_stock = len(launchpad_like.state.journal)
    ours = run_scenario("people", launchpad_like, tmp_path)
    assert stock == ours == {"people": ["ada", "alan", "grace"]}
    second_run = launchpad_like.state.journal[sent_by_stock:]
    assert [e.path.split("?")[0] for e in second_run] == ["/1.0/people"]


def test_an_anonymous_launchpadlib_login_signs_without_importing_oauthlib(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    result = run_scenario("anonymous_signing", launchpad_like, tmp_path)
    assert result == {"people": ["ada", "alan", "grace"], "oauthlib_imported": False}
    assert launchpad_like.state.journal
    assert all(e.status == 200 and e.token is None for e in launchpad_like.state.journal)


def _owner_reads(server: LoopbackServer) -> list[str]:
    return [e.path for e in server.state.journal if e.path.startswith("/1.0/~")]


def test_launchpadlib_collections_prefetch_links_on_wadlclient(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    result = run_scenario("prefetched_owners", launchpad_like, tmp_path)

    assert result["owners"] == ["ada", "ada", "alan"]
    assert sorted(_owner_reads(launchpad_like)) == ["/1.0/~ada", "/1.0/~alan"]


def test_launchpadlib_prefetch_sends_its_requests_together(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    launchpad_like.state.delay = 0.3

    result = run_scenario("prefetched_owners", launchpad_like, tmp_path)

    assert result["owners"] == ["ada", "ada", "alan"]
    # ada and alan were in flight at once (one at a time, the server would see one).
    assert launchpad_like.state.most_in_flight == 2


def test_a_token_expiring_under_concurrent_requests_is_renewed_once(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    # The root (WADL, JSON) and the bugs page are answered; then "good" expires,
    # just as the two owners are asked for together.
    launchpad_like.state.expires_after["good"] = 3
    launchpad_like.state.delay = 0.3

    result = run_scenario("renewed_while_prefetching", launchpad_like, tmp_path)

    assert result["owners"] == ["ada", "ada", "alan"]
    assert result["engine_runs"] == 1
    assert result["token_now"] == "fresh-1"
    owners = [e for e in launchpad_like.state.journal if e.path.startswith("/1.0/~")]
    assert sorted((e.token, e.status) for e in owners) == [
        ("fresh-1", 200),
        ("fresh-1", 200),
        ("good", 401),
        ("good", 401),
    ]
    assert launchpad_like.state.most_in_flight == 2


def test_the_look_ahead_reaches_an_unchanged_launchpadlib_loop_through_the_environment(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    result = run_scenario(
        "looked_ahead_owners", launchpad_like, tmp_path, env={"WADLCLIENT_LOOK_AHEAD": "10"}
    )

    assert result["owners"] == ["ada", "ada", "alan"]
    # Without the look-ahead the loop reads ada's record twice, once per bug.
    assert sorted(_owner_reads(launchpad_like)) == ["/1.0/~ada", "/1.0/~alan"]


def test_without_the_look_ahead_the_loop_reads_each_link_as_it_goes(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    result = run_scenario(
        "looked_ahead_owners", launchpad_like, tmp_path, env={"WADLCLIENT_LOOK_AHEAD": "0"}
    )

    assert result["owners"] == ["ada", "ada", "alan"]
    assert len(_owner_reads(launchpad_like)) == 3
