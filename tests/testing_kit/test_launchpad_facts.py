"""The fake reads Launchpad's facts the WADL does not carry: argument shapes, 404s, URL shapes.

Requests go as a program using ``requests`` directly sends them (form
values, lists as repeated values, links of another API version), and the
handler sees what Launchpad's code would: lazr.restful's marshalling.
"""

from __future__ import annotations

from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from typing import Any

import pytest
import requests

from wadlclient.facts.launchpad import ARGUMENTS, FOUND_OR_404
from wadlclient.facts.launchpad_urls import LAUNCHPAD_PATHS, LAUNCHPAD_VERSIONS
from wadlclient.schema import schema_for
from wadlclient.testing import FakeEntry, FakeService, launchpad_wadl

ARCHIVE_1_0 = "https://api.launchpad.net/1.0/ubuntu/+archive/primary"


@pytest.fixture
def seeded(fake_lp: FakeService) -> Iterator[FakeService]:
    """Ada, Ubuntu noble with amd64, its primary archive, two processors, a snap of Ada's."""
    ada = fake_lp.add("people", name="ada")
    ubuntu = fake_lp.add("distributions", name="ubuntu")
    noble = fake_lp.add("distro_series", distribution=ubuntu, name="noble")
    fake_lp.add("distro_arch_series", distroseries=noble, architecture_tag="amd64")
    fake_lp.add("archive", distribution=ubuntu, name="primary")
    fake_lp.add("processors", name="amd64")
    fake_lp.add("processors", name="arm64")
    fake_lp.add("snaps", owner=ada, name="hello")
    yield fake_lp


def received_by(fake: FakeService, owner: str, name: str) -> list[dict[str, Any]]:
    """A handler of ``owner.name`` that keeps what it is given and answers the snap."""
    calls: list[dict[str, Any]] = []

    @fake.operation(owner, name)
    def handler(_owner: Any, /, **arguments: Any) -> FakeEntry:
        calls.append(arguments)
        return fake.entry_at("~ada/+snap/hello")

    return calls


def test_a_lone_value_of_a_list_param_is_a_one_item_list_and_links_in_it_are_entries(
    seeded: FakeService,
) -> None:
    calls = received_by(seeded, "snaps", "new")

    answer = requests.post(
        seeded.base + "+snaps",
        data={
            "ws.op": "new", "owner": "/~ada", "name": "hello",
            "store_channels": ["edge"],
            "processors": ["/+processors/amd64", f"{seeded.base}+processors/arm64"],
        },
        timeout=10,
    )  # fmt: skip

    assert answer.status_code == 201, answer.text
    assert calls[0]["store_channels"] == ["edge"]
    assert [p.path for p in calls[0]["processors"]] == ["+processors/amd64", "+processors/arm64"]


@pytest.mark.parametrize("sent", ['["edge", "beta"]', ["edge", "beta"]])
def test_a_list_goes_as_json_or_as_repeated_values(seeded: FakeService, sent: Any) -> None:
    calls = received_by(seeded, "snaps", "new")

    data = {"ws.op": "new", "owner": "/~ada", "name": "hello", "store_channels": sent}
    answer = requests.post(seeded.base + "+snaps", data=data, timeout=10)

    assert (answer.status_code, calls[0]["store_channels"]) == (201, ["edge", "beta"])


@pytest.mark.parametrize(
    ("sent", "received"), [("[1, 2]", [1, 2]), ("5", [5]), (["5", "6"], [5, 6])]
)
def test_the_items_of_a_list_keep_their_json_types(
    seeded: FakeService, sent: Any, received: list[int]
) -> None:
    calls: list[Any] = []
    seeded.operation("snap", "getBuildSummaries")(
        lambda _snap, /, **arguments: calls.append(arguments["build_ids"]) or {}
    )

    answer = requests.get(
        seeded.base + "~ada/+snap/hello",
        params={"ws.op": "getBuildSummaries", "build_ids": sent},
        timeout=10,
    )

    assert (answer.status_code, calls) == (200, [received]), answer.text


