"""Typos in code on Launchpad's devel API: each marked line is an error for mypy and pyright."""

from __future__ import annotations

from launchpadlib.launchpad import Launchpad

from wadlclient.launchpad import Pocket, ServiceRoot, Snap


def channels(snap: Snap) -> object:
    return snap.store_chanels  # error: a misspelt field


def pocket() -> Pocket:
    return "Updatess"  # error: not one of Launchpad's pockets


def build(snap: Snap) -> object:
    return snap.requestBuilds(archive="/ubuntu/+archive/a", pocket="Updates", chanels={})  # error


def find(lp: ServiceRoot) -> object:
    return lp.snaps.findByOwnr(owner="/~ada")  # error: a misspelt named operation


def rocks(lp: ServiceRoot) -> object:
    return lp.rock_recipies  # error: a misspelt collection


def on_launchpadlib(lp: Launchpad) -> object:
    return lp.git_repositories.getByPth(path="~ada/frobnicator/+git/frob")  # error
