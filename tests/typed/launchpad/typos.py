"""Typos a type checker must catch in code written against launchpadlib's `Launchpad`."""

from __future__ import annotations

from launchpadlib.launchpad import Launchpad

from wadlclient.launchpad import BugTaskStatus, Snap, SourcePackageRecipe


def channels(recipe: Snap) -> object:
    return recipe.store_chanels  # error: a misspelt field


def fixed(task_status: BugTaskStatus = "Fix Relased") -> BugTaskStatus:  # error: not an option
    return task_status


def build(lp: Launchpad, recipe: SourcePackageRecipe) -> object:
    archive = lp.people["ada"].getPPAByName(name="ppa")
    series = lp.distributions["ubuntu"].getSeries(name_or_version="noble")
    assert archive is not None and series is not None
    return recipe.requestBuild(archive=archive, distro_series=series, pocket="Release")  # error
