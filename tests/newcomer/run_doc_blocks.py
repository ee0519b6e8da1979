"""Run the documents' blocks in one interpreter (this one), in order; stop at the first failure.

Reads the blocks as JSON on stdin (see docblocks.py). Python blocks share
one namespace, as in a session typed by a reader; the ``wadlclient`` lines
of sh blocks run in a shell. The first line of each command (``describe``,
``get``...) starts the console script; on the others the shell still reads
the line (its quotes, ``~``, comments and ``NAME=value`` words), but the
command it would start runs here, as ``wadlclient.cli.main`` with the words
and environment the shell gave: a fresh interpreter per line was most of
the documents' cost, and each command's start as a program is checked by
its first line. ``--commands-in-process`` runs every line here (a second
run of the documents checks what a reader trying them again meets, not the
console script once more). ``--gc-thresholds=A,B,C`` sets the cyclic
collector's thresholds, as the test process runs at them (the suite's
larger ones, tests/conftest.py): at Python's own, the collector's passes
over the stock launchpadlib logins' WADL trees were a fifth of a run's
CPU. Prints ``ok N`` when all N ran.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path


def run_python(where: str, text: str, namespace: dict[str, object]) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text, where, "exec"), namespace)
    return printed.getvalue()


#: A command line of the documents that runs: ``wadlclient ...``, maybe after ``NAME=value``s.
COMMAND = re.compile(r"^(\w+=\S+ )*wadlclient ")


#: Put first on the shell's PATH in place of the console script: writes down its words and
#: environment, NUL-separated, beside itself.
STAND_IN = """#!/bin/sh
printf '%s\\0' "$@" > "$0.words"
env -0 > "$0.env"
"""
#: A line the shell does more with than start one command (a redirection, a pipe, a list, a
#: substitution) runs as written, with the console script.
SHELL_WORK = re.compile(r"[<>|;&`]|\$\(")
#: What the shell itself changes in the environment of a command it starts.
SHELLS_OWN = ("PATH", "PWD", "OLDPWD", "SHLVL", "_")


def run_sh(text: str, started: set[str] | None) -> None:
    """Run the ``wadlclient`` lines of ``text``: as the console script when the line's command
    is not in ``started`` yet (then it is) or the shell does more with the line
    (`SHELL_WORK`), in this interpreter otherwise or when ``started`` is None."""
    for line in text.splitlines():
        if COMMAND.match(line):
            command = line.split("wadlclient ", 1)[1].split()[0]
            if not SHELL_WORK.search(line) and (started is None or command in started):
                status, stderr = run_in_process(line)
            else:
                if started is not None:
                    started.add(command)
                done = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60)
                status, stderr = done.returncode, done.stderr
            if status != 0:
                raise RuntimeError(f"{line!r} exited {status}: {stderr.strip()}")


def shell_words(line: str) -> tuple[list[str], dict[str, str]]:
    """The words ``wadlclient`` gets from the shell for ``line``, and the variables it sets."""
    with tempfile.TemporaryDirectory() as folder:
        stand_in = Path(folder, "wadlclient")
        stand_in.write_text(STAND_IN)
        stand_in.chmod(0o755)
        env = {**os.environ, "PATH": folder + os.pathsep + os.environ.get("PATH", "")}
        subprocess.run(line, shell=True, env=env, check=True, timeout=60)
        words = stand_in.with_suffix(".words").read_bytes().split(b"\0")[:-1]
        pairs = stand_in.with_suffix(".env").read_bytes().split(b"\0")[:-1]
    seen = dict(pair.decode().partition("=")[::2] for pair in pairs)
    assigned = {
        name: value for name, value in seen.items()
        if name not in SHELLS_OWN and os.environ.get(name) != value
    }  # fmt: skip
    return [word.decode() for word in words], assigned


@contextlib.contextmanager
def logging_kept() -> Iterator[None]:
    """Logging as it was before (``-v`` configures the root logger, as in a process of its own)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    loggers = logging.Logger.manager.loggerDict
    levels = {name: lg.level for name, lg in loggers.items() if isinstance(lg, logging.Logger)}
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, lg in list(loggers.items()):
            if isinstance(lg, logging.Logger):
                lg.setLevel(levels.get(name, logging.NOTSET))


def run_in_process(line: str) -> tuple[int, str]:
    """``line``'s exit status and stderr, its ``wadlclient`` run as ``wadlclient.cli.main``."""
    from wadlclient.cli import main as wadlclient

    argv, assigned = shell_words(line)
    saved = {name: os.environ.get(name) for name in assigned}
    errors = io.StringIO()
    os.environ.update(assigned)
    try:
        with (
            logging_kept(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(errors),
        ):
            try:
                status = wadlclient(argv)
            except SystemExit as exited:  # --version, --help: argparse exits
                status = exited.code if isinstance(exited.code, int) else 1
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    return status, errors.getvalue()


def main() -> int:
    options = dict(arg.partition("=")[::2] for arg in sys.argv[1:])
    started: set[str] | None = None if "--commands-in-process" in options else set()
    if thresholds := options.get("--gc-thresholds"):
        gc.set_threshold(*map(int, thresholds.split(",")))
    blocks = json.load(sys.stdin)
    # As in the interactive interpreter: the current directory comes first on the path.
    sys.path.insert(0, "")
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for where, lang, text, _runs, output in blocks:
        try:
            if lang == "python":
                printed = run_python(where, text, namespace)
                if output is not None and printed != output:
                    raise AssertionError(f"printed:\n{printed}\nthe document says:\n{output}")
            else:
                run_sh(text, started)
        except BaseException:
            print(f"FAILED {where}", flush=True)
            traceback.print_exc(file=sys.stdout)
            return 1
    print(f"ok {len(blocks)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