def test_a_link_to_nothing_in_a_list_is_a_400_as_lazr_restful_answers(
    seeded: FakeService,
) -> None:
    calls = received_by(seeded, "snaps", "new")

    answer = requests.post(
        seeded.base + "+snaps",
        data={"ws.op": "new", "owner": "/~ada", "name": "hello",
              "processors": ["/+processors/amd64", "/+processors/riscv64"]},
        timeout=10,
    )  # fmt: skip

    assert (answer.status_code, calls) == (400, [])
    assert 'processors: No such object "/+processors/riscv64".' in answer.text


@pytest.mark.parametrize(
    ("sent", "received"),
    [
        ('{"core24": "latest/stable"}', {"core24": "latest/stable"}),
        ("core24,latest/stable", {"core24": "latest/stable"}),
        (["core24,latest/stable", "snapcraft,8.x/stable"],
         {"core24": "latest/stable", "snapcraft": "8.x/stable"}),
    ],
)  # fmt: skip
def test_a_dict_goes_as_json_or_as_name_value_pairs(
    seeded: FakeService, sent: Any, received: dict[str, str]
) -> None:
    calls = received_by(seeded, "snap", "requestBuilds")

    data = {"ws.op": "requestBuilds", "archive": "/ubuntu/+archive/primary",
            "pocket": "Updates", "channels": sent}  # fmt: skip
    answer = requests.post(seeded.base + "~ada/+snap/hello", data=data, timeout=10)

    assert answer.status_code == 201, answer.text
    assert calls[0]["channels"] == received


def test_a_dict_that_is_not_name_value_pairs_is_a_400(seeded: FakeService) -> None:
    calls = received_by(seeded, "snap", "requestBuilds")

    # requests sends a dict inside form data as its keys, repeated: Launchpad refuses it.
    data = {
        "ws.op": "requestBuilds",
        "archive": "/ubuntu/+archive/primary",
        "pocket": "Updates",
        "channels": {"core24": "latest/stable", "snapcraft": "8.x"},
    }
    answer = requests.post(seeded.base + "~ada/+snap/hello", data=data, timeout=10)

    assert (answer.status_code, calls) == (400, [])
    assert "channels: got '['core24', 'snapcraft']', list of name,value pairs" in answer.text


def test_a_link_of_another_active_version_is_taken_wherever_a_link_goes(
    seeded: FakeService,
) -> None:
    calls = received_by(seeded, "snap", "requestBuilds")

    answer = requests.post(
        seeded.base + "~ada/+snap/hello",
        data={"ws.op": "requestBuilds", "archive": ARCHIVE_1_0, "pocket": "Updates"},
        timeout=10,
    )
    elsewhere = ARCHIVE_1_0.replace("/1.0/", "/2.0/")
    refused = requests.post(
        seeded.base + "~ada/+snap/hello",
        data={"ws.op": "requestBuilds", "archive": elsewhere, "pocket": "Updates"},
        timeout=10,
    )

    assert answer.status_code == 201, answer.text
    assert calls[0]["archive"] is seeded.entry_at("ubuntu/+archive/primary")
    assert refused.status_code == 400 and "No such object" in refused.text


@pytest.mark.parametrize(
    ("owner", "path", "query", "message"),
    [
        ("person", "~ada", {"ws.op": "getPPAByName", "name": "nope"}, "No such ppa: 'nope'."),
        ("distribution", "ubuntu", {"ws.op": "getSeries", "name_or_version": "nope"},
         "No such distribution series: 'nope'."),
    ],
)  # fmt: skip
def test_a_found_or_404_lookup_answers_404_never_null(
    seeded: FakeService, owner: str, path: str, query: dict[str, str], message: str
) -> None:
    seeded.operation(owner, str(query["ws.op"]))(lambda _owner, /, **_arguments: None)

    answer = requests.get(seeded.base + path, params=query, timeout=10)

    assert (answer.status_code, answer.text.strip()) == (404, message)


