"""Launchpad models in the shape of a build tool's (craft-application's launchpad/models).

A build tool wraps launchpadlib's objects in classes of its own: a base
class that holds the Launchpad object and refreshes it, recipes that
request builds, build requests that are waited on, and the enumerations
Launchpad's API takes. Here every one of them is typed from Launchpad's
WADL (``wadlclient.launchpad`` and the shipped ``launchpadlib`` stubs):
no ``Any`` from launchpadlib, no enumeration copied by hand, no ignore
comment. ``tests/typed/test_launchpad_typed.py`` checks it with
``mypy --strict`` and ``pyright --strict`` and runs it on launchpadlib,
on wadlclient, against a Launchpad-like service.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from launchpadlib.launchpad import Launchpad

from wadlclient import EntryLike
from wadlclient.launchpad import (
    BugTask,
    BugTaskStatus,
    CharmRecipeBuildRequestStatus,
    InformationType,
    Pocket,
    Snap,
    SnapBuildRequest,
    SourcePackageRecipe,
    SourcePackageRecipeBuild,
)

#: Launchpad's enumerations are Launchpad's (``Pocket``, ``InformationType``):
#: this one is shared by snap and charm build requests, named after the first.
BuildRequestStatus = CharmRecipeBuildRequestStatus

_E = TypeVar("_E", bound=EntryLike)


class LaunchpadObject(Generic[_E]):
    """A Launchpad entry and the Launchpad it came from."""

    def __init__(self, lp: Launchpad, obj: _E) -> None:
        self._lp = lp
        self._obj = obj

    @property
    def self_link(self) -> str:
        return self._obj.self_link

    def refresh(self) -> None:
        """Read the entry again (a conditional GET: nothing new costs a 304)."""
        self._obj.lp_refresh()


class Recipe(LaunchpadObject[SourcePackageRecipe]):
    """A source package recipe: built into an archive, for a series, in a pocket."""

    @classmethod
    def get(cls, lp: Launchpad, owner: str, name: str) -> Recipe:
        """The recipe ``name`` of ``owner``; `LookupError` when Launchpad has none."""
        found = lp.people[owner].getRecipe(name=name)
        if found is None:
            raise LookupError(f"{owner} has no recipe named {name!r}")
        return cls(lp, found)

    @property
    def name(self) -> str:
        return str(self._obj.name)

    def build(self, series: str, pocket: Pocket = "Release") -> Build:
        """Request a build into the owner's PPA, for ``series`` of Ubuntu.

        Launchpad answers 404 for a PPA or a series it lacks (``NoSuchPPA``,
        ``NoSuchDistroSeries``), never null: nothing to check for None.
        """
        archive = self._obj.owner.getPPAByName(name="ppa")
        distroseries = self._lp.distributions["ubuntu"].getSeries(name_or_version=series)
        build = self._obj.requestBuild(archive=archive, distroseries=distroseries, pocket=pocket)
        if build is None:
            raise RuntimeError(f"Launchpad answered no build for {self.name}")
        return Build(self._lp, build)


class Build(LaunchpadObject[SourcePackageRecipeBuild]):
    """One build of a recipe."""

    @property
    def pocket(self) -> Pocket:
        return self._obj.pocket

    @property
    def state(self) -> str:
        return self._obj.buildstate


class SnapRecipe(LaunchpadObject[Snap]):
    """A snap recipe: where its builds are released, who may see it."""

    @classmethod
    def find(cls, lp: Launchpad, owner: str, name: str) -> SnapRecipe:
        for snap in lp.snaps:
            if snap.name == name and snap.owner.name == owner:
                return cls(lp, snap)
        raise LookupError(f"{owner} has no snap recipe named {name!r}")

    @property
    def store_channels(self) -> list[str]:
        return [str(channel) for channel in self._obj.store_channels]

    @property
    def information_type(self) -> InformationType:
        return self._obj.information_type

    def build_requests(self) -> Iterator[BuildRequest]:
        """The requests still waiting to become builds."""
        for request in self._obj.pending_build_requests:
            yield BuildRequest(self._lp, request)


class BuildRequest(LaunchpadObject[SnapBuildRequest]):
    """A request for builds, which Launchpad turns into builds later."""

    @property
    def status(self) -> BuildRequestStatus:
        return self._obj.status

    def is_done(self) -> bool:
        done: tuple[BuildRequestStatus, ...] = ("Completed", "Failed")
        return self.status in done


def triage(task: BugTask, status: BugTaskStatus = "Triaged") -> BugTaskStatus:
    """Give a task a status (one of Launchpad's, checked before anything is sent); save it."""
    task.status = status
    task.lp_save()
    return task.status


def login(service_root: str, cache_dir: str) -> Launchpad:
    """launchpadlib's anonymous login: a `Launchpad`, typed as Launchpad's service root."""
    return Launchpad.login_anonymously(
        "craft-models", service_root=service_root, launchpadlib_dir=cache_dir, version="1.0"
    )
