"""A consumer test module, run again with launchpadlib on wadlclient, in a child process.

The child is started as a user runs an unchanged program on wadlclient,
``python -m wadlclient.lazr_compat -m pytest <module>``: lazr.restfulclient
there is wadlclient's from the first import on, which one process cannot
switch to after importing the real one. The module's own
``test_*_on_wadlclient*`` test is left out of the child's run. (pytest
warns there that it cannot rewrite the asserts of wadlclient's own pytest
plugin, imported before it: that is the point, and the warning is muted.)
The child's temporary directories are made under the parent test's own
(``--basetemp``): a child left to pytest's default would sweep the shared
``pytest-of-<user>`` directory of older sessions' trees, other runs' included.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .conftest import CLIENT_VARIABLE

#: What pytest -rA prints per test: ``PASSED tests/...::test_x`` (and FAILED, ERROR, SKIPPED).
_OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)", re.MULTILINE)


#: The child loads only the plugins these tests use (wadlclient's ``fake_launchpad``): the
#: others (hypothesis' above all) take a second or two to import, for nothing here. Nor
#: does it run pytest's unraisable-exception plugin: it only warns, in a report no one
#: reads unless a test failed, and its full collections at the end walk the child's whole
#: heap (craft-application, the WADL models) for about half a second of CPU.
_UNUSED = ("cacheprovider", "xdist", "hypothesispytest", "anyio", "cookbook_service")
_LEAN = [f"-pno:{plugin}" for plugin in (*_UNUSED, "unraisableexception")]


@dataclass
class Outcome:
    """The child's verdict per test, and its report to show when one did not pass."""

    passed: list[str]
    failed: list[str]
    report: str


def run_modules_on_wadlclient(modules: Sequence[ModuleType], scratch: Path) -> Outcome:
    """Every test of ``modules`` but their reruns, on wadlclient, in one child (one start-up
    for several small programs: the child's imports cost more than their tests)."""
    home = scratch / "child-home"
    home.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "HOME": str(home),
        CLIENT_VARIABLE: "wadlclient",
    }
    paths = [str(module.__file__) for module in modules]
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", "-m", "pytest", *paths,
         "-q", "-rA", *_LEAN, "-Wignore::pytest.PytestAssertRewriteWarning",
         "-k", "not on_wadlclient", "--rootdir", str(Path(__file__).parents[2]),
         "--basetemp", str(scratch / "child-tmp")],
        capture_output=True, text=True, env=env, timeout=240, check=False,
        cwd=Path(__file__).parents[2],
    )  # fmt: skip
    report = done.stdout[-20000:] + done.stderr[-5000:]
    verdicts = _OUTCOME.findall(done.stdout)
    passed = [name for verdict, name in verdicts if verdict == "PASSED"]
    failed = [f"{verdict} {name}" for verdict, name in verdicts if verdict != "PASSED"]
    expected = sum(_test_count(module) for module in modules)
    if done.returncode != 0 and not failed:
        failed = [f"the child exited {done.returncode}"]
    if len(passed) + len(failed) < expected:
        failed.append(f"{expected} tests expected, {len(passed) + len(failed)} ran")
    return Outcome(passed, failed, report)


def _test_count(module: ModuleType) -> int:
    """How many tests the module holds besides its rerun (a parametrized test counts each case)."""
    count = 0
    for name, test in vars(module).items():
        if not name.startswith("test_") or "on_wadlclient" in name or not callable(test):
            continue
        cases = 1
        for mark in getattr(test, "pytestmark", []):
            if mark.name == "parametrize":
                cases *= len(mark.args[1])
        count += cases
    return count
