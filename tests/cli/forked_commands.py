"""``python -m wadlclient ARGV`` in processes forked from one interpreter: its start paid once.

A command run as a user runs it costs a fresh interpreter that imports the
library (a third of a second of CPU). The tests that need what reaches a
terminal (the exit status, stderr: in-process, pytest's log capture would
swallow the library's retry warnings) run each command in a child forked
from one process that imported the command line once. Each child starts
as ``python -m wadlclient`` does: nothing configured (no logging, no
credentials), stdin /dev/null, stdout and stderr of its own, the
environment it is given.

Run as a script, this module is that process: one request a line on stdin
(JSON: a command line and environment to start, or a child to wait for),
one answer a line on stdout. `shared` is the one of a test process.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Mapping
from typing import IO, Any

#: What one command may take before the test fails as a hang.
TIMEOUT = 120.0


class ForkedCommands:
    """The forking process, seen from a test: `run` a command line, or `start` and `wait`."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def _ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        ready, _, _ = select.select([self._process.stdout], [], [], timeout)
        if not ready:
            self._process.kill()
            raise AssertionError(f"the forking process gave no answer in {timeout} s")
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        return answer

    def start(self, *argv: str, env: Mapping[str, str] | None = None) -> int:
        """``wadlclient ARGV`` started in a child; its process id (`wait` for its end)."""
        request = {"argv": list(argv), "env": dict(os.environ if env is None else env)}
        pid: int = self._ask({"start": request}, TIMEOUT)["pid"]
        return pid

    def wait(self, pid: int) -> subprocess.CompletedProcess[str]:
        """What the child ``pid`` did: its exit status (-N for signal N), stdout, stderr."""
        answer = self._ask({"wait": pid}, TIMEOUT)
        return subprocess.CompletedProcess(
            ["wadlclient", *answer["argv"]],
            answer["returncode"],
            answer["stdout"],
            answer["stderr"],
        )

    def run(
        self, *argv: str, env: Mapping[str, str] | None = None
    ) -> tuple[subprocess.CompletedProcess[str], float]:
        """``wadlclient ARGV`` in a child: what it did, and how long it took."""
        began = time.monotonic()
        done = self.wait(self.start(*argv, env=env))
        return done, time.monotonic() - began

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(30)


_shared: ForkedCommands | None = None


def shared() -> ForkedCommands:
    """This test process's forking process, started at the first ask, closed at its exit."""
    global _shared
    if _shared is None:
        _shared = ForkedCommands()
        atexit.register(_shared.close)
    return _shared


def _exit_status(exit: SystemExit) -> int:
    """The status ``python`` gives a SystemExit: None 0, a number itself, else printed and 1."""
    if exit.code is None:
        return 0
    if isinstance(exit.code, int):
        return exit.code
    print(exit.code, file=sys.stderr)
    return 1


def _child(request: dict[str, Any], out: IO[bytes], err: IO[bytes]) -> None:
    """In the forked child: the command as ``python -m wadlclient`` runs it; never returns."""
    import runpy

    status = 1
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdin = open(os.devnull)  # noqa: SIM115 (not the parent's buffered requests)
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["wadlclient", *request["argv"]]
        sys.path[0] = os.getcwd()  # as ``python -m`` has it
        try:
            runpy.run_module("wadlclient", run_name="__main__", alter_sys=True)
            status = 0
        except SystemExit as exit:
            status = _exit_status(exit)
        except BaseException:
            traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


def serve() -> None:
    """Fork a child for each ``start`` line, answer its process id; answer a ``wait`` at its end."""
    # The command line, and what its commands import.
    import wadlclient.cli
    import wadlclient.mirror
    import wadlclient.objects  # noqa: F401

    started: dict[int, tuple[list[str], IO[bytes], IO[bytes]]] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if "start" in request:
            # Closed once waited for (below).
            out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115
            pid = os.fork()
            if pid == 0:
                _child(request["start"], out, err)
            started[pid] = (request["start"]["argv"], out, err)
            answer: dict[str, Any] = {"pid": pid}
        else:
            pid = request["wait"]
            argv, out, err = started.pop(pid)
            _, status = os.waitpid(pid, 0)
            with out, err:
                out.seek(0)
                err.seek(0)
                answer = {
                    "argv": argv,
                    "returncode": os.waitstatus_to_exitcode(status),
                    "stdout": out.read().decode(errors="replace"),
                    "stderr": err.read().decode(errors="replace"),
                }
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()
