""".ci/run's run on every claimed Python (tests/every_python.py): a claimed version that is
missing fails the run, loudly; each suite's tally is read from its own output."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests import every_python


def test_a_claimed_version_that_is_not_found_fails_the_run_naming_where_it_looked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(every_python, "claimed_versions", lambda: ["3.99"])
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))

    status = every_python.main([])

    assert status == 1
    assert capsys.readouterr().out == (
        "FAIL Python 3.99 is claimed (pyproject.toml) but not found; looked at "
        f"$WADLCLIENT_PYTHON_3_99, {tmp_path}/versions/3.99.*, python3.99 on PATH\n"
    )


def test_an_interpreter_named_in_the_environment_is_used_when_it_is_that_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    version = "{}.{}".format(*sys.version_info[:2])
    monkeypatch.setenv("WADLCLIENT_PYTHON_" + version.replace(".", "_"), sys.executable)

    found, _ = every_python.find_python(version)

    assert found == Path(sys.executable)


def test_the_claimed_versions_are_the_classifiers() -> None:
    assert every_python.claimed_versions() == ["3.10", "3.11", "3.12", "3.13"]


@pytest.mark.parametrize(
    ("suite", "output", "expected"),
    [
        ("pytest", "....\n1650 passed, 2 warnings in 95.21s (0:01:35)\n",
         "1650 passed, 2 warnings in 95.21s (0:01:35)"),
        ("pytest", "FAILED x\n=== 1 failed, 1649 passed in 99.00s ===\n",
         "1 failed, 1649 passed in 99.00s"),
        ("launchpadlib", "launchpadlib 2.3.0 suite on wadlclient (lazr.restfulclient.resource."
         "ServiceRoot from wadlclient): 204 passed, 0 failed, 0 errors, 0 skipped\n",
         "204 passed, 0 failed, 0 errors, 0 skipped"),
        ("pytest", "ImportError: no module named xdist\n", "no tally (did it run?)"),
    ],
)  # fmt: skip
def test_a_suites_tally_is_its_summary_line(suite: str, output: str, expected: str) -> None:
    assert every_python.tally(suite, output) == expected
