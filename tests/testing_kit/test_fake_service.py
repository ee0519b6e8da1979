"""The fake speaks the dialect on the wire: driven by wadlclient and raw HTTP, seen in a journal."""

from __future__ import annotations

import json
import socket
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

import wadlclient.schema
from wadlclient import BadRequest, PreconditionFailed, ServerError, ServiceRoot
from wadlclient.testing import FakeService, launchpad_wadl
from wadlclient.testing.server import LoopbackHTTPServer

from .wire import get_json, send


def test_the_fake_serves_its_wadl_with_the_base_moved_to_it(fake_lp: FakeService) -> None:
    status, headers, body = send(
        fake_lp, "GET", "", headers={"Accept": "application/vnd.sun.wadl+xml"}
    )

    assert status == 200
    assert headers["Content-Type"] == "application/vnd.sun.wadl+xml"
    assert f'base="{fake_lp.base}"'.encode() in body
    assert b"api.launchpad.test" not in body


def test_the_root_links_every_top_level_collection_of_the_wadl(fake_lp: FakeService) -> None:
    root = get_json(fake_lp, "")

    assert root["people_collection_link"] == fake_lp.base + "people"
    assert root["bugs_collection_link"] == fake_lp.base + "bugs"
    assert root["resource_type_link"] == fake_lp.base + "#service-root"


