"""Ctrl-C during a ``for`` loop over a collection stops it within a second.

The pages fetched ahead are abandoned instead of waited for, and nothing
left running keeps the process from exiting. A child process is used
because the rule is about a real SIGINT and about the process's exit.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).with_name("interrupted_walk.py")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_ctrl_c_during_a_walk_returns_and_exits_within_a_second() -> None:
    child = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(free_port())],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "walking"
        time.sleep(0.3)  # the pages fetched ahead are on the wire, answered in 5 s
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        output = child.stdout.read()
        child.wait(timeout=10)
        exited = time.monotonic() - sent
    finally:
        child.kill()
        child.wait()

    assert output.startswith("stopped "), output
    assert float(output.split()[1]) < 1.0
    assert exited < 1.5
    assert child.returncode == 0
