"""A remote-build flow on Launchpad's devel API, typed: what craft tools do (never run).

Snap, rock and charm recipes found, created and built, their build
requests polled, a Git repository found by path and given an access
token: the devel-only operations (``requestBuilds``, ``rock_recipes``,
``git_repositories.getByPath``), written with `wadlclient.launchpad` and
with launchpadlib alike. Links go as entries or as URLs from the root
(``owner="/~ada"``), as Launchpad's docs and real clients write them.
``tests/typed/test_launchpad_devel.py`` checks that ``mypy --strict`` and
pyright in strict mode find nothing wrong here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from launchpadlib.launchpad import Launchpad

from wadlclient.launchpad import (
    CharmRecipeBuildRequestStatus,
    GitRepository,
    InformationType,
    Pocket,
    RockRecipe,
    ServiceRoot,
    Snap,
    SnapBuild,
    SnapBuildRequest,
    login_anonymously,
)


def my_snaps(lp: ServiceRoot) -> Iterator[Snap]:
    """The logged-in user's snap recipes: ``me`` is a person after a login."""
    yield from lp.snaps.findByOwner(owner=lp.me)


def snap_named(lp: ServiceRoot, owner: str, name: str) -> Snap:
    """Launchpad answers 404 for a recipe it lacks: no None to check."""
    return lp.snaps.getByName(owner=f"/~{owner}", name=name)


def build_snap(snap: Snap, pocket: Pocket = "Updates") -> SnapBuildRequest:
    request = snap.requestBuilds(
        archive="/ubuntu/+archive/primary", pocket=pocket, channels={"snapcraft": "8.x/stable"}
    )
    done: tuple[CharmRecipeBuildRequestStatus, ...] = ("Completed", "Failed")
    while request.status not in done:
        time.sleep(1)
        request.lp_refresh()
    return request


def artifacts(request: SnapBuildRequest) -> dict[str, list[str]]:
    """Each build's files, by architecture tag."""
    found: dict[str, list[str]] = {}
    for build in request.builds:
        found[str(build.arch_tag)] = [str(url) for url in build.getFileUrls()]
    return found


def retry_failed(builds: list[SnapBuild]) -> int:
    retried = 0
    for build in builds:
        if build.buildstate == "Failed to build" and build.can_be_retried:
            build.retry()
            retried += 1
    return retried


def new_rock(lp: ServiceRoot, owner: str, project: str, repository: GitRepository) -> RockRecipe:
    ref = repository.getRefByPath(path="refs/heads/main")
    if ref is None:
        raise LookupError(f"{repository.unique_name} has no main branch")
    visibility: InformationType = "Public"
    return lp.rock_recipes.new(
        owner=f"/~{owner}", project=f"/{project}", name="my-rock", git_ref=ref,
        information_type=visibility, auto_build=False,
    )  # fmt: skip


def rocks_of(lp: ServiceRoot, owner: str) -> list[str]:
    return [str(recipe.name) for recipe in lp.rock_recipes.findByOwner(owner=f"/~{owner}")]


def repository_token(lp: ServiceRoot, path: str) -> object:
    repository = lp.git_repositories.getByPath(path=path)
    if repository is None:
        raise LookupError(f"no repository at {path}")
    return repository.issueAccessToken(description="remote build", scopes=["repository:push"])


def charm_builds(lp: ServiceRoot, owner: str, project: str, name: str) -> int:
    recipe = lp.charm_recipes.getByName(owner=lp.people[owner], project=f"/{project}", name=name)
    request = recipe.requestBuilds(channels={"charmcraft": "3.x/stable"})
    return len(request.builds)


def anonymous_projects(service_root: str) -> list[str]:
    with login_anonymously("devel-flows", service_root, version="devel") as lp:
        frobnicator = lp.projects["frobnicator"]
        return [str(series.name) for series in frobnicator.series]


def with_launchpadlib(cache: Path) -> str:
    """The same API through launchpadlib: ``Launchpad`` is typed as Launchpad's root."""
    lp = Launchpad.login_anonymously("devel-flows", "production", cache, version="devel")
    snap = lp.snaps.getByName(owner="/~ada", name="hello")
    request = snap.requestBuilds(archive=lp.distributions["ubuntu"].main_archive, pocket="Release")
    return str(request.web_link)
