"""ppa-dev-tools (PyPI, 0.7.0): its library, unchanged, against the testing kit.

What its ``ppa`` command does, through the public classes the command is
made of: ``Lp`` (its launchpadlib wrapper, logging in as the command
does), ``PpaGroup`` (a person's PPAs: create, list) and ``Ppa`` (one PPA:
exists, description, publish, architectures, dependencies, pocket,
published packages, destroy). The command itself needs ``apt_pkg``
(python-apt, which is not on PyPI) for commands these tests do not run;
its library does not.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from wadlclient.testing import FakeEntry, FakeService, HTTPException


class Archives:
    """Ubuntu, its primary archive, processors, and Launchpad's PPA operations on the fake."""

    def __init__(self, fake: FakeService) -> None:
        self.fake = fake
        self.ubuntu = fake.add("distributions", name="ubuntu", display_name="Ubuntu")
        self.primary = fake.add(
            "archives", name="primary", distribution=self.ubuntu, reference="ubuntu",
            displayname="Primary Archive for Ubuntu",
        )  # fmt: skip
        fake.change(self.ubuntu, main_archive=self.primary)
        self.processors = {
            name: fake.add("processors", name=name) for name in ("amd64", "arm64", "riscv64")
        }
        #: The PPAs created, by owner; the dependencies added; what each PPA publishes.
        self.ppas: dict[str, list[FakeEntry]] = {}
        self.dependencies: list[FakeEntry] = []
        self.sources: dict[str, list[FakeEntry]] = {}

        @fake.operation("person", "createPPA")
        def create_ppa(owner: FakeEntry, /, *, name: str, **fields: Any) -> FakeEntry:
            if any(ppa["name"] == name for ppa in self.ppas_of(owner)):
                raise HTTPException(400, f"You already have a PPA for Ubuntu named '{name}'.")
            fields.pop("distribution", None)
            ppa = fake.add_to(
                owner, "ppas", name=name, owner=owner, distribution=self.ubuntu,
                reference=f"~{owner['name']}/ubuntu/{name}", publish=True, **fields,
            )  # fmt: skip
            self.ppas.setdefault(owner["name"], []).append(ppa)
            return ppa

        @fake.operation("person", "getPPAByName")
        def get_ppa_by_name(owner: FakeEntry, /, *, name: str, **_: Any) -> FakeEntry:
            for ppa in self.ppas_of(owner):
                if ppa["name"] == name:
                    return ppa
            raise HTTPException(404, f"No such ppa: '{name}'.")

        @fake.operation("archive", "setProcessors")
        def set_processors(archive: FakeEntry, /, *, processors: list[FakeEntry]) -> None:
            for processor in processors:  # a list of links: the entries they name
                fake.add_to(archive, "processors", processor)

        @fake.operation("archive", "addArchiveDependency")
        def add_dependency(
            archive: FakeEntry, /, *, dependency: FakeEntry, pocket: str, component: Any = None
        ) -> FakeEntry:
            added = fake.add_to(
                archive, "dependencies", archive=archive, dependency=dependency, pocket=pocket,
                component_name=component, title=f"{dependency['displayname']} ({pocket})",
            )  # fmt: skip
            self.dependencies.append(added)
            return added

        @fake.operation("archive", "getPublishedSources")
        def get_published_sources(archive: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
            return [
                source for source in self.sources.get(archive["reference"], [])
                if filters.get("status") in (None, source["status"])
                and filters.get("source_name") in (None, source["source_package_name"])
            ]  # fmt: skip

    def ppas_of(self, owner: FakeEntry) -> list[FakeEntry]:
        return [ppa for ppa in self.ppas.get(owner["name"], []) if not ppa.deleted]


@pytest.fixture
def archives(fake_launchpad: FakeService) -> Archives:
    return Archives(fake_launchpad)


@pytest.fixture
def ada(fake_launchpad: FakeService, archives: Archives) -> FakeEntry:
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.set_root_link("me", ada)
    return ada


def test_a_ppa_is_created_published_and_given_architectures_and_a_description(
    ada: FakeEntry, archives: Archives, fake_launchpad: FakeService,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from ppa.lp import Lp
    from ppa.ppa_group import PpaGroup

    lp = Lp("ppa-dev-tools")

    the_ppa = PpaGroup(service=lp, name=lp.me.name).create("frob", ppa_description="Frob builds")
    the_ppa.set_publish(False)
    assert the_ppa.set_architectures(["amd64", "arm64"])
    the_ppa.set_description("Frob builds, nightly")

    assert (the_ppa.address, the_ppa.url) == (
        "ppa:ada/frob", "https://launchpad.net/~ada/+archive/ubuntu/frob",
    )  # fmt: skip
    assert the_ppa.architectures == ["amd64", "arm64"]
    assert "desc is now 'Frob builds, nightly'" in capsys.readouterr().out
    [archive] = archives.ppas_of(ada)
    assert archive.path == "~ada/+archive/ubuntu/frob"
    assert (archive["description"], archive["publish"]) == ("Frob builds, nightly", False)
    [create] = fake_launchpad.journal.operations("createPPA")
    assert (create.path, create.status) == ("~ada", 201)
    # After createPPA it saves the unchanged owner: stock launchpadlib PATCHes {} (Launchpad
    # answers 209 and changes nothing), wadlclient sends nothing; the changes are the same.
    patches = [s for s in fake_launchpad.journal.requests("PATCH") if json.loads(s.body)]
    assert [(s.path, json.loads(s.body), s.status) for s in patches] == [
        ("~ada/+archive/ubuntu/frob", {"publish": False}, 209),
        ("~ada/+archive/ubuntu/frob", {"description": "Frob builds, nightly"}, 209),
    ]


def test_a_second_ppa_of_the_same_name_is_refused_with_launchpads_message(
    ada: FakeEntry, archives: Archives, fake_launchpad: FakeService
) -> None:
    from ppa.lp import Lp
    from ppa.ppa_group import PpaAlreadyExists, PpaGroup

    group = PpaGroup(service=Lp("ppa-dev-tools"), name="ada")
    group.create("frob")

    with pytest.raises(PpaAlreadyExists) as refused:
        group.create("frob")

    assert b"You already have a PPA for Ubuntu named 'frob'." in refused.value.message
    assert [s.status for s in fake_launchpad.journal.operations("createPPA")] == [201, 400]


def test_ppas_are_listed_looked_up_and_destroyed(
    ada: FakeEntry, archives: Archives, fake_launchpad: FakeService
) -> None:
    from ppa.lp import Lp
    from ppa.ppa import Ppa
    from ppa.ppa_group import PpaGroup

    lp = Lp("ppa-dev-tools")
    group = PpaGroup(service=lp, name="ada")
    for name in ("frob", "tools", "old-deletedppa"):
        group.create(name)

    listed = [p.address for p in group.ppas]
    frob, missing = Ppa("frob", "ada", service=lp), Ppa("nope", "ada", service=lp)
    exists = (frob.exists(), missing.exists())
    destroyed = frob.destroy()

    assert listed == ["ppa:ada/frob", "ppa:ada/tools"]
    assert exists == (True, False)
    assert destroyed is None  # launchpadlib's lp_delete returns nothing; Launchpad said 200
    lookups = fake_launchpad.journal.operations("getPPAByName")
    assert [(s.query["name"], s.status) for s in lookups] == [(['"frob"'], 200), (['"nope"'], 404)]
    [delete] = fake_launchpad.journal.requests("DELETE")
    assert (delete.path, delete.status) == ("~ada/+archive/ubuntu/frob", 200)


def test_dependencies_on_other_ppas_and_the_ubuntu_pocket_are_set(
    ada: FakeEntry, archives: Archives, fake_launchpad: FakeService
) -> None:
    from ppa.lp import Lp
    from ppa.ppa_group import PpaGroup

    bob = fake_launchpad.add("people", name="bob", display_name="Bob")
    lp = Lp("ppa-dev-tools")
    PpaGroup(service=lp, name="bob").create("tools")
    the_ppa = PpaGroup(service=lp, name="ada").create("frob")

    the_ppa.set_dependencies(["ppa:bob/tools"])
    the_ppa.set_pocket("proposed")

    assert the_ppa.dependencies == ["~bob/ubuntu/tools", "ubuntu"]
    assert the_ppa.pocket == "proposed"
    added = fake_launchpad.journal.operations("addArchiveDependency")
    assert [s.status for s in added] == [201, 201]
    # It names the PPA by a URL on Launchpad's own host (its constant API_ROOT_URL).
    published = '"https://api.launchpad.net/devel/~bob/+archive/ubuntu/tools"'
    assert (added[0].body["dependency"], added[0].body["pocket"]) == ([published], ["Release"])
    [tools] = archives.ppas_of(bob)
    assert [d["dependency"] for d in archives.dependencies] == [tools, archives.primary]


def test_published_sources_are_listed_by_status(
    ada: FakeEntry, archives: Archives, fake_launchpad: FakeService
) -> None:
    from ppa.lp import Lp
    from ppa.ppa_group import PpaGroup

    lp = Lp("ppa-dev-tools")
    the_ppa = PpaGroup(service=lp, name="ada").create("frob")
    noble = fake_launchpad.add_to(archives.ubuntu, "series", name="noble", version="24.04")
    for n, (version, status) in enumerate([("1.0-1", "Published"), ("1.1-1", "Pending")], 1):
        source = fake_launchpad.add(
            "source_package_publishing_history", archive=archives.ppas_of(ada)[0],
            source_package_name="frob", source_package_version=version, status=status,
            distro_series=noble,
        )  # fmt: skip
        assert source.path == f"~ada/+archive/ubuntu/frob/+sourcepub/{n}"
        archives.sources.setdefault("~ada/ubuntu/frob", []).append(source)

    listed = [str(p) for p in the_ppa.get_source_publications()]

    assert the_ppa.has_packages() and not the_ppa.has_packages(name="other")
    assert listed == [
        "noble/frob/1.1-1 (ada/frob): Pending", "noble/frob/1.0-1 (ada/frob): Published",
    ]  # fmt: skip
    searches = fake_launchpad.journal.operations("getPublishedSources")
    assert [s.query.get("status") for s in searches][:2] == [["Pending"], ["Published"]]
