"""The ``fake_launchpad`` fixture as a project's test suite uses it, run by pytest in a child."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

A_HANDLER_THAT_RAISES = """
from launchpadlib.launchpad import Launchpad


def test_a_build_is_requested(fake_launchpad):
    fake_launchpad.add("people", name="ada")

    @fake_launchpad.operation("snaps", "getByName")
    def get_by_name(snaps, /, owner, name):
        return {"frob": 1}[name]

    lp = Launchpad.login_anonymously("a-users-test", "production", version="devel")
    try:
        lp.snaps.getByName(owner="/~ada", name="other")
    except Exception:
        pass  # the code under test swallows the 500
"""

A_SUITE_ON_THE_1_0_API = """
import pytest
from launchpadlib.launchpad import Launchpad
from wadlclient.testing import launchpad_wadl


@pytest.fixture(scope="session")
def fake_launchpad_wadl():
    return launchpad_wadl("1.0")


def test_code_that_logs_in_with_launchpadlibs_default_version(fake_launchpad):
    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    lp = Launchpad.login_anonymously("a-users-test", "production")
    assert lp.people["ada"].display_name == "Ada Lovelace"
    assert fake_launchpad.journal.requests("GET", "~ada")
"""


def run_pytest(tmp_path: Path, test_module: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_users_code.py").write_text(test_module)
    env = {key: value for key, value in os.environ.items() if key != "WADLCLIENT_LAUNCHPAD_WADL"}
    env["HOME"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_users_code.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_handlers_exception_fails_the_test_at_teardown_in_one_line(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, A_HANDLER_THAT_RAISES)

    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed, 1 error" in done.stdout
    failed = [line for line in done.stdout.splitlines() if "a handler of the fake raised" in line]
    assert failed[0].startswith("a handler of the fake raised KeyError: 'other' (")
    assert failed[0].endswith("test_users_code.py:10)")
    assert "Traceback" not in done.stdout


def test_the_fixture_serves_the_version_its_wadl_fixture_names(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, A_SUITE_ON_THE_1_0_API)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
