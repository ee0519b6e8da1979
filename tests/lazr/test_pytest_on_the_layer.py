"""A suite run on the layer (`python -m wadlclient.lazr_compat -m pytest`) gets no warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.testing_kit.users_pytest import NOT_THE_USERS

USER_TEST = """
def test_arithmetic():
    assert 1 + 1 == 2
"""


def test_pytest_under_the_runner_does_not_warn_that_wadlclient_cannot_be_rewritten(
    tmp_path: Path,
) -> None:
    # The runner imports wadlclient before pytest starts; pytest marks the package of
    # the kit's plugin (an entry point of wadlclient) for rewriting, and would warn.
    # The plugins installed here for other tests are no user's (craft-application's alone
    # took most of this session's start); wadlclient's is still loaded from its entry point.
    (tmp_path / "test_user.py").write_text(USER_TEST)

    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", "-m", "pytest", "-q", "-p",
         "no:cacheprovider", *NOT_THE_USERS, "-W", "error::pytest.PytestAssertRewriteWarning",
         "test_user.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert "cannot be rewritten" not in done.stdout + done.stderr
    assert "1 passed" in done.stdout
