"""Several processes sharing one cache directory never see a torn or corrupt entry."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

WORKER = Path(__file__).with_name("stress_worker.py")
#: Two processes race as surely as four (one per core here); each more one costs its start-up.
PROCESSES = 2
OPERATIONS = 1200


@pytest.mark.parametrize("mode", ["write-through", "behind"])
def test_processes_sharing_a_directory_never_read_torn_entries(tmp_path: Path, mode: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(tmp_path), str(seed), str(OPERATIONS), mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for seed in range(PROCESSES)
    ]

    results = [worker.communicate(timeout=60) for worker in workers]

    for (stdout, stderr), worker in zip(results, workers, strict=True):
        assert worker.returncode == 0, stderr
        assert stdout.startswith("ok "), stdout
    total_reads = sum(int(stdout.split()[1]) for stdout, _ in results)
    assert total_reads > PROCESSES * OPERATIONS // 3
    assert sorted(p.name.startswith(".") for p in tmp_path.iterdir()) == [False] * 3
