"""ubuntu-cloud-image-changelog (PyPI, 0.15.8): its command, unchanged, against the kit.

``ubuntu-cloud-image-changelog generate`` compares two cloud images'
package manifests and prints what changed, with each changed package's
changelog between the two versions: it logs in (its own console
authorization engine), finds both series and architectures, the source of
each binary version (``getPublishedBinaries`` on the primary archive, then
on the PPAs given), the source's publication and its ``changelogUrl()``,
and reads the changelog through the API's root
(``launchpad._browser.get(launchpad._root_uri.append(path))``). Run here
as its console script runs it (click's group), writing its JSON report.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from wadlclient.testing import FakeEntry, FakeService

from .ubuntu_archive import UbuntuArchive

#: hello's changelog entries, newest first: (version, change, bug it closes).
HELLO = [("2.10-3", "Fix the greeting's crash", 2000001), ("2.10-2", "Translate to Welsh", None)]


def changelog(name: str, entries: list[tuple[str, str, int | None]]) -> bytes:
    """A Debian changelog with these entries, as Launchpad's ``changelogUrl()`` serves it."""
    blocks = []
    for version, change, bug in entries:
        closes = f" (LP: #{bug})" if bug else ""
        blocks.append(
            f"{name} ({version}) noble; urgency=medium\n\n  * {change}{closes}\n\n"
            f" -- Ada Lovelace <ada@example.com>  Mon, 01 Jan 2024 12:00:00 +0000\n"
        )
    return "\n".join(blocks).encode()


class Images:
    """Noble's archive with what two images install, and the changelogs the fake serves."""

    def __init__(self, fake: FakeService, archive: UbuntuArchive, tmp_path: Path) -> None:
        self.fake, self.archive, self.tmp_path = fake, archive, tmp_path
        self.noble = archive.series("noble", "24.04", "amd64")

    def publish(self, in_archive: FakeEntry, name: str, entries: list[Any], binary: str) -> None:
        """Each version of ``entries`` published, with its changelog up to that version."""
        for at in range(len(entries) - 1, -1, -1):
            version = entries[at][0]
            self.archive.publish(in_archive, self.noble, name, version, {"amd64": binary})
            path = f"{in_archive.path}/+files/{name}_{version}.changelog"
            self.fake.add_file(path, changelog(name, entries[at:]))

    def manifest(self, name: str, *packages: tuple[str, str]) -> str:
        path = self.tmp_path / name
        path.write_text("".join(f"{package}\t{version}\n" for package, version in packages))
        return str(path)

    def generate(self, *args: str) -> tuple[list[str], dict[str, Any]]:
        """What ``generate ARGS`` prints, and its JSON report; it must exit 0."""
        from ubuntu_cloud_image_changelog.cli import cli

        report = self.tmp_path / "changelog.json"
        result = CliRunner().invoke(
            cli, ["generate", "--from-series", "noble", "--to-series", "noble",
                  "--output-json", str(report), *args],
            catch_exceptions=False,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        return result.output.splitlines(), json.loads(report.read_text())


@pytest.fixture
def images(fake_launchpad: FakeService, tmp_path: Path) -> Images:
    images = Images(fake_launchpad, UbuntuArchive(fake_launchpad), tmp_path)
    images.publish(images.archive.primary, "hello", HELLO, "hello")
    return images


def test_a_changed_package_shows_its_changelog_between_the_two_versions(
    images: Images, fake_launchpad: FakeService
) -> None:
    old = images.manifest("old.manifest", ("hello", "2.10-2"), ("snap:lxd", "stable\t29000"))
    new = images.manifest("new.manifest", ("hello", "2.10-3"), ("snap:lxd", "stable\t29500"))

    out, report = images.generate("--from-manifest", old, "--to-manifest", new)

    assert "Deb packages changed: ['hello']" in out
    assert "Snap packages changed: ['lxd']" in out
    [hello] = report["diff"]["deb"]
    assert (hello["from_version"]["source_package_version"], hello["to_version"]["version"]) == (
        "2.10-2", "2.10-3",
    )  # fmt: skip
    assert [change["version"] for change in hello["changes"]] == ["2.10-3"]
    assert hello["launchpad_bugs_fixed"] == [2000001]
    changelogs = [s.path for s in fake_launchpad.journal.requests("GET") if "+files" in s.path]
    assert changelogs == [
        "ubuntu/+archive/primary/+files/hello_2.10-2.changelog",
        "ubuntu/+archive/primary/+files/hello_2.10-3.changelog",
    ]
    assert len(fake_launchpad.journal.operations("changelogUrl")) == 2


def test_a_version_only_a_ppa_publishes_is_found_in_the_ppa(
    images: Images, fake_launchpad: FakeService
) -> None:
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    tools = images.archive.ppa(ada, "tools")
    images.publish(tools, "hello", [("2.10-3ppa1", "Backport the fix", None), *HELLO], "hello")
    old = images.manifest("old.manifest", ("hello", "2.10-3"))
    new = images.manifest("new.manifest", ("hello", "2.10-3ppa1"))

    out, report = images.generate(
        "--from-manifest", old, "--to-manifest", new, "--ppa", "ada/tools"
    )

    assert "Deb packages changed: ['hello']" in out
    [hello] = report["diff"]["deb"]
    assert hello["to_version"]["source_package_version"] == "2.10-3ppa1"
    assert [change["version"] for change in hello["changes"]] == ["2.10-3ppa1"]
    lookups = fake_launchpad.journal.operations("getPPAByName")
    assert {(s.path, s.status) for s in lookups} == {("~ada", 200)}
    searched = {s.path for s in fake_launchpad.journal.operations("getPublishedBinaries")}
    assert searched == {"ubuntu/+archive/primary", "~ada/+archive/ubuntu/tools"}


def test_an_added_package_shows_its_three_latest_entries_and_a_removed_one_its_source(
    images: Images, fake_launchpad: FakeService
) -> None:
    gizmo = [(f"1.{n}-1", f"Release 1.{n}", None) for n in range(4, 0, -1)]
    images.publish(images.archive.primary, "gizmo", gizmo, "gizmo-tools")
    old = images.manifest("old.manifest", ("hello", "2.10-3"))
    new = images.manifest("new.manifest", ("gizmo-tools", "1.4-1"))

    out, report = images.generate("--from-manifest", old, "--to-manifest", new)

    assert "Deb packages added: ['gizmo-tools']" in out
    assert "Deb packages removed: ['hello']" in out
    [added] = report["added"]["deb"]
    assert added["to_version"]["source_package_name"] == "gizmo"
    assert [change["version"] for change in added["changes"]] == ["1.4-1", "1.3-1", "1.2-1"]
    [removed] = report["removed"]["deb"]
    assert removed["from_version"]["source_package_name"] == "hello"
