"""lazr.restful's and Launchpad's rules on the wire: links, anonymous requests, results, errors."""

from __future__ import annotations

from typing import Any

import pytest

from wadlclient import ServiceRoot
from wadlclient.testing import FakeEntry, FakeService, HTTPException

from .wire import get_json, send

ANONYMOUS = {
    "Authorization": 'OAuth realm="https://api.launchpad.net/", oauth_consumer_key="reader", '
    'oauth_token="", oauth_signature_method="PLAINTEXT", oauth_signature="%26"'
}
LOGGED_IN = {
    "Authorization": ANONYMOUS["Authorization"].replace('oauth_token=""', 'oauth_token="t"')
}


def task_of_a_bug(fake: FakeService) -> tuple[FakeEntry, FakeEntry]:
    ada = fake.add("people", name="ada")
    bug = fake.add("bugs", title="Crash")
    project = fake.add("projects", name="frobnicator")
    return ada, fake.add_to(bug, "bug_tasks", bug=bug, target=project, status="New")


@pytest.mark.parametrize(
    "link", ["/~ada", "{base}~ada", "https://api.launchpad.net/devel/~ada", "/~ada/"]
)
def test_a_patched_link_may_be_from_the_root_or_absolute(fake_lp: FakeService, link: str) -> None:
    ada, task = task_of_a_bug(fake_lp)

    status, _headers, body = send(
        fake_lp, "PATCH", task.path, {"assignee_link": link.format(base=fake_lp.base)}
    )

    assert (status, task["assignee"]) == (209, ada), body
    assert get_json(fake_lp, task.path)["assignee_link"] == fake_lp.base + "~ada"


@pytest.mark.parametrize(
    "link", ["~ada", "/~nobody", "http://elsewhere.test/devel/~ada", "/~ada?x=1", "/~ada#top"]
)
def test_what_lazr_restful_cannot_dereference_is_no_link(fake_lp: FakeService, link: str) -> None:
    _ada, task = task_of_a_bug(fake_lp)

    status, _headers, body = send(fake_lp, "PATCH", task.path, {"assignee_link": link})

    assert (status, body.decode()) == (400, f'assignee_link: No such object "{link}".\n')
    assert task["assignee"] is None


def test_a_root_relative_link_is_an_operation_argument(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ada, _task = task_of_a_bug(fake_lp)
    received: list[Any] = []

    @fake_lp.operation("bugs", "createBug")
    def create_bug(_bugs: str, /, target: FakeEntry, **rest: Any) -> FakeEntry:
        received.append(target)
        return fake_lp.add("bugs", title=rest["title"], owner=ada)

    bug = lp_root.bugs.createBug(target="/frobnicator", title="Typo", description="A typo.")

    assert received == [fake_lp.entry_at("frobnicator")]
    assert (bug.title, bug.owner.name) == ("Typo", "ada")
    assert [s.status for s in fake_lp.journal.operations("createBug")] == [201]


def test_a_link_to_people_me_names_the_person_set_as_me(fake_lp: FakeService) -> None:
    ada, task = task_of_a_bug(fake_lp)
    unset = send(fake_lp, "PATCH", task.path, {"assignee_link": "/people/+me"})
    fake_lp.set_root_link("me", ada)

    status, _headers, _body = send(fake_lp, "PATCH", task.path, {"assignee_link": "/people/+me"})

    assert unset[0] == 400
    assert (status, task["assignee"]) == (209, ada)


def test_me_is_people_plus_me_a_303_to_the_person(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    unset = send(fake_lp, "GET", "people/+me", headers=LOGGED_IN)
    fake_lp.set_root_link("me", ada)

    status, headers, _body = send(fake_lp, "GET", "people/+me", headers=LOGGED_IN)

    assert get_json(fake_lp, "")["me_link"] == fake_lp.base + "people/+me"
    assert (status, headers["Location"]) == (303, fake_lp.base + "~ada")
    assert (unset[0], unset[2]) == (
        404, b"me is not set in this fake: fake.set_root_link('me', entry).\n"
    )  # fmt: skip


def test_an_anonymous_request_for_me_is_launchpads_401(fake_lp: FakeService) -> None:
    fake_lp.set_root_link("me", fake_lp.add("people", name="ada"))

    status, _headers, body = send(fake_lp, "GET", "people/+me", headers=ANONYMOUS)

    logged_in = send(fake_lp, "GET", "people/+me", headers=LOGGED_IN)

    assert (status, body) == (401, b"You need to be logged in to view this URL.\n")
    assert logged_in[0] == 303
    assert [(s.path, s.status, s.auth_scheme, s.anonymous) for s in fake_lp.journal] == [
        ("people/+me", 401, "OAuth", True),
        ("people/+me", 303, "OAuth", False),
    ]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PATCH", "bugs/1", {"title": "Mine"}),
        ("POST", "bugs", "ws.op=createBug&title=%22x%22"),
        ("DELETE", "bugs/1", None),
        ("PUT", "~ada/mugshot", "bytes"),
    ],
)
def test_every_anonymous_write_is_a_401(
    fake_lp: FakeService, method: str, path: str, body: Any
) -> None:
    fake_lp.add("people", name="ada")
    bug = fake_lp.add("bugs", title="Crash")

    status, _headers, answer = send(fake_lp, method, path, body, headers=ANONYMOUS)
    read = send(fake_lp, "GET", "bugs/1", headers=ANONYMOUS)

    assert status == 401, answer
    assert answer.startswith(b"Unauthorized: an anonymous session cannot")
    assert (bug["title"], read[0]) == ("Crash", 200)


