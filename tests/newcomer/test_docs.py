"""Every example of the README and docs/ runs as written, in order, against the example service.

The service is started fresh with its seed data on a free port, and the
blocks' ``127.0.0.1:8080`` (the address the documents use) is rewritten to
it, so that a program already listening on 8080 does not fail the suite;
the blocks then run twice in a row against it, each time in a new
interpreter, as a reader who tries them twice would. A shell reads each
``wadlclient`` line; in the first run the first line of each command
starts the console script, as the reader types it, and the others run in
the runner's interpreter (`run_doc_blocks.py`); the second run has every
command run there (``--commands-in-process``): what it checks is that a
second try meets what the first left (caches, HOME, the service's data).
A fresh interpreter per line was most of the cost of both.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .docblocks import Block, blocks_of, doc_files, runnable_blocks

RUNNER = Path(__file__).with_name("run_doc_blocks.py")
#: The address the documents use.
DOCUMENTED = "127.0.0.1:8080"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def service_port(tmp_path: Path) -> Iterator[int]:
    """The example service on a free port (its banner comes once it listens)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cookbook_service", "--port", str(port),
         "--db", str(tmp_path / "service.sqlite")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert server.poll() is None, "the example service did not start"
            assert time.monotonic() < deadline, "the example service did not start in 30 s"
            time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def blocks_for(port: int) -> list[Block]:
    """The runnable blocks, their address (and expected output) moved to ``port``."""
    here = f"127.0.0.1:{port}"
    return [
        block._replace(
            text=block.text.replace(DOCUMENTED, here),
            output=None if block.output is None else block.output.replace(DOCUMENTED, here),
        )
        for block in runnable_blocks()
    ]


def run_all(
    cwd: Path, home: Path, port: int, *runner_args: str
) -> subprocess.CompletedProcess[str]:
    bin_dir = os.path.dirname(sys.executable)
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        # What the interpreter running the tests finds, and no more: no examples/ on the
        # path, so the typed package the documents import is the one their stubgen wrote.
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    env.pop("WADLCLIENT_LAUNCHPAD_WADL", None)
    # The collector's thresholds of this process (the suite's, tests/conftest.py) in the runner.
    thresholds = "--gc-thresholds=" + ",".join(map(str, gc.get_threshold()))
    return subprocess.run(
        [sys.executable, str(RUNNER), thresholds, *runner_args],
        input=json.dumps(blocks_for(port)),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=240,
    )


def test_every_document_block_runs_in_order_twice(service_port: int, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for attempt, runner_args in (("first", ()), ("second", ("--commands-in-process",))):
        cwd = tmp_path / attempt
        cwd.mkdir()

        done = run_all(cwd, home, service_port, *runner_args)

        assert done.returncode == 0, f"{attempt} run:\n{done.stdout}\n{done.stderr}"
        assert done.stdout.strip() == f"ok {len(runnable_blocks())}"


def test_no_python_hides_under_another_tag_and_the_quick_start_states_its_output() -> None:
    every = [block for path in doc_files() for block in blocks_of(path)]

    assert sum(block.lang == "python" and block.runs for block in every) >= 8
    elsewhere = [b.where for b in every if b.lang in ("py", "python3", "pycon", "shell", "bash")]
    assert elsewhere == []  # tag them python or sh, so that they run
    quick_start = next(b for b in every if b.lang == "python" and b.where.startswith("README"))
    assert quick_start.output is not None and quick_start.output.startswith("['recipes'")
