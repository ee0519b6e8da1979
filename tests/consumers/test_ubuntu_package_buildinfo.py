"""ubuntu-package-buildinfo (PyPI, 0.0.11): its command, unchanged, against the testing kit.

The command finds the build of a package version in Ubuntu's archive (or
a PPA): anonymously, or logged in as a user with a credentials file of its
own; by the binary's publication, following its ``build_link`` with
``launchpad.load``, then the build's source publication and its series;
or, for a source, through ``getPublishedSources`` and each publication's
``getBuilds``, falling back to the amd64 build of an ``Architecture: all``
package. Then it downloads the build's ``.changes``, ``.buildinfo`` and
log through the API's root (``launchpad._root_uri.append(...)``, read
with ``launchpad._browser.get``) and checks the buildinfo's hash against
the one in the ``.changes``. Run here as its console script runs it
(click's command).

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wadlclient.testing import FakeService

from .ubuntu_archive import UbuntuArchive


@pytest.fixture
def archive(fake_launchpad: FakeService) -> UbuntuArchive:
    """hello built on noble for amd64 and arm64, and copied to oracular unbuilt; a docs package."""
    archive = UbuntuArchive(fake_launchpad)
    noble = archive.series("noble", "24.04", "amd64", "arm64", "riscv64")
    oracular = archive.series("oracular", "24.10", "amd64", "arm64", "riscv64")
    archive.publish(archive.primary, noble, "hello", "2.10-3", {"amd64": "hello", "arm64": "hello"})
    archive.publish(archive.primary, oracular, "hello", "2.10-3")
    archive.publish(archive.primary, noble, "hello-docs", "1.0-1", {"amd64": "hello-doc"})
    return archive


def buildinfo(*args: str) -> list[str]:
    """The lines ``ubuntu-package-buildinfo --no-download ARGS`` prints; it must exit 0."""
    from ubuntu_package_buildinfo.cli import ubuntu_package_buildinfo

    result = CliRunner().invoke(
        ubuntu_package_buildinfo, ["--no-download", *args], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_a_binarys_build_is_found_through_its_publication(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    out = buildinfo("--series", "noble", "--package-name", "hello:arm64",
                    "--package-version", "2.10-3", "--package-architecture", "arm64")  # fmt: skip

    assert out == ["INFO: \tFound binary package hello arm64 version 2.10-3 in noble."]
    [search] = fake_launchpad.journal.operations("getPublishedBinaries")
    assert search.path == "ubuntu/+archive/primary"
    assert (search.query["binary_name"], search.query["version"]) == (['"hello"'], ['"2.10-3"'])
    reads = [s.path for s in fake_launchpad.journal.requests("GET")]
    for loaded in ("ubuntu/+archive/primary/+build/2", "ubuntu/+archive/primary/+sourcepub/1"):
        assert loaded in reads
    assert {s.anonymous for s in fake_launchpad.journal} == {True}


def test_the_build_files_are_downloaded_through_the_api_root_and_checked(
    archive: UbuntuArchive, fake_launchpad: FakeService, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from ubuntu_package_buildinfo.cli import ubuntu_package_buildinfo

    files = "ubuntu/+archive/primary/+files"
    buildinfo_text = b"Format: 1.0\nSource: hello\nArchitecture: amd64\n"
    digest = hashlib.sha256(buildinfo_text).hexdigest()
    changes = f"Checksums-Sha256:\n {digest} 123 hello_2.10-3_amd64.buildinfo\n".encode()
    fake_launchpad.add_file(f"{files}/hello_2.10-3_amd64.buildinfo", buildinfo_text)
    fake_launchpad.add_file(f"{files}/hello_2.10-3_amd64.changes", changes)
    log = f"{files}/buildlog_ubuntu-noble-amd64.hello_2.10-3_BUILDING.txt.gz"
    fake_launchpad.add_file(log, b"dpkg-buildpackage: info: source package hello\n")
    monkeypatch.chdir(tmp_path)

    out = (
        CliRunner()
        .invoke(
            ubuntu_package_buildinfo,
            ["--series", "noble", "--package-name", "hello", "--package-version", "2.10-3"],
            catch_exceptions=False,
        )
        .output.splitlines()
    )

    assert out[-4:] == [
        "INFO: \tchanges written to hello_2.10-3_amd64.changes",
        "INFO: \tbuildinfo written to hello_2.10-3_amd64.buildinfo",
        "INFO: \tbuildlog written to hello_2.10-3_amd64.buildlog",
        "INFO: \tHash of hello_2.10-3_amd64.buildinfo matches hash in changes file.",
    ]
    assert (tmp_path / "hello_2.10-3_amd64.buildinfo").read_bytes() == buildinfo_text
    assert [s.path for s in fake_launchpad.journal.requests("GET") if "+files" in s.path] == [
        f"{files}/hello_2.10-3_amd64.changes", f"{files}/hello_2.10-3_amd64.buildinfo", log,
    ]  # fmt: skip


def test_a_series_the_source_was_copied_to_finds_the_build_of_the_series_it_was_built_in(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    out = buildinfo("--series", "oracular", "--package-name", "hello",
                    "--package-version", "2.10-3", "--source-package")  # fmt: skip

    assert out == [
        "INFO: \tFound binary build from source package hello amd64 version 2.10-3 in noble.",
        "INFO: \tFirst source package with published amd64 builds for hello version 2.10-3 "
        "found in series noble. This occurs when a package is copied from one series to "
        "another without any rebuilds.",
    ]
    assert [s.path for s in fake_launchpad.journal.operations("getBuilds")] == [
        "ubuntu/+archive/primary/+sourcepub/2", "ubuntu/+archive/primary/+sourcepub/1",
    ]  # fmt: skip


def test_an_architecture_all_package_falls_back_to_its_amd64_build(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    out = buildinfo("--series", "24.04", "--package-name", "hello-docs",
                    "--package-version", "1.0-1", "--package-architecture", "riscv64")  # fmt: skip

    assert out[0].startswith("**********WARNING: \tNo binary builds found for binary hello-docs")
    assert out[1].startswith("INFO: \tNo build found for architecture riscv64 using amd64")
    assert out[2] == (
        "INFO: \tFound binary build from source package hello-docs amd64 version 1.0-1 in noble."
    )
    assert out[-1].startswith("INFO: \tThis binary build was an amd64 architecture build")
    [lookup] = fake_launchpad.journal.operations("getDistroArchSeries")
    assert (lookup.path, lookup.query["archtag"]) == ("ubuntu/noble", ['"riscv64"'])


def test_a_ppa_is_searched_logged_in_as_the_user(
    archive: UbuntuArchive, fake_launchpad: FakeService, home: Path
) -> None:
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    tools = archive.ppa(ada, "tools")
    archive.publish(tools, archive.series("plucky", "25.04", "amd64"), "hello", "2.10-3ppa1",
                    {"amd64": "hello"})  # fmt: skip

    out = buildinfo("--series", "plucky", "--package-name", "hello", "--package-version",
                    "2.10-3ppa1", "--ppa", "ppa:ada/tools", "--launchpad-user", "ada")  # fmt: skip

    assert out == ["INFO: \tFound binary package hello amd64 version 2.10-3ppa1 in plucky."]
    [lookup] = fake_launchpad.journal.operations("getPPAByName")
    assert (lookup.path, lookup.status) == ("~ada", 200)
    assert {s.anonymous for s in fake_launchpad.journal} == {False}


def test_a_version_nowhere_published_is_reported(archive: UbuntuArchive) -> None:
    out = buildinfo("--series", "noble", "--package-name", "hello", "--package-version", "9.9")

    assert out[-1] == (
        "**********ERROR: \tNo binary builds found for hello amd64 version 9.9 in noble."
    )