def test_a_handler_answers_an_error_status_with_http_exception(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    @fake_lp.operation("people", "getByEmail")
    def by_email(_people: str, /, email: str) -> FakeEntry:
        raise HTTPException(404, f"No account has {email}.")

    status, _headers, body = send(fake_lp, "GET", "people?ws.op=getByEmail&email=%22a%40b%22")

    assert (status, body) == (404, b"No account has a@b.\n")
    assert fake_lp.handler_errors == []


def test_http_exception_is_for_error_statuses_only() -> None:
    with pytest.raises(ValueError, match=r"an error status \(400-599\), not 200"):
        HTTPException(200, "fine")


def test_a_list_of_plain_values_is_served_as_that_list(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    snap = fake_lp.add("snaps", owner=ada, name="frob")
    build = fake_lp.add_to(snap, "builds", snap=snap)

    @fake_lp.operation("snap_build", "getFileUrls")
    def file_urls(build: FakeEntry, /) -> list[str]:
        return ["https://example.test/frob.snap", "https://example.test/frob.manifest"]

    answer = get_json(fake_lp, build.path + "?ws.op=getFileUrls")

    assert answer == ["https://example.test/frob.snap", "https://example.test/frob.manifest"]


def test_an_entry_operation_answers_null_for_none(fake_lp: FakeService) -> None:
    @fake_lp.operation("people", "getByEmail")
    def by_email(_people: str, /, email: str) -> None:
        return None

    assert get_json(fake_lp, "people?ws.op=getByEmail&email=%22nobody%22") is None


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        (["a", "b"], "a list holding 'a'"),
        (None, "None"),
        ("the bugs", "'the bugs'"),
    ],
)
def test_a_page_operation_answers_a_list_of_entries_or_a_500_naming_the_mistake(
    fake_lp: FakeService, returned: Any, shown: str
) -> None:
    @fake_lp.operation("people", "find")
    def find(_people: str, /, text: str) -> Any:
        return returned

    status, _headers, body = send(fake_lp, "GET", "people?ws.op=find&text=%22a%22")

    message = (
        "people.find: its WADL says it answers a page of person entries (return a list of "
        f"them), but its handler returned {shown}."
    )
    assert (status, body.decode()) == (500, message + "\n")
    assert [str(e) for e in fake_lp.handler_errors] == [message]


def test_a_value_json_cannot_carry_is_a_500_naming_it(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    snap = fake_lp.add("snaps", owner=ada, name="frob")
    build = fake_lp.add_to(snap, "builds", snap=snap)

    @fake_lp.operation("snap_build", "getFileUrls")
    def file_urls(build: FakeEntry, /) -> Any:
        return {"urls": {"frob.snap"}}

    status, _headers, body = send(fake_lp, "GET", build.path + "?ws.op=getFileUrls")

    assert (status, body) == (
        500,
        b"A handler returned set {'frob.snap'}, which JSON cannot carry.\n",
    )
    assert len(fake_lp.handler_errors) == 1


def test_web_link_is_the_page_on_launchpads_site_for_the_entry(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    fake_lp.add("bugs", title="Crash")
    fake_lp.add("git_repositories", owner=ada, name="frob")

    links = [get_json(fake_lp, path)["web_link"] for path in ("~ada", "bugs/1", "~ada/+git/frob")]

    assert links == [
        "https://launchpad.net/~ada",
        "https://bugs.launchpad.net/bugs/1",
        "https://code.launchpad.net/~ada/+git/frob",
    ]


def test_a_post_to_a_name_in_upper_case_is_refused(fake_lp: FakeService) -> None:
    fake_lp.add("projects", name="frobnicator")

    status, _headers, body = send(fake_lp, "POST", "Frobnicator", "ws.op=newSeries")

    assert (status, body) == (400, b"POST to a non-canonical URL: use 'frobnicator'.\n")


def test_a_name_in_upper_case_is_redirected_keeping_the_path_and_query(
    fake_lp: FakeService,
) -> None:
    status, headers, _body = send(fake_lp, "GET", "Ubuntu/+source/hello?ws.op=searchTasks&x=1")

    assert status == 301
    assert headers["Location"] == fake_lp.base + "ubuntu/+source/hello?ws.op=searchTasks&x=1"
