"""launchpadlib against a fake of Launchpad's devel WADL: stock, and on wadlclient, alike.

Each flow of ``lp_flows`` runs twice: in this process on stock
lazr.restfulclient, and in a child started as ``python -m
wadlclient.lazr_compat`` (one child runs them all, once per module); a
flow two tests read runs once on each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.lazr.test_launchpadlib_on_loopback import run_script

from . import lp_flows

FLOWS = Path(lp_flows.__file__)


@pytest.fixture(scope="module")
def on_wadlclient(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every flow's result, run once on wadlclient in a child process."""
    return run_script(FLOWS, [], tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="module")
def on_stock() -> dict[str, Any]:
    """Each flow's result on stock lazr.restfulclient, run at most once per module."""
    return {}


@pytest.fixture(params=["stock", "wadlclient"])
def run(
    request: pytest.FixtureRequest, on_stock: dict[str, Any], on_wadlclient: dict[str, Any]
) -> Any:
    def stock(name: str) -> Any:
        if name not in on_stock:
            on_stock[name] = lp_flows.FLOWS[name]()
        return on_stock[name]

    return stock if request.param == "stock" else on_wadlclient.__getitem__


def test_links_from_the_root_and_absolute_ones_name_entries(run: Any) -> None:
    seen = run("links")

    assert seen["received"] == {
        "owner": "~ada",
        "git_ref": "~ada/frobnicator/+git/frob/+ref/main",
        "archive": "ubuntu/+archive/primary",
    }
    assert (seen["snap"], seen["request"]) == (
        "~ada/+snap/frob",
        "~ada/+snap/frob/+build-request/1",
    )
    assert seen["by_url"] == "frob"
    assert seen["refused"] == ["BadRequest", 400, 'owner: No such object "/~nobody".']


def test_an_anonymous_session_gets_launchpads_401_for_me_and_for_writes(run: Any) -> None:
    seen = run("anonymous")

    assert seen["title"] == "Crash"
    assert seen["me"] == ["Unauthorized", 401, "You need to be logged in to view this URL."]
    assert seen["write"][:2] == ["Unauthorized", 401]
    assert seen["wire"] == [
        ["GET", "bugs/1", 200],
        ["GET", "people/+me", 401],
        ["PATCH", "bugs/1", 401],
    ]


def test_me_redirects_to_the_person_and_a_link_to_it_names_them(run: Any) -> None:
    seen = run("logged_in_me")

    assert seen["name"] == "ada"
    assert seen["wire"][:2] == [["GET", "people/+me", 303], ["GET", "~ada", 200]]


def test_a_result_the_wadl_does_not_allow_is_a_500_kept_for_the_test(run: Any) -> None:
    seen = run("logged_in_me")

    message = (
        "snaps.findByOwner: its WADL says it answers a page of snap entries (return a list "
        "of them), but its handler returned a list of person entries."
    )
    assert seen["wrong_page"] == ["ServerError", 500, message]
    assert seen["handler_errors"] == [message]


def test_handlers_answer_errors_and_values_as_the_wadl_declares(run: Any) -> None:
    seen = run("answers")

    assert seen["found"] == "frob"
    assert seen["missing"] == ["NotFound", 404, "No such snap package with this owner: 'nope'."]
    assert seen["cancelled"] == [
        "BadRequest", 400, "Cannot cancel a build that is Successfully built."
    ]  # fmt: skip
    assert seen["file_urls"] == ["https://launchpad.test/frob_1.0_amd64.snap"]
    assert seen["owned"] == ["frob"]
    assert seen["handler_errors"] == 0


def test_entries_live_at_launchpads_urls_and_key_lookups_reach_them(run: Any) -> None:
    seen = run("shapes")
    base = seen["base"]

    assert seen["lookups"] == [
        base + "~ada",
        base + "frobnicator",
        base + "bugs/1",
        base + "ubuntu",
    ]
    assert seen["seeded"] == [
        "bugs/1",
        "frobnicator",
        "frobnicator/+bug/1",
        "ubuntu",
        "ubuntu/+archive/primary",
        "~ada",
        "~ada/+archive/ubuntu/ppa",
        "~ada/+snap/frob",
        "~ada/+snap/frob/+build-request/1",
        "~ada/+snap/frob/+build/1",
        "~ada/frobnicator/+charm/frob-charm",
        "~ada/frobnicator/+git/frob",
        "~ada/frobnicator/+git/frob/+ref/main",
        "~ada/frobnicator/+rock/frob-rock",
    ]
    assert seen["loaded"] == [
        "~ada/frobnicator/+charm/frob-charm",
        "~ada/frobnicator/+rock/frob-rock",
        "~ada/frobnicator/+git/frob/+ref/main",
    ]
    assert seen["listed"] == [["frob"], ["ubuntu"]]
    assert seen["wire"] == [["GET", "+snaps", 200], ["GET", "distros", 200]]


def test_a_name_in_upper_case_is_redirected_to_the_lower_case_one(run: Any) -> None:
    seen = run("canonical_names")

    assert seen["names"] == ["ubuntu", "ada"]
    assert seen["found"] == []
    redirected = sorted({path for path, status, _op in seen["calls"] if status == 301})
    assert redirected == ["Ubuntu", "~Ada"]
    searches = [(path, status) for path, status, op in seen["calls"] if op == "searchTasks"]
    assert searches[-1] == ("ubuntu", 200)
    assert all(status == 301 for path, status in searches if path == "Ubuntu")


def test_a_login_for_another_version_is_refused_naming_both(run: Any) -> None:
    seen = run("other_version")

    assert seen["refused"] == [
        "NotFound",
        404,
        "This fake serves version 'devel' (/devel/) only; the code under test asked for "
        "'/1.0/'. To test it, make the fake from launchpad_wadl('1.0'); or log in with "
        "version='devel'.",
    ]


def test_launchpadlib_on_wadlclient_is_routed_by_the_address_hook_alone(
    on_wadlclient: dict[str, Any],
) -> None:
    seen = on_wadlclient["lazr_root_routed"]

    assert (seen["name"], seen["root_is_the_fake"]) == ("Ada Lovelace", True)
    assert seen["wire"] == [["GET", "~ada", 200]]
