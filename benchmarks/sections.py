"""What the sections of RESULTS.md measured outside pyperf share: their child processes, their CLI.

`benchmarks.latency` and `benchmarks.flaky` each time whole scenarios in a
child process per client (so that both libraries start from a fresh
interpreter) and print a markdown section; `benchmarks.run` calls their
``measure`` and ``markdown`` for a full run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.config import REPO_ROOT, measured_env

CHILD_TIMEOUT = 1800


def run_child(module: str, *args: str) -> Any:
    """``python -m module --child args...`` in the measured environment; its last line, as JSON."""
    command = [sys.executable, "-m", module, "--child", *args]
    done = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=CHILD_TIMEOUT,
        check=False, env=measured_env(),
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(
            f"{module} {' '.join(args[:2])}: child exited {done.returncode}: {done.stderr[-1500:]}"
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def section_main(
    argv: list[str] | None,
    *,
    prog: str,
    doc: str | None,
    child_args: int,
    child: Callable[..., Any],
    measure: Callable[[Path, bool], Any],
    markdown: Callable[[Any], str],
) -> int:
    """The command line of a section: ``[--smoke] [--markdown PATH]``, or ``--child ARGS``."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    parser.add_argument("--smoke", action="store_true", help="one small sample of each")
    parser.add_argument("--markdown", type=Path, help="where to write the section")
    parser.add_argument("--child", nargs=child_args, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        text = markdown(measure(Path(scratch), args.smoke))
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0