def test_total_size_link_is_only_for_versions_that_send_it() -> None:
    with FakeService(launchpad_wadl("1.0")) as old:
        with pytest.raises(ValueError, match=r"1\.0 API never sends total_size_link"):
            old.total_size_link = True
        assert old.total_size_link is False
    with FakeService(launchpad_wadl("devel")) as devel:
        devel.total_size_link = True
        assert devel.total_size_link is True


def test_a_hosted_file_answers_with_its_last_modified_date(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada", mugshot=("image/png", b"\x89PNG"))

    answer = requests.get(fake_lp.url_of(ada) + "/mugshot", timeout=10)
    stored = ada.file_dates["mugshot"]  # before the PUT, which may date it a second later
    replaced = requests.put(
        fake_lp.url_of(ada) + "/mugshot", data=b"GIF8", headers={"Content-Type": "image/gif"},
        timeout=10,
    )  # fmt: skip
    after = requests.get(fake_lp.url_of(ada) + "/mugshot", timeout=10)

    assert (answer.status_code, replaced.status_code, after.content) == (200, 200, b"GIF8")
    first = parsedate_to_datetime(answer.headers["Last-Modified"])
    assert first == stored
    assert parsedate_to_datetime(after.headers["Last-Modified"]) >= first


def test_a_live_filesystem_and_its_builds_live_where_launchpad_keeps_them(
    seeded: FakeService,
) -> None:
    noble = seeded.entry_at("ubuntu/noble")
    livefs = seeded.add("livefses", owner=seeded.entry_at("~ada"), distro_series=noble, name="cd")
    build = seeded.add("livefs_build", livefs=livefs)

    assert livefs.path == "~ada/+livefs/ubuntu/noble/cd"
    assert build.path == "~ada/+livefs/ubuntu/noble/cd/+build/1"
    assert requests.get(seeded.url_of(build), timeout=10).json()["livefs_link"] == (
        seeded.url_of(livefs)
    )


def test_a_handler_lists_a_collections_entries_through_the_public_api(
    seeded: FakeService,
) -> None:
    ada = seeded.entry_at("/~ada")
    ppa = seeded.add_to(ada, "ppas", distribution=seeded.entry_at("ubuntu"), name="ppa")

    @seeded.operation("person", "getPPAByName")
    def by_name(person: FakeEntry, /, **arguments: Any) -> FakeEntry | None:
        found = [p for p in seeded.entries_of(person, "ppas") if p["name"] == arguments["name"]]
        return found[0] if found else None

    answer = requests.get(
        seeded.url_of(ada), params={"ws.op": "getPPAByName", "name": "ppa"}, timeout=10
    )

    assert answer.json()["self_link"] == seeded.url_of(ppa)
    assert [p.path for p in seeded.entries_of("processors")] == [
        "+processors/amd64", "+processors/arm64",
    ]  # fmt: skip
    assert seeded.entry_at(seeded.url_of(ppa)) is ppa
    with pytest.raises(ValueError, match=r"no collection 'ppaz' \(did you mean 'ppas'\?\)"):
        seeded.entries_of(ada, "ppaz")
    with pytest.raises(KeyError, match="~nobody"):
        seeded.entry_at("~nobody")


@pytest.mark.parametrize("version", LAUNCHPAD_VERSIONS)
def test_the_facts_name_only_what_launchpads_wadls_have(version: str) -> None:
    schema = schema_for(launchpad_wadl(version), f"https://api.launchpad.net/{version}/", None)
    types = schema.app.resource_types
    operations = {
        (name, param.name)
        for type_id in types
        for name, method in schema.type_info(type_id).operations.items()
        for param in method.params
    }
    if version == "devel":
        assert set(ARGUMENTS) <= operations
        assert [
            key for key in FOUND_OR_404 if key[1] not in schema.type_info(key[0]).operations
        ] == []
        assert set(LAUNCHPAD_PATHS) <= set(types)
    known = {key: argument for key, argument in ARGUMENTS.items() if key in operations}
    assert known, f"no list or dict param of {version} is known"
    assert {a.link_type for a in known.values() if a.link_type} <= set(types)
