"""A command-line Launchpad client's lookups, typed: what launchpad-cli-style tools do (never run).

A PPA by its owner and name, a series by name, an architecture of it, a
processor, a snap base, a PPA's processors set: Launchpad answers 404 for each of them when there
is none (``NoSuchPPA``, ``NoSuchDistroSeries``, ``NotFoundError``...), never
null, so the typed package gives them no ``| None`` and this code checks
no None. ``tests/typed/test_launchpad_lookups.py`` checks that ``mypy
--strict`` and pyright in strict mode find nothing here but the one typo,
its marked lines: a typo and a list of the wrong items.
"""

from __future__ import annotations

from wadlclient.launchpad import (
    Archive,
    DistroArchSeries,
    DistroSeries,
    Person,
    ServiceRoot,
    SourcePackagePublishingHistory,
)


def ppa(lp: ServiceRoot, owner: str, name: str) -> Archive:
    """``ppa:owner/name``: 404 from Launchpad for a PPA that is not there."""
    person: Person = lp.people[owner]
    return person.getPPAByName(distribution="/ubuntu", name=name)


def series(lp: ServiceRoot, name: str) -> DistroSeries:
    return lp.distributions["ubuntu"].getSeries(name_or_version=name)


def architecture(lp: ServiceRoot, series_name: str, tag: str) -> DistroArchSeries:
    return series(lp, series_name).getDistroArchSeries(archtag=tag)


def published(lp: ServiceRoot, owner: str, name: str, source: str) -> list[str]:
    """The versions of ``source`` a PPA publishes in a series."""
    found: list[SourcePackagePublishingHistory] = list(
        ppa(lp, owner, name).getPublishedSources(
            source_name=source, distro_series=series(lp, "noble"), status="Published"
        )
    )
    return [str(publication.source_package_version) for publication in found]


def describe(lp: ServiceRoot, owner: str, name: str) -> str:
    archive = ppa(lp, owner, name)
    processor = lp.processors.getByName(name="amd64")
    base = lp.snap_bases.getByName(name="core24")
    return f"{archive.displayname} on {processor.name} for {base.name}"


def enable_architectures(lp: ServiceRoot, owner: str, name: str, tags: list[str]) -> None:
    """A list param takes entries or links (``processors``), or one of them alone."""
    archive = ppa(lp, owner, name)
    archive.setProcessors(processors=[lp.processors.getByName(name=tag) for tag in tags])
    archive.setProcessors(processors="/+processors/amd64")
    archive.setProcessors(processors=[64])  # error: a list of processors, not of numbers


def builds_for(lp: ServiceRoot, owner: str, name: str) -> object:
    return ppa(lp, owner, name).getBuildRecord(build_state="Successfully built")  # error