def test_a_seeded_entry_reads_with_its_fields_and_links(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    ada = fake_lp.add("people", name="ada", display_name="Ada Lovelace")
    fake_lp.add("bugs", title="It breaks", owner=ada)

    bug = next(iter(lp_root.bugs))

    assert (bug.id, bug.title, bug.owner.display_name) == (1, "It breaks", "Ada Lovelace")
    assert bug.duplicate_of is None
    assert [(s.method, s.path) for s in fake_lp.journal if s.path] == [
        ("GET", "bugs"),
        ("GET", "~ada"),
    ]


def test_an_entry_carries_every_field_its_wadl_representation_lists(fake_lp: FakeService) -> None:
    fake_lp.add("people", name="ada")
    wadl_keys = list(fake_lp.description.entry_type("person").params)

    document = get_json(fake_lp, "~ada")

    assert sorted(document) == sorted(wadl_keys)
    assert document["display_name"] is None
    assert document["members_collection_link"] == fake_lp.base + "~ada/members"


def test_pages_follow_ws_start_and_ws_size_with_total_size(fake_lp: FakeService) -> None:
    for name in ("ada", "alan", "grace", "edsger", "barbara"):
        fake_lp.add("people", name=name)

    page = get_json(fake_lp, "people?ws.start=2&ws.size=2")

    assert page["total_size"] == 5
    assert [e["name"] for e in page["entries"]] == ["grace", "edsger"]
    assert page["next_collection_link"] == fake_lp.base + "people?ws.size=2&ws.start=4"
    assert page["prev_collection_link"] == fake_lp.base + "people?ws.size=2&ws.start=0"


@pytest.mark.parametrize("query", ["ws.start=%C2%B2", "ws.size=%C2%B3", "ws.start=-1"])
def test_a_page_asked_by_what_is_not_a_count_is_a_400(fake_lp: FakeService, query: str) -> None:
    status, _headers, body = send(fake_lp, "GET", f"people?{query}")  # "²": isdigit() yes, int() no

    assert (status, body) == (400, b"ws.start and ws.size must be non-negative integers.\n")


def test_a_content_length_that_is_not_a_count_is_refused(fake_lp: FakeService) -> None:
    status, _headers, _body = send(fake_lp, "PATCH", "~ada", "{}", {"Content-Length": "\u00b2"})

    assert status == 413


def test_the_client_walks_every_page(fake_lp: FakeService, lp_root: ServiceRoot) -> None:
    for number in range(160):
        fake_lp.add("bugs", title=f"bug {number}")

    titles = [bug.title for bug in lp_root.bugs]

    assert titles == [f"bug {n}" for n in range(160)]
    pages = fake_lp.journal.requests("GET", "bugs")
    assert [p.query.get("ws.start", ["0"]) for p in pages] == [["0"], ["150"]]


def test_if_none_match_with_the_current_etag_answers_304(fake_lp: FakeService) -> None:
    fake_lp.add("people", name="ada")
    _status, headers, _body = send(fake_lp, "GET", "~ada")

    status, _again, body = send(fake_lp, "GET", "~ada", headers={"If-None-Match": headers["ETag"]})

    assert (status, body) == (304, b"")
    assert [s.status for s in fake_lp.journal.requests("GET", "~ada")] == [200, 304]


def test_a_change_gives_the_entry_a_new_etag(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    _status, before, _body = send(fake_lp, "GET", "~ada")

    fake_lp.change(ada, display_name="Countess")
    status, after, _body = send(fake_lp, "GET", "~ada", headers={"If-None-Match": before["ETag"]})

    assert status == 200
    assert after["ETag"] != before["ETag"]


def test_a_patch_of_writable_fields_is_stored_and_answered_209(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    bug = fake_lp.add("bugs", title="Old")
    seen = lp_root.bugs[0]

    seen.title = "New"
    seen.lp_save()

    assert bug["title"] == "New"
    patch = fake_lp.journal.requests("PATCH", "bugs/1")
    assert [(p.status, json.loads(p.body)) for p in patch] == [(209, {"title": "New"})]
    assert patch[0].if_match is not None


def test_a_patch_with_a_stale_etag_is_refused_412(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    bug = fake_lp.add("bugs", title="Old")
    seen = lp_root.bugs[0]
    assert seen.title == "Old"
    fake_lp.change(bug, title="Someone else's")

    seen.title = "Mine"
    with pytest.raises(PreconditionFailed):
        seen.lp_save()

    assert bug["title"] == "Someone else's"
    assert [p.status for p in fake_lp.journal.requests("PATCH")] == [412]


def test_a_read_only_field_written_gets_lazr_restfuls_400(fake_lp: FakeService) -> None:
    fake_lp.add("bugs", title="Old")

    status, _headers, body = send(
        fake_lp, "PATCH", "bugs/1", {"date_created": "2020-01-01T00:00:00Z"}
    )

    assert (status, body) == (400, b"date_created: You tried to modify a read-only attribute.\n")


def test_a_patch_value_of_the_wrong_type_is_refused_naming_the_field(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    bug = fake_lp.add("bugs", title="Old")
    task = fake_lp.add_to(bug, "bug_tasks", status="New")

    status, _headers, body = send(fake_lp, "PATCH", task.path, {"status": "Fixed Maybe"})
    wrong_link = send(fake_lp, "PATCH", task.path, {"assignee_link": fake_lp.url_of(bug)})
    right_link = send(fake_lp, "PATCH", task.path, {"assignee_link": fake_lp.url_of(ada)})

    assert status == 400
    assert body.decode().startswith(
        'status: Invalid value "Fixed Maybe". Acceptable values are: New,'
    )
    assert wrong_link[0] == 400 and b"expected a link to a person, not a bug" in wrong_link[2]
    assert right_link[0] == 209 and task["assignee"] is ada


def test_delete_removes_the_entry_where_the_wadl_allows_it(fake_cookbook: FakeService) -> None:
    dish = fake_cookbook.add("dishes", name="Soup")
    fake_cookbook.add("recipes", instructions="Boil.", dish=dish)

    refused = send(fake_cookbook, "DELETE", dish.path)
    deleted = send(fake_cookbook, "DELETE", "recipes/1")

    assert refused[0] == 405
    assert deleted[0] == 200
    assert get_json(fake_cookbook, "recipes")["total_size"] == 0
    assert send(fake_cookbook, "GET", "recipes/1")[0] == 404


def test_scoped_collections_hold_what_was_added_to_them(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    bug = fake_lp.add("bugs", title="Old")
    fake_lp.add_to(bug, "bug_tasks", status="New", importance="High")
    fake_lp.add_to(bug, "bug_tasks", status="Triaged")

    tasks = [(t.status, t.importance) for t in lp_root.bugs[0].bug_tasks]

    assert tasks == [("New", "High"), ("Triaged", None)]
    assert fake_lp.journal.requests("GET", "bugs/1/bug_tasks")


def test_the_cookbook_wadl_types_its_fields_and_the_fake_checks_them(
    fake_cookbook: FakeService,
) -> None:
    book = fake_cookbook.add("cookbooks", name="Basics", cuisine="General", price=9.5)

    wrong = send(fake_cookbook, "PATCH", book.path, {"price": "cheap"})
    with pytest.raises(ValueError, match="price: got str 'cheap', expected decimal"):
        fake_cookbook.add("cookbooks", name="Other", price="cheap")

    assert wrong == (400, wrong[1], b"price: got str 'cheap', expected decimal.\n")
    assert book.path == "cookbooks/Basics"


def test_wadlclient_reads_the_cookbook_fake_by_key(fake_cookbook: FakeService) -> None:
    dish = fake_cookbook.add("dishes", name="Soup")
    fake_cookbook.add("recipes", instructions="Boil.", dish=dish)

    with ServiceRoot(None, fake_cookbook.service_root) as root:
        recipe = root.recipes[0]
        assert (recipe.instructions, recipe.dish.name) == ("Boil.", "Soup")
        assert root.cookbooks.find_for_cuisine is not None


def test_the_journal_keeps_the_auth_scheme_but_never_the_credentials(fake_lp: FakeService) -> None:
    send(fake_lp, "GET", "", headers={"Authorization": 'OAuth oauth_token="s3cret"'})

    served = fake_lp.journal.entries()

    assert served[0].auth_scheme == "OAuth"
    assert "s3cret" not in repr(served)


def test_a_fake_needs_a_wadl_with_a_base(tmp_path: Path) -> None:
    wadl = tmp_path / "no-base.wadl"
    wadl.write_text("<application/>")

    with pytest.raises(ValueError, match=r"no <resources base=\.\.\.>"):
        FakeService(wadl)


def test_a_bad_link_to_an_operation_fails_on_the_wire(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    fake_lp.add("bugs", title="Old")

    @fake_lp.operation("bugs", "searchTasks")
    def search(owner: object, /, **arguments: object) -> list[object]:
        return []

    with pytest.raises(BadRequest) as refused:
        lp_root.bugs.searchTasks(bug_reporter=lp_root.bugs[0])

    assert b"bug_reporter: expected a link to a person, not a bug" in refused.value.content
    assert [s.status for s in fake_lp.journal.operations("searchTasks")] == [400]


def test_an_operation_without_a_handler_answers_501_naming_it(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    with pytest.raises(ServerError) as refused:
        lp_root.people.getByEmail(email="ada@example.com")

    assert refused.value.status == 501
    assert b"people.getByEmail has no handler in this fake" in refused.value.content


def test_a_hosted_file_is_read_written_and_deleted(fake_cookbook: FakeService) -> None:
    book = fake_cookbook.add("cookbooks", name="Basics", cover=("image/png", b"\x89PNG old"))

    with ServiceRoot(None, fake_cookbook.service_root) as root:
        cover = root.cookbooks[0].cover
        with cover.open() as reader:
            assert (reader.read(), reader.content_type) == (b"\x89PNG old", "image/png")
        with cover.open("w", content_type="image/gif", filename="c.gif") as writer:
            writer.write(b"GIF89a new")
        assert book["cover"] == ("image/gif", b"GIF89a new")
        cover.delete()

    assert book["cover"] is None
    assert send(fake_cookbook, "GET", "cookbooks/Basics/cover")[0] == 404
    methods = [
        (s.method, s.status) for s in fake_cookbook.journal.requests(path="cookbooks/Basics/cover")
    ]
    assert methods == [("GET", 200), ("PUT", 200), ("DELETE", 200), ("GET", 404)]


def test_lazr_restfulclient_reads_and_writes_the_cookbook_fake(
    fake_cookbook: FakeService, tmp_path: Path
) -> None:
    from lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot

    soup = fake_cookbook.add("dishes", name="Soup")
    recipe = fake_cookbook.add("recipes", instructions="Boil.", dish=soup)
    root = LazrServiceRoot(None, fake_cookbook.service_root, str(tmp_path), version="1.0")

    seen = root.recipes[0]
    assert (seen.instructions, seen.dish.name) == ("Boil.", "Soup")
    seen.instructions = "Boil gently."
    seen.lp_save()

    assert recipe["instructions"] == "Boil gently."
    patch = fake_cookbook.journal.requests("PATCH", "recipes/1")
    assert [(p.status, p.if_match is not None) for p in patch] == [(209, True)]


def test_a_second_fake_of_the_real_devel_wadl_reuses_its_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Counted rather than timed (its start-up time is a figure of make bench).
    wadl = launchpad_wadl()
    with FakeService(wadl):
        pass  # the first start reads the WADL's model; later ones reuse it
    parsed: list[str] = []
    real_parse = wadlclient.schema.parse_wadl

    def counted(content: bytes, url: str, **options: Any) -> Any:
        parsed.append(url)
        return real_parse(content, url, **options)

    monkeypatch.setattr(wadlclient.schema, "parse_wadl", counted)
    with FakeService(wadl) as fake:
        assert get_json(fake, "")["people_collection_link"] == fake.base + "people"

    assert parsed == []


def test_a_request_for_another_version_is_a_404_naming_both(fake_lp: FakeService) -> None:
    status, _headers, body = send(fake_lp, "GET", "/1.0/people")

    assert status == 404
    assert body.decode() == (
        "This fake serves version 'devel' (/devel/) only; the code under test asked for "
        "'/1.0/people'. To test it, make the fake from launchpad_wadl('1.0'); "
        "or log in with version='devel'.\n"
    )
    assert [(s.path, s.status) for s in fake_lp.journal] == [("/1.0/people", 404)]


def test_a_root_link_points_where_the_test_sets_it(fake_cookbook: FakeService) -> None:
    unset = send(fake_cookbook, "GET", "featured_cookbook")
    book = fake_cookbook.add("cookbooks", name="Basics")
    fake_cookbook.set_root_link("featured_cookbook", book)

    with ServiceRoot(None, fake_cookbook.service_root) as root:
        assert root.featured_cookbook.name == "Basics"

    assert unset[2] == (
        b"featured_cookbook is not set in this fake: "
        b"fake.set_root_link('featured_cookbook', entry).\n"
    )


def test_clients_in_many_threads_are_answered_together(
    fake_lp: FakeService, lp_root: ServiceRoot
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    people = [fake_lp.add("people", name=f"p{n}", display_name=f"P {n}") for n in range(40)]
    for person in people:
        fake_lp.add("bugs", title=f"by {person['name']}", owner=person)

    with ThreadPoolExecutor(8) as pool:
        owners = list(pool.map(lambda n: lp_root.bugs[n].owner.display_name, range(40)))

    assert owners == [f"P {n}" for n in range(40)]
    assert sorted(s.path for s in fake_lp.journal.requests("GET") if s.path.startswith("~")) == (
        sorted(f"~p{n}" for n in range(40))
    )


def test_the_fake_takes_a_burst_of_connections_at_once_as_a_prefetch_opens() -> None:
    """Before it accepts any, every connection of a burst of 64 is queued, none dropped.

    A dropped connection is retried by the client's kernel only a second
    later: a prefetch of 32 against the standard library's queue of 5
    stalled. The server is made but not started, so nothing is accepted
    while the burst arrives.
    """
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    sockets: list[socket.socket] = []
    try:
        for _ in range(64):
            sockets.append(socket.create_connection(server.server_address[:2], timeout=0.5))
    finally:
        for held in sockets:
            held.close()
        server.server_close()

    assert len(sockets) == 64


def test_a_file_added_is_served_at_its_path_as_it_is(fake_lp: FakeService) -> None:
    """A librarian file read through the API's root (a build's ``.changes``): the bytes and type."""
    path = "ubuntu/+archive/primary/+files/hello_2.10-3_amd64.changes"
    fake_lp.add_file(path, b"Source: hello\n", "text/plain")

    status, headers, body = send(fake_lp, "GET", path)
    posted = send(fake_lp, "POST", path, body={"ws.op": "x"})[0]

    assert (status, headers["Content-Type"], body) == (200, "text/plain", b"Source: hello\n")
    assert posted == 404
    assert [s.path for s in fake_lp.journal] == [path, path]
