"""Launchpad's WADL ships with the testing kit: a fake Launchpad needs no download or setting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wadlclient.testing import launchpad_wadl

A_USERS_TEST = '''
from launchpadlib.launchpad import Launchpad


def test_a_reporter_is_read_from_the_fake(fake_launchpad):
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.add("bugs", title="Crash", owner=ada)
    lp = Launchpad.login_anonymously("a-users-test", "production", version="devel")
    assert lp.bugs[1].owner.display_name == "Ada Lovelace"
'''


def test_the_shipped_wadl_is_the_one_the_typed_package_was_made_from(
    launchpad_wadl_bytes: bytes,
) -> None:
    assert launchpad_wadl() == launchpad_wadl_bytes


def test_the_fake_launchpad_fixture_works_with_nothing_configured(tmp_path: Path) -> None:
    (tmp_path / "test_users_code.py").write_text(A_USERS_TEST)
    env = {key: value for key, value in os.environ.items() if key != "WADLCLIENT_LAUNCHPAD_WADL"}
    env["HOME"] = str(tmp_path)

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_users_code.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
