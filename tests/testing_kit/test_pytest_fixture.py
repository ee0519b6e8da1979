"""The ``fake_launchpad`` fixture as a project's test suite uses it, run by a pytest session of
its own (pytester's, in this process: the plugin found by its entry point, as in a project)."""

from __future__ import annotations

import pytest

from .users_pytest import IN_THIS_PROCESS, NOT_THE_USERS

pytest_plugins = ["pytester"]

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


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytester's, with no Launchpad WADL named in the environment (pytester gives HOME)."""
    monkeypatch.delenv("WADLCLIENT_LAUNCHPAD_WADL", raising=False)
    return pytester


def run_pytest(pytester: pytest.Pytester, test_module: str) -> pytest.RunResult:
    """pytest on ``test_module``, as written, with no WADL named and HOME of its own.

    A new session in this process: no child needed, nothing of this session (its conftest
    files, its fixtures) reaches it, and the module is imported afresh.
    """
    (pytester.path / "test_users_code.py").write_text(test_module)
    return pytester.runpytest_inprocess(
        "-q", "-p", "no:cacheprovider", *NOT_THE_USERS, *IN_THIS_PROCESS, "test_users_code.py"
    )


def test_a_handlers_exception_fails_the_test_at_teardown_in_one_line(
    pytester: pytest.Pytester,
) -> None:
    done = run_pytest(pytester, A_HANDLER_THAT_RAISES)
    stdout = done.stdout.str()

    assert done.ret == 1, stdout + done.stderr.str()
    assert "1 passed, 1 error" in stdout
    failed = [line for line in stdout.splitlines() if "a handler of the fake raised" in line]
    assert failed[0].startswith("a handler of the fake raised KeyError: 'other' (")
    assert failed[0].endswith("test_users_code.py:10)")
    assert "Traceback" not in stdout


def test_the_fixture_serves_the_version_its_wadl_fixture_names(pytester: pytest.Pytester) -> None:
    done = run_pytest(pytester, A_SUITE_ON_THE_1_0_API)

    assert done.ret == 0, done.stdout.str() + done.stderr.str()
    assert "1 passed" in done.stdout.str()
