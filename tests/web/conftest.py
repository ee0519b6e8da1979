"""A fake Launchpad (its devel WADL) seeded with one object of every kind a web page shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest

import wadlclient
from wadlclient.testing import FakeEntry, FakeService, launchpad_wadl, routed_to


def seed(fake: FakeService) -> dict[str, FakeEntry]:
    """Ada's project frob and Ubuntu's hello, with a bug, code, recipes, a blueprint, a question.

    Launchpad's layout puts each where its web page is; a merge proposal and
    a blueprint are given their path (``+merge/7``, ``+spec/faster``) as
    Launchpad numbers and names them.
    """
    add = fake.add
    ada = add("people", name="ada")
    frob = add("projects", name="frob")
    ubuntu = add("distributions", name="ubuntu")
    noble = add("distro_series", distribution=ubuntu, name="noble")
    hello = add("distribution_source_package", distribution=ubuntu, name="hello")
    bug = add("bugs", title="hello crashes on start")
    repository = add("git_repositories", owner=ada, target=frob, name="frob")
    snap = add("snaps", owner=ada, name="frob")
    charm = add("charm_recipes", owner=ada, project=frob, name="frob")
    rock = add("rock_recipes", owner=ada, project=frob, name="frob")
    livefs = add("livefses", owner=ada, distro_series=noble, name="cd")
    team = add("team", name="frob-devs")
    ppa = add(
        "archive", distribution=ubuntu, owner=ada, name="tools", reference="~ada/ubuntu/tools"
    )
    return {
        "person": ada,
        "team": team,
        "team_membership": add("team_membership", team=team, member=ada),
        "project_group": add("project_groups", name="frobs"),
        "project": frob,
        "distribution": ubuntu,
        "distro_series": noble,
        "distro_arch_series": add(
            "distro_arch_series", distroseries=noble, architecture_tag="amd64"
        ),
        "project_series": add("project_series", project=frob, name="trunk"),
        "milestone": add("milestone", target=frob, name="1.0"),
        "distribution_source_package": hello,
        "source_package": add("source_package", distroseries=noble, name="hello"),
        "bug": bug,
        "bug_task": add("bug_task", bug=bug, target=hello),
        "cve": add("cves", sequence="2024-1234"),
        "bug_tracker": add("bug_trackers", name="debbugs"),
        "project_bug_task": add("bug_task", bug=bug, target=frob),
        "primary_archive": add("archive", distribution=ubuntu, name="primary"),
        "ppa": ppa,
        "build": add("build", archive=ppa),
        "git_repository": repository,
        "git_ref": add("git_ref", repository=repository, path="refs/heads/main"),
        "webhook": add("webhook", target=repository),
        "merge_proposal": add(
            "branch_merge_proposal", target_git_repository=repository,
            self_link=f"{repository.path}/+merge/7",
        ),
        "snap": snap,
        "snap_build": add("snap_build", snap=snap),
        "snap_base": add("snap_bases", name="core24"),
        "charm_recipe": charm,
        "charm_recipe_build": add("charm_recipe_build", recipe=charm),
        "rock_recipe": rock,
        "rock_recipe_build": add("rock_recipe_build", recipe=rock),
        "livefs": livefs,
        "livefs_build": add("livefs_build", livefs=livefs),
        "specification": add(
            "specification", target=frob, name="faster", self_link="frob/+spec/faster"
        ),
        "question": add("question", target=frob, id=3),
        "language": add("languages", code="pt_BR"),
    }  # fmt: skip


class Seeded(NamedTuple):
    fake: FakeService
    objects: dict[str, FakeEntry]


@pytest.fixture(scope="module")
def seeded() -> Iterator[Seeded]:
    """The seeded fake; ``lp:frob`` finds frob's default repository, as Launchpad's lookup does."""
    with FakeService(launchpad_wadl()) as service:
        objects = seed(service)
        defaults = {"frob": objects["git_repository"]}

        @service.operation("git_repositories", "getByPath")
        def by_path(owner: Any, /, path: str) -> FakeEntry | None:
            if path in defaults:
                return defaults[path]
            try:
                return service.entry_at(path)
            except KeyError:
                return None

        yield Seeded(service, objects)


@pytest.fixture(scope="module")
def fake(seeded: Seeded) -> FakeService:
    return seeded.fake


@pytest.fixture(scope="module")
def objects(seeded: Seeded) -> dict[str, FakeEntry]:
    return seeded.objects


@pytest.fixture(scope="module")
def lp(fake: FakeService) -> Iterator[wadlclient.ServiceRoot]:
    """A root for ``https://api.launchpad.net/devel/``, reaching the fake."""
    with routed_to(fake):
        root = wadlclient.ServiceRoot(None, "https://api.launchpad.net/", version="devel")
    with root:
        yield root
