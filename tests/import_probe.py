"""What a fresh interpreter has imported after running some code: the start-up guards' probe."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence


def loaded_after(code: str, candidates: Sequence[str]) -> list[str]:
    """Which of ``candidates`` (module names) a fresh interpreter has imported after ``code``."""
    report = f"print(json.dumps([m for m in {list(candidates)!r} if m in sys.modules]))"
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\n{report}"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: list[str] = json.loads(done.stdout)
    return result
