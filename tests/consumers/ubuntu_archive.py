"""Ubuntu's archive on the fake, as the archive-reading programs here see it.

A distribution with its series and their architectures, the primary
archive and people's PPAs, what each archive publishes (sources, binaries,
builds), and the lookups and searches those programs call, answered as
Launchpad does: ``getSeries`` and ``getPPAByName`` are found or 404,
``getDistroArchSeries`` too, searches filter on what they are given.
"""

from __future__ import annotations

from typing import Any

from wadlclient.testing import FakeEntry, FakeService, HTTPException

#: The web host programs read librarian URLs on (``build.buildinfo_url`` and the like).
WEB = "https://launchpad.net"


class UbuntuArchive:
    """Ubuntu, its series, its primary archive and PPAs, and what they publish."""

    def __init__(self, fake: FakeService) -> None:
        self.fake = fake
        self.ubuntu = fake.add("distributions", name="ubuntu", display_name="Ubuntu")
        self.primary = fake.add(
            "archives", name="primary", distribution=self.ubuntu, reference="ubuntu",
            displayname="Primary Archive for Ubuntu",
        )  # fmt: skip
        fake.change(self.ubuntu, main_archive=self.primary)
        self.sources: list[FakeEntry] = []
        self.binaries: list[FakeEntry] = []
        self.builds: list[FakeEntry] = []

        @fake.operation("distribution", "getSeries")
        def get_series(distribution: FakeEntry, /, *, name_or_version: str) -> FakeEntry:
            for series in fake.entries_of(distribution, "series"):
                if name_or_version in (series["name"], series["version"]):
                    return series
            raise HTTPException(404, f"No such distribution series: '{name_or_version}'.")

        @fake.operation("distro_series", "getDistroArchSeries")
        def get_arch_series(series: FakeEntry, /, *, archtag: str) -> FakeEntry:
            for arch in fake.entries_of(series, "architectures"):
                if arch["architecture_tag"] == archtag:
                    return arch
            raise HTTPException(404, f"Unknown architecture {archtag} for {series['name']}")

        @fake.operation("person", "getPPAByName")
        def get_ppa_by_name(owner: FakeEntry, /, *, name: str, **_: Any) -> FakeEntry:
            for ppa in fake.entries_of(owner, "ppas"):
                if ppa["name"] == name:
                    return ppa
            raise HTTPException(404, f"No such ppa: '{name}'.")

        @fake.operation("archive", "getPublishedSources")
        def published_sources(archive: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
            return self._search(self.sources, archive, filters, "source_name", "distro_series")

        @fake.operation("archive", "getPublishedBinaries")
        def published_binaries(archive: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
            return self._search(
                self.binaries, archive, filters, "binary_name", "distro_arch_series"
            )

        @fake.operation("source_package_publishing_history", "getBuilds")
        def builds_of(source: FakeEntry, /) -> list[FakeEntry]:
            return [b for b in self.builds if b["current_source_publication"] is source]

        @fake.operation("source_package_publishing_history", "changelogUrl")
        def changelog_url(source: FakeEntry, /) -> str:
            name, version = source["source_package_name"], source["source_package_version"]
            return f"{WEB}/{source['archive'].path}/+files/{name}_{version}.changelog"

    def _search(
        self, published: list[FakeEntry], archive: FakeEntry, filters: dict[str, Any],
        name_filter: str, where: str,
    ) -> list[FakeEntry]:  # fmt: skip
        """Launchpad's archive searches: each filter given narrows; newest first by date."""
        kind = "source" if name_filter == "source_name" else "binary"
        name_field = f"{kind}_package_name"
        version_field = name_field.replace("_name", "_version")
        found = [
            entry for entry in published
            if entry["archive"] is archive
            and filters.get(name_filter) in (None, entry[name_field])
            and filters.get("version") in (None, entry[version_field])
            and filters.get("status") in (None, entry["status"])
            and filters.get("pocket") in (None, entry["pocket"])
            and filters.get(where) in (None, entry[where])
        ]  # fmt: skip
        return found[::-1] if filters.get("order_by_date") else found

    def series(self, name: str, version: str, *arches: str) -> FakeEntry:
        """A series of Ubuntu with these architectures."""
        series = self.fake.add_to(
            self.ubuntu, "series", name=name, version=version, distribution=self.ubuntu
        )
        for tag in arches:
            self.fake.add_to(
                series, "architectures", architecture_tag=tag, distroseries=series,
                display_name=f"Ubuntu {name} {tag}",
            )  # fmt: skip
        return series

    def arch(self, series: FakeEntry, tag: str) -> FakeEntry:
        arches = self.fake.entries_of(series, "architectures")
        [arch] = [a for a in arches if a["architecture_tag"] == tag]
        return arch

    def ppa(self, owner: FakeEntry, name: str) -> FakeEntry:
        """``owner``'s PPA ``name`` (Launchpad: ``~owner/+archive/ubuntu/name``)."""
        return self.fake.add_to(
            owner, "ppas", name=name, owner=owner, distribution=self.ubuntu,
            reference=f"~{owner['name']}/ubuntu/{name}",
        )  # fmt: skip

    def publish(
        self, archive: FakeEntry, series: FakeEntry, name: str, version: str,
        binaries: dict[str, str] | None = None, status: str = "Published",
    ) -> FakeEntry:  # fmt: skip
        """Source ``name`` ``version`` in ``archive``, built on each arch of ``binaries``.

        ``binaries`` maps an architecture tag to the binary package built there
        (its name; its version is the source's).
        """
        source = self.fake.add(
            "source_package_publishing_history", archive=archive, distro_series=series,
            source_package_name=name, source_package_version=version, status=status,
            pocket="Release", display_name=f"{name} {version} in {series['name']}",
        )  # fmt: skip
        self.sources.append(source)
        for tag, binary in (binaries or {}).items():
            files = f"{WEB}/{archive.path}/+files"
            build = self.fake.add(
                "build", archive=archive, arch_tag=tag, current_source_publication=source,
                source_package_name=name, source_package_version=version,
                title=f"{tag} build of {name} {version} in ubuntu {series['name']} RELEASE",
                buildinfo_url=f"{files}/{name}_{version}_{tag}.buildinfo",
                changesfile_url=f"{files}/{name}_{version}_{tag}.changes",
                build_log_url=f"{files}/buildlog_ubuntu-{series['name']}-{tag}.{name}_{version}_BUILDING.txt.gz",
            )  # fmt: skip
            self.builds.append(build)
            binary_publication = self.fake.add(
                "binary_package_publishing_history", archive=archive, build=build,
                distro_arch_series=self.arch(series, tag), binary_package_name=binary,
                binary_package_version=version, source_package_name=name,
                source_package_version=version, status=status, pocket="Release",
            )  # fmt: skip
            self.binaries.append(binary_publication)
        return source
