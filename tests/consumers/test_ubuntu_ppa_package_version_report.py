"""ubuntu-ppa-package-version-report (PyPI, 0.0.5): its command, unchanged, against the kit.

The command lists what PPAs publish for a series: it logs in (its own
console authorization engine, a credentials file of its own), finds the
series and its architecture, each PPA by ``people[owner].getPPAByName``,
and lists the PPA's published sources (and binaries), as text or CSV.
Run here as its console script runs it (click's ``main``), against a
seeded fake Launchpad.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wadlclient.testing import FakeService

from .ubuntu_archive import UbuntuArchive


@pytest.fixture
def archive(
    fake_launchpad: FakeService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> UbuntuArchive:
    """Ada's and Bob's PPAs publishing for noble; the program's cache under the test's directory."""
    monkeypatch.setenv("SNAP_USER_COMMON", str(tmp_path))
    archive = UbuntuArchive(fake_launchpad)
    noble = archive.series("noble", "24.04", "amd64", "arm64")
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    bob = fake_launchpad.add("people", name="bob", display_name="Bob")
    tools, frob = archive.ppa(ada, "tools"), archive.ppa(bob, "frob")
    archive.publish(tools, noble, "hello", "2.10-1~ppa1", {"amd64": "hello", "arm64": "hello"})
    archive.publish(tools, noble, "gizmo", "0.3-1", {"arm64": "gizmo-tools"})
    archive.publish(tools, noble, "gone", "0.1-1", {"amd64": "gone"}, status="Superseded")
    archive.publish(frob, noble, "frob", "1.0-1", {"amd64": "frob"})
    return archive


def report(*args: str) -> str:
    """What ``ubuntu-ppa-package-version-report ARGS`` prints; it must exit 0."""
    from ubuntu_ppa_package_version_report.cli import main

    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_each_ppas_published_sources_and_binaries_are_listed(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    out = report(
        "--ppa", "ada/tools", "--ppa", "bob/frob", "--series", "24.04", "--binary-versions"
    )

    assert out.splitlines() == [
        "tools",
        "\thello - 2.10-1~ppa1",
        "\tgizmo - 0.3-1",
        "\tPublished binaries:",
        "\t\thello - 2.10-1~ppa1",
        "frob",
        "\tfrob - 1.0-1",
        "\tPublished binaries:",
        "\t\tfrob - 1.0-1",
    ]
    [series_lookup] = fake_launchpad.journal.operations("getSeries")
    assert (series_lookup.path, series_lookup.query["name_or_version"]) == ("ubuntu", ['"24.04"'])
    searches = fake_launchpad.journal.operations("getPublishedBinaries")
    named = [(s.path, fake_launchpad.entry_at(json.loads(s.query["distro_arch_series"][0])).path)
             for s in searches]  # fmt: skip
    assert named == [
        ("~ada/+archive/ubuntu/tools", "ubuntu/noble/amd64"),
        ("~bob/+archive/ubuntu/frob", "ubuntu/noble/amd64"),
    ]


def test_the_csv_report_names_the_series_and_the_ppa(archive: UbuntuArchive) -> None:
    out = report(
        "--ppa", "ada/tools", "--series", "noble", "--csv-output", "--binary-architecture", "arm64"
    )

    assert list(csv.reader(io.StringIO(out))) == [
        ["suite", "ppa", "package", "version"],
        ["noble", "tools", "hello", "2.10-1~ppa1"],
        ["noble", "tools", "gizmo", "0.3-1"],
    ]


def test_a_missing_ppa_is_launchpads_404_to_the_program(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    from ubuntu_ppa_package_version_report.cli import main

    result = CliRunner().invoke(main, ["--ppa", "ada/nope", "--series", "noble"])

    assert type(result.exception).__name__ == "NotFound"
    assert "No such ppa: 'nope'." in str(result.exception)
    assert [s.status for s in fake_launchpad.journal.operations("getPPAByName")] == [404]


def test_verifying_access_logs_in_and_reads_nothing_else(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    out = report("--ppa", "ada/tools", "--series", "noble", "--verify-launchpad-access")

    assert out == "Launchpad access has been successfully verified\n"
    assert fake_launchpad.journal.operations("getSeries") == []
