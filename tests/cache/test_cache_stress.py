"""Several processes sharing one cache directory never see a torn or corrupt entry."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .stress_worker import stress

WORKER = Path(__file__).with_name("stress_worker.py")
#: Two processes race as surely as four (one per core here): one a child, one this process,
#: which starts once the child has written (the child's start-up is not racing).
OPERATIONS = 1200


@pytest.mark.parametrize("mode", ["write-through", "behind"])
def test_processes_sharing_a_directory_never_read_torn_entries(tmp_path: Path, mode: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(tmp_path), "1", str(OPERATIONS), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 30
    while not any(tmp_path.iterdir()) and worker.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)

    lines = [stress(str(tmp_path), 0, OPERATIONS, mode == "behind")]
    stdout, stderr = worker.communicate(timeout=60)

    assert worker.returncode == 0, stderr
    lines.append(stdout)
    for line in lines:
        assert line.startswith("ok "), line
    total_reads = sum(int(line.split()[1]) for line in lines)
    assert total_reads > 2 * OPERATIONS // 3
    assert sorted(p.name.startswith(".") for p in tmp_path.iterdir()) == [False] * 3
