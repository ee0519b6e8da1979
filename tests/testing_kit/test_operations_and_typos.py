"""Named operations get checked arguments; whatever the WADL does not describe fails, named."""

from __future__ import annotations

from typing import Any

import pytest

from wadlclient import ServiceRoot
from wadlclient.testing import FakeEntry, FakeService

from .wire import get_json, send


def test_a_handler_receives_the_arguments_decoded(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ada = fake_lp.add("people", name="ada", display_name="Ada Lovelace")
    received: list[tuple[Any, dict[str, Any]]] = []

    @fake_lp.operation("people", "getByEmail")
    def by_email(owner: Any, /, **arguments: Any) -> FakeEntry | None:
        received.append((owner, arguments))
        return ada if arguments["email"] == "ada@example.com" else None

    found = lp_root.people.getByEmail(email="ada@example.com")
    missing = lp_root.people.getByEmail(email="nobody@example.com")

    assert (found.display_name, missing) == ("Ada Lovelace", None)
    assert received[0] == ("people", {"email": "ada@example.com"})
    assert [s.query["email"] for s in fake_lp.journal.operations("getByEmail")] == [
        ['"ada@example.com"'],
        ['"nobody@example.com"'],
    ]


def test_a_factory_answers_201_with_the_new_entrys_location(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ubuntu = fake_lp.add("distributions", name="ubuntu")

    @fake_lp.operation("bugs", "createBug")
    def create_bug(owner: Any, /, **arguments: Any) -> FakeEntry:
        assert arguments["target"] is ubuntu
        return fake_lp.add("bugs", title=arguments["title"], description=arguments["description"])

    bug = lp_root.bugs.createBug(
        title="Crash", description="It crashes.", target=lp_root.distributions[0]
    )

    assert (bug.id, bug.title) == (1, "Crash")
    created = fake_lp.journal.operations("createBug")
    assert [(s.method, s.status) for s in created] == [("POST", 201)]


def test_an_operation_answering_entries_is_paged(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ubuntu = fake_lp.add("distributions", name="ubuntu")
    tasks = []
    for status in ("New", "Triaged", "New"):
        bug = fake_lp.add("bugs", title="Crash")
        tasks.append(fake_lp.add_to(bug, "bug_tasks", bug=bug, status=status, target=ubuntu))

    @fake_lp.operation("distribution", "searchTasks")
    def search(owner: FakeEntry, /, **arguments: Any) -> list[FakeEntry]:
        return [t for t in tasks if t["target"] is owner and t["status"] in arguments["status"]]

    found = lp_root.distributions[0].searchTasks(status=["New"])

    assert [(t.status, t.bug.id) for t in found] == [("New", 1), ("New", 3)]
    assert fake_lp.journal.operations("searchTasks")[0].path == "ubuntu"


def test_getbyname_has_a_default_handler_where_the_wadl_makes_it_plain(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    fake_lp.add("builders", name="bob", active=True)

    assert lp_root.builders.getByName(name="bob").active is True
    assert lp_root.builders.getByName(name="nobody") is None


def builders_to_rebuild_dropping_the_result(lp: Any, names: list[str]) -> list[str]:
    """The regression the issue cites: the look-up's result is never returned."""

    def find(name: str) -> Any:
        lp.builders.getByName(name=name)

    return [name for name in names if (builder := find(name)) is not None and builder.active]


def builders_to_rebuild(lp: Any, names: list[str]) -> list[str]:
    def find(name: str) -> Any:
        return lp.builders.getByName(name=name)

    return [name for name in names if (builder := find(name)) is not None and builder.active]


def test_a_dropped_getbyname_result_fails_against_the_fake(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    """A MagicMock answers anything truthy; the fake answers what was seeded, so the bug shows."""
    fake_lp.add("builders", name="bob", active=True)
    fake_lp.add("builders", name="ben", active=False)

    assert builders_to_rebuild(lp_root, ["bob", "ben", "nobody"]) == ["bob"]
    assert builders_to_rebuild_dropping_the_result(lp_root, ["bob", "ben", "nobody"]) == []
    assert len(fake_lp.journal.operations("getByName")) == 6


def test_an_unknown_ws_op_is_a_400_naming_it(fake_lp: FakeService) -> None:
    status, _headers, body = send(fake_lp, "GET", "builders?ws.op=getByNmae&name=%22bob%22")

    assert (status, body) == (400, b"No such operation: getByNmae (did you mean 'getByName'?)\n")


def test_an_unknown_argument_is_a_400_listing_the_operations_params(fake_lp: FakeService) -> None:
    status, _headers, body = send(fake_lp, "GET", "builders?ws.op=getByName&nmae=%22bob%22")

    assert status == 400
    assert body.decode().splitlines() == [
        "nmae: builders.getByName takes no such parameter (did you mean 'name'?); it takes: name.",
        "name: Required input is missing.",
    ]


def test_an_argument_of_the_wrong_type_is_a_400(fake_lp: FakeService) -> None:
    fake_lp.add("distributions", name="ubuntu")

    date = send(fake_lp, "GET", "ubuntu?ws.op=searchTasks&modified_since=%22yesterday%22")
    option = send(fake_lp, "GET", "bugs?ws.op=searchTasks&tags_combinator=Some")

    assert date[0] == 400 and date[2] == b"modified_since: Value doesn't look like a date.\n"
    assert option[0] == 400 and option[2] == (
        b'tags_combinator: Invalid value "Some". Acceptable values are: Any, All\n'
    )


def test_a_post_operation_sent_as_get_is_refused(fake_lp: FakeService) -> None:
    status, _headers, body = send(fake_lp, "GET", "bugs?ws.op=createBug")

    assert (status, body) == (405, b"bugs.createBug is a POST operation, not GET.\n")


def test_a_typo_in_the_code_under_test_fails_with_the_name(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    fake_lp.add("bugs", title="Crash")
    bug = lp_root.bugs[0]

    with pytest.raises(AttributeError, match="titel"):
        bug.titel  # noqa: B018
    with pytest.raises(AttributeError, match="bugz"):
        lp_root.bugz  # noqa: B018
    assert send(fake_lp, "GET", "bugz")[2] == (
        b"Object: <fake service>, name: 'bugz': nothing is seeded there (did you mean 'bugs'?).\n"
    )
    assert send(fake_lp, "PATCH", "bugs/1", {"titel": "x"})[2] == (
        b"titel: You tried to modify a nonexistent attribute. (did you mean 'title'?)\n"
    )


def test_a_typo_while_seeding_or_registering_fails_at_once(fake_lp: FakeService) -> None:
    with pytest.raises(ValueError, match=r"dispaly_name: .* nonexistent .*'display_name'"):
        fake_lp.add("people", name="ada", dispaly_name="Ada")
    with pytest.raises(ValueError, match=r"no top-level collection 'peple'.*'people'"):
        fake_lp.add("peple", name="ada")
    with pytest.raises(ValueError, match="people has no named operation 'getByEmial'"):
        fake_lp.operation("people", "getByEmial")
    assert get_json(fake_lp, "people")["total_size"] == 0


def test_a_handler_that_raises_answers_500_naming_it(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    @fake_lp.operation("people", "getByEmail")
    def broken(owner: Any, /, **arguments: Any) -> None:
        raise LookupError("no directory")

    status, _headers, body = send(fake_lp, "GET", "people?ws.op=getByEmail&email=%22a%22")

    assert (status, body) == (
        500,
        b"The handler of people.getByEmail raised LookupError: no directory\n",
    )
    assert [type(e) for e in fake_lp.handler_errors] == [LookupError]


def test_an_operations_page_may_give_total_size_link_as_launchpads_searches_do(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ubuntu = fake_lp.add("distributions", name="ubuntu")
    bugs = [fake_lp.add("bugs", title=f"bug {n}") for n in range(3)]
    tasks = [fake_lp.add_to(bug, "bug_tasks", bug=bug, target=ubuntu) for bug in bugs]
    fake_lp.total_size_link = True

    @fake_lp.operation("bugs", "searchTasks")
    def search(owner: Any, /, **arguments: Any) -> list[FakeEntry]:
        return tasks

    page = get_json(fake_lp, "bugs?ws.op=searchTasks")
    found = lp_root.bugs.searchTasks()

    assert "total_size" not in page
    assert page["total_size_link"] == fake_lp.base + "bugs?ws.op=searchTasks&ws.show=total_size"
    assert len(found) == 3
    assert fake_lp.journal.requests("GET", "bugs")[-1].query["ws.show"] == ["total_size"]


def test_a_query_parameter_without_a_ws_op_is_refused(fake_lp: FakeService) -> None:
    status, _headers, body = send(fake_lp, "GET", "people?name=ada")

    assert (status, body) == (400, b"people takes no query parameter 'name' without a ws.op.\n")


def test_a_body_over_the_limit_is_refused_unread(fake_lp: FakeService) -> None:
    status, headers, body = send(
        fake_lp, "POST", "people", headers={"Content-Length": str(64 * 1024 * 1024)}
    )

    assert status == 413
    assert body.startswith(b"The request body is too large for the fake")
    assert headers.get("Connection") == "close"


def test_a_recipes_getbyname_finds_it_by_every_field_or_answers_launchpads_404(
    fake_launchpad: FakeService,
) -> None:
    from launchpadlib.launchpad import Launchpad
    from lazr.restfulclient.errors import NotFound

    ada = fake_launchpad.add("people", name="ada")
    frobnicator = fake_launchpad.add("projects", name="frobnicator")
    fake_launchpad.add("charm_recipes", owner=ada, project=frobnicator, name="frob")
    lp = Launchpad.login_with("charmcraft", "production", version="devel")

    found = lp.charm_recipes.getByName(owner="/~ada", project="/frobnicator", name="frob")
    with pytest.raises(NotFound) as missing:
        lp.charm_recipes.getByName(owner="/~ada", project="/frobnicator", name="other")

    assert found.self_link == fake_launchpad.base + "~ada/frobnicator/+charm/frob"
    assert missing.value.content == (
        b"No such charm recipe with this owner and project: 'other'.\n"
    )


def test_getbypath_finds_the_entry_at_that_path_or_null(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ada = fake_lp.add("people", name="ada")
    frobnicator = fake_lp.add("projects", name="frobnicator")
    fake_lp.add("git_repositories", owner=ada, target=frobnicator, name="frob")

    found = lp_root.git_repositories.getByPath(path="~ada/frobnicator/+git/frob")
    missing = lp_root.git_repositories.getByPath(path="~ada/frobnicator/+git/other")
    not_a_repository = lp_root.git_repositories.getByPath(path="~ada")

    assert (found.name, missing, not_a_repository) == ("frob", None, None)
