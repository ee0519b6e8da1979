"""Launchpad's published WADL of every version ships with the kit: a fake needs no download."""

from __future__ import annotations

import gzip
import hashlib

import pytest
from benchmarks.config import shared_data_dir

from wadlclient.testing import LAUNCHPAD_VERSIONS, FakeService, launchpad_wadl

from .users_pytest import IN_THIS_PROCESS, NOT_THE_USERS
from .wire import get_json

pytest_plugins = ["pytester"]

A_USERS_TEST = """
from launchpadlib.launchpad import Launchpad


def test_a_reporter_is_read_from_the_fake(fake_launchpad):
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.add("bugs", title="Crash", owner=ada)
    lp = Launchpad.login_anonymously("a-users-test", "production", version="devel")
    assert lp.bugs[1].owner.display_name == "Ada Lovelace"
"""


#: sha256 of each uncompressed WADL, as ../shared/data/README.md records them.
PUBLISHED = {
    "devel": "b053ae8b02f5e5e21a547134921b654ecb5c4daff764ca6ebf80b9dd8b834767",
    "beta": "c20fe841a8c565d590205fdbc26e1ded144cdab495646e6f533523b699c0f668",
    "1.0": "5c5928aef3217ce201505ff0d11022ab0de14b4fd341e659cfc356f3e2df8cd2",
}


@pytest.mark.parametrize("version", sorted(PUBLISHED))
def test_the_kit_ships_launchpads_published_wadl_of_each_version(version: str) -> None:
    shipped = launchpad_wadl(version)

    assert hashlib.sha256(shipped).hexdigest() == PUBLISHED[version]
    assert shipped == gzip.decompress(
        (shared_data_dir() / "launchpad" / f"{version}.wadl.gz").read_bytes()
    )
    assert f'base="https://api.launchpad.net/{version}/"'.encode() in shipped


def test_devel_is_the_default_version() -> None:
    assert launchpad_wadl() is launchpad_wadl("devel")
    assert LAUNCHPAD_VERSIONS == ("devel", "beta", "1.0")


def test_an_unknown_version_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError) as refused:
        launchpad_wadl("2.0")

    assert str(refused.value) == (
        "no Launchpad WADL for version '2.0': the kit ships 'devel', 'beta', '1.0'"
    )


def test_a_fake_of_each_version_serves_that_version() -> None:
    for version in LAUNCHPAD_VERSIONS:
        with FakeService(launchpad_wadl(version)) as fake:
            assert (fake.version, fake.base) == (version, f"{fake.service_root}{version}/")
            assert get_json(fake, "")["people_collection_link"] == fake.base + "people"


def test_the_fake_launchpad_fixture_works_with_nothing_configured(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's test run by a pytest session of its own (pytester's, in this process: the
    plugin found by its entry point, none of this session's conftest files), no WADL named,
    HOME its own."""
    (pytester.path / "test_users_code.py").write_text(A_USERS_TEST)
    monkeypatch.delenv("WADLCLIENT_LAUNCHPAD_WADL", raising=False)

    done = pytester.runpytest_inprocess(
        "-q", "-p", "no:cacheprovider", *NOT_THE_USERS, *IN_THIS_PROCESS, "test_users_code.py"
    )

    assert done.ret == 0, done.stdout.str() + done.stderr.str()
    assert "1 passed" in done.stdout.str()
