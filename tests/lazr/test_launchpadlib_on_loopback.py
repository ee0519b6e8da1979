"""Real launchpadlib, run on wadlclient, against the Launchpad-like loopback service.

The scripts run in a child process started as ``python -m
wadlclient.lazr_compat script.py``: the way a user runs an unchanged
program, and a process where the real lazr.restfulclient is never imported.
Where no test checks the process itself, one child runs several scenarios
in turn, each on a service and in a directory of its own, some with
settings of their own (`one_child`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.lazr.lpservice import LaunchpadLike, LoopbackServer

SCENARIOS = Path(__file__).with_name("lp_scenarios.py")


def run_scenario(
    name: str,
    server: LoopbackServer,
    scratch: Path,
    *,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run a scenario under wadlclient."""
    return run_script(SCENARIOS, [name, server.service_root, str(scratch)], scratch, env)


def run_script(
    script: Path,
    args: list[str],
    home: Path,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run a launchpadlib script in a child as a user would; the JSON object it printed last."""
    result: dict[str, Any] = _last_json(script, args, home, env)
    return result


def run_scenarios(runs: list[tuple[str, str, Path]], home: Path) -> list[dict[str, Any]]:
    """Several (scenario, service root, directory) runs, in turn, in one child under wadlclient."""
    args = [arg for name, root, scratch in runs for arg in (name, root, str(scratch))]
    results: list[dict[str, Any]] = _last_json(SCENARIOS, args, home, None)
    return results


def _last_json(script: Path, args: list[str], home: Path, env: dict[str, str] | None) -> Any:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(home), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", str(script), *args],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _slow_owners(state: LaunchpadLike) -> None:
    """Each owner's answer waits 0.3 s, so that owners asked for together overlap.

    The WADL, root and bugs page the script reads first answer at once.
    """
    state.delay, state.delayed = 0.3, "/1.0/~"


def _expire_good_after_3(state: LaunchpadLike) -> None:
    state.expires_after["good"] = 3
    _slow_owners(state)


#: Each case of `one_child`: its scenario, and how its service is set up before the run.
CASES: dict[str, tuple[str, Callable[[LaunchpadLike], None]]] = {
    # First: it checks which modules its process has imported.
    "signing": ("anonymous_signing", lambda state: None),
    "anonymous": ("anonymous", lambda state: None),
    "expired": ("expired_token", lambda state: state.expired_tokens.add("stale")),
    # Its directory holds the cache stock launchpadlib wrote, in the test's process, first.
    "warm": ("people", lambda state: None),
    "prefetch": ("prefetched_owners", lambda state: None),
    # Each owner's answer waits 0.3 s, so that the owners asked for together overlap.
    "prefetch_slow": ("prefetched_owners", _slow_owners),
    # The root (WADL, JSON) and the bugs page are answered; then "good" expires,
    # just as the two owners are asked for together.
    "renewed": ("renewed_while_prefetching", _expire_good_after_3),
    # The look-ahead as the environment sets it for a script.
    "look_ahead_10": ("looked_ahead_owners WADLCLIENT_LOOK_AHEAD=10", lambda state: None),
    "look_ahead_off": ("looked_ahead_owners WADLCLIENT_LOOK_AHEAD=0", lambda state: None),
}


Ran = dict[str, tuple[LoopbackServer, dict[str, Any]]]


@pytest.fixture(scope="module")
def one_child(
    launchpad_wadl_bytes: bytes, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Ran]:
    """The `CASES`, run in turn by one child, each on its own service, which the tests only read.

    The tests check what each run sent and saw, not its process (but
    ``signing``, which runs first): one child saves a launchpadlib start
    per test. The ``warm`` case's directory is filled by stock launchpadlib first, in this
    process, whose lazr.restfulclient is the real one.
    """
    from tests.lazr.lp_scenarios import people

    with ExitStack() as stack:
        servers: list[LoopbackServer] = []
        runs: list[tuple[str, str, Path]] = []
        for case, (scenario, set_up) in CASES.items():
            server = stack.enter_context(LoopbackServer(launchpad_wadl_bytes))
            set_up(server.state)
            servers.append(server)
            runs.append((scenario, server.service_root, tmp_path_factory.mktemp(case)))
        warm = list(CASES).index("warm")
        stock = people(servers[warm].service_root, str(runs[warm][2]))
        servers[warm].state.journal.clear()  # the journal then holds wadlclient's requests only
        results = run_scenarios(runs, tmp_path_factory.mktemp("home"))
        done = dict(zip(CASES, zip(servers, results, strict=True), strict=True))
        done["stock"] = (servers[warm], stock)
        yield done


def ran(one_child: Ran, case: str) -> tuple[LoopbackServer, dict[str, Any]]:
    """A case's service and result; a scenario that raised fails only its own tests."""
    server, result = one_child[case]
    assert "error" not in result, result["error"]
    return server, result


def test_launchpadlib_anonymous_session_runs_on_wadlclient(one_child: Ran) -> None:
    server, result = ran(one_child, "anonymous")
    assert result["root_class_module"] == "wadlclient.lazr.restfulclient.resource"
    assert result["service_root_module"] == "wadlclient.lazr.restfulclient.resource"
    assert result["people"] == ["ada", "alan", "grace"]
    assert result["person_by_key"] == "Ada Lovelace"
    assert result["operation_result"] == "grace"
    wadl_requests = [e for e in server.state.requests_to("/1.0/") if "wadl" in e.accept]
    assert [e.accept for e in wadl_requests] == ["application/vnd.sun.wadl+xml"]


def test_bugs_key_lookup_is_by_bug_number_not_position(one_child: Ran) -> None:
    server, result = ran(one_child, "anonymous")
    assert (result["bug_1_id"], result["bug_1_title"]) == (1, "First bug")
    assert result["bug_at_position_1"] == 2
    assert server.state.requests_to("/1.0/bugs/1")


def test_missing_bug_key_raises_key_error(one_child: Ran) -> None:
    server, result = ran(one_child, "anonymous")
    assert result["missing_bug"] == "KeyError 999"
    assert [e.status for e in server.state.requests_to("/1.0/bugs/999")] == [404]


def test_expired_token_runs_the_authorization_engine_once_and_retries(one_child: Ran) -> None:
    launchpad_like, result = ran(one_child, "expired")  # its service calls "stale" expired
    assert result["engine_runs"] == 1
    assert result["token_now"] == "fresh-1"
    assert result["bug_1_title"] == "First bug"
    first_two = launchpad_like.state.journal[:2]
    assert [(e.path, e.token, e.status) for e in first_two] == [
        ("/1.0/", "stale", 401),
        ("/1.0/", "fresh-1", 200),
    ]
    assert all(e.token == "fresh-1" for e in launchpad_like.state.journal[1:])


def test_a_cache_written_by_stock_launchpadlib_keeps_wadlclient_warm(one_child: Ran) -> None:
    _, stock = ran(one_child, "stock")
    launchpad_like, ours = ran(one_child, "warm")  # in the directory stock's run wrote
    assert stock == ours == {"people": ["ada", "alan", "grace"]}
    second_run = launchpad_like.state.journal
    assert [e.path.split("?")[0] for e in second_run] == ["/1.0/people"]


def test_an_anonymous_launchpadlib_login_signs_without_importing_oauthlib(one_child: Ran) -> None:
    launchpad_like, result = ran(one_child, "signing")  # the child's first scenario
    assert result == {"people": ["ada", "alan", "grace"], "oauthlib_imported": False}
    assert launchpad_like.state.journal
    assert all(e.status == 200 and e.token is None for e in launchpad_like.state.journal)


def _owner_reads(server: LoopbackServer) -> list[str]:
    return [e.path for e in server.state.journal if e.path.startswith("/1.0/~")]


def test_launchpadlib_collections_prefetch_links_on_wadlclient(one_child: Ran) -> None:
    launchpad_like, result = ran(one_child, "prefetch")

    assert result["owners"] == ["ada", "ada", "alan"]
    assert sorted(_owner_reads(launchpad_like)) == ["/1.0/~ada", "/1.0/~alan"]


def test_launchpadlib_prefetch_sends_its_requests_together(one_child: Ran) -> None:
    launchpad_like, result = ran(one_child, "prefetch_slow")  # each owner's answer 0.3 s late

    assert result["owners"] == ["ada", "ada", "alan"]
    # ada and alan were in flight at once (one at a time, the server would see one).
    assert launchpad_like.state.most_in_flight == 2


def test_a_token_expiring_under_concurrent_requests_is_renewed_once(one_child: Ran) -> None:
    # The root (WADL, JSON) and the bugs page are answered; then "good" expires,
    # just as the two owners are asked for together (each owner's answer 0.3 s late).
    launchpad_like, result = ran(one_child, "renewed")

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
    one_child: Ran,
) -> None:
    launchpad_like, result = ran(one_child, "look_ahead_10")  # WADLCLIENT_LOOK_AHEAD=10

    assert result["owners"] == ["ada", "ada", "alan"]
    # Without the look-ahead the loop reads ada's record twice, once per bug.
    assert sorted(_owner_reads(launchpad_like)) == ["/1.0/~ada", "/1.0/~alan"]


def test_without_the_look_ahead_the_loop_reads_each_link_as_it_goes(one_child: Ran) -> None:
    launchpad_like, result = ran(one_child, "look_ahead_off")  # WADLCLIENT_LOOK_AHEAD=0

    assert result["owners"] == ["ada", "ada", "alan"]
    assert len(_owner_reads(launchpad_like)) == 3
