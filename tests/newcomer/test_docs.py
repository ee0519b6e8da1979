"""Every example of the README and docs/ runs as written, in order, against the example service.

The service is started fresh on port 8080, the address the documents use,
with its seed data; the blocks then run twice in a row against it, each
time in a new interpreter, as a reader who tries them twice would.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .docblocks import ROOT, blocks_of, doc_files, runnable_blocks

RUNNER = Path(__file__).with_name("run_doc_blocks.py")
PORT = 8080


@pytest.fixture
def service_on_8080(tmp_path: Path) -> Iterator[None]:
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", PORT)) == 0:
            pytest.fail(f"port {PORT} is taken: the documents' examples need it", pytrace=False)
    server = subprocess.Popen(
        [sys.executable, "-m", "cookbook_service", "--port", str(PORT),
         "--db", str(tmp_path / "service.sqlite")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex(("127.0.0.1", PORT)) != 0:
            assert server.poll() is None, "the example service did not start"
            assert time.monotonic() < deadline, "the example service did not start in 30 s"
            time.sleep(0.05)
        yield
    finally:
        server.terminate()
        server.wait(timeout=10)


def run_all(cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = os.path.dirname(sys.executable)
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        # examples/ holds cookbook_typed, the typed-access package the documents import.
        "PYTHONPATH": os.pathsep.join([str(ROOT / "examples"), *sys.path]),
    }
    return subprocess.run(
        [sys.executable, str(RUNNER)],
        input=json.dumps(runnable_blocks()),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=240,
    )


def test_every_document_block_runs_in_order_twice(service_on_8080: None, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for attempt in ("first", "second"):
        cwd = tmp_path / attempt
        cwd.mkdir()

        done = run_all(cwd, home)

        assert done.returncode == 0, f"{attempt} run:\n{done.stdout}\n{done.stderr}"
        assert done.stdout.strip() == f"ok {len(runnable_blocks())}"


def test_no_python_hides_under_another_tag_and_the_quick_start_states_its_output() -> None:
    every = [block for path in doc_files() for block in blocks_of(path)]

    assert sum(block.lang == "python" and block.runs for block in every) >= 8
    elsewhere = [b.where for b in every if b.lang in ("py", "python3", "pycon", "shell", "bash")]
    assert elsewhere == []  # tag them python or sh, so that they run
    quick_start = next(b for b in every if b.lang == "python" and b.where.startswith("README"))
    assert quick_start.output is not None and quick_start.output.startswith("['recipes'")
