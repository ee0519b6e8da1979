"""The README's pytest example runs as a user's test file would, copied as it is (its
imports included), warnings as errors.

A root left open leaks its sockets; ``pytest -W error`` turns the
ResourceWarning into a failure, as it does in projects that run so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .docblocks import ROOT, blocks_of

#: The plugins of craft-application and craft-cli, installed for tests/consumers (pyproject's
#: addopts leaves them out of this suite too), are no user's: their session runs without them.
NOT_THE_USERS = ["-p", "no:craft_application", "-p", "no:emitter"]


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
