"""The README's pytest example runs as a user's test file would, copied as it is (its
imports included), warnings as errors.

A root left open leaks its sockets; ``pytest -W error`` turns the
ResourceWarning into a failure, as it does in projects that run so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.testing_kit.users_pytest import NOT_THE_USERS

from .docblocks import ROOT, blocks_of


def _example() -> str:
    readme = blocks_of(ROOT / "README.md")
    [block] = [b for b in readme if b.lang == "python" and "def test_my_script" in b.text]
    return block.text


def test_the_readme_pytest_example_passes_with_warnings_as_errors(tmp_path: Path) -> None:
    test_file = tmp_path / "test_from_readme.py"
    test_file.write_text(_example())

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *NOT_THE_USERS,
         "-W", "error", str(test_file)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout
