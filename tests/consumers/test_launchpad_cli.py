"""launchpad-cli (PyPI, 0.1.7): its ``lpad ppa ls`` command, unchanged, against the kit.

The command lists what a PPA publishes (``ppa:owner/name[/source]``,
``--series``): it logs in anonymously, takes the owner without a request
(``lp.people(name)``, lazr.restfulclient's lookup by key), passes the
series by its ``self_link``, and reads each publication's series through
``lp.load``; Launchpad's 404s become its own exit codes. Run here as its
console script runs it (click's group).

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from wadlclient.testing import FakeService

from .ubuntu_archive import UbuntuArchive


@pytest.fixture
def archive(fake_launchpad: FakeService) -> UbuntuArchive:
    """Ada's PPA publishing hello on jammy and noble, and a superseded gizmo."""
    archive = UbuntuArchive(fake_launchpad)
    jammy, noble = archive.series("jammy", "22.04"), archive.series("noble", "24.04")
    tools = archive.ppa(fake_launchpad.add("people", name="ada", display_name="Ada"), "tools")
    archive.publish(tools, jammy, "hello", "2.10-2~22.04")
    archive.publish(tools, noble, "hello", "2.10-3")
    archive.publish(tools, noble, "gizmo", "0.1-1", status="Superseded")
    return archive


def ls(*args: str) -> Result:
    """``lpad ppa ls ARGS``."""
    from launchpadcli.cli import lpad

    return CliRunner().invoke(lpad, ["ppa", "ls", *args])


def test_a_ppas_published_sources_are_listed_with_their_series(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    result = ls("ppa:ada/tools")

    assert (result.exit_code, result.output.splitlines()) == (0, [
        "jammy    2.10-2~22.04             hello",
        "noble    2.10-3                   hello",
    ])  # fmt: skip
    [search] = fake_launchpad.journal.operations("getPublishedSources")
    # A status is one of the WADL's options: both clients send it bare, not as JSON.
    assert (search.path, search.query["status"]) == ("~ada/+archive/ubuntu/tools", ["Published"])
    assert {s.anonymous for s in fake_launchpad.journal} == {True}


def test_a_source_in_a_series_is_asked_for_by_the_series_link(
    archive: UbuntuArchive, fake_launchpad: FakeService
) -> None:
    result = ls("ppa:ada/tools/hello", "--series", "24.04")

    assert (result.exit_code, result.output) == (0, "noble    2.10-3                   hello\n")
    [search] = fake_launchpad.journal.operations("getPublishedSources")
    assert search.query["source_name"] == ['"hello"']
    assert (
        fake_launchpad.entry_at(search.query["distro_series"][0].strip('"')).path == "ubuntu/noble"
    )


@pytest.mark.parametrize(
    ("url", "series", "error", "code"),
    [
        ("ppa:ada/nope", None, "Error.noSuchArchive", 2),
        ("ppa:ada/tools", "1.0", "Error.noSuchSeries", 3),
        ("ppa:ada/tools/frob", None, "Error.noSuchFile", 1),
        ("ada/tools", None, "Error.badUrl", 4),
    ],
)
def test_launchpads_404s_are_its_own_exit_codes(
    archive: UbuntuArchive, url: str, series: str | None, error: str, code: int
) -> None:
    result = ls(url, *(["--series", series] if series else []))

    assert (result.exit_code, result.output.strip()) == (code, error)
