"""Several command lines run in one child, each as ``python -m MODULE ARGS`` runs it.

    python tests/testing_kit/cli_runs.py RUNS.json

RUNS.json is a list of ``[module, [args...], {variable: value}]``. Each
is run, with those environment variables set for it, as the
interpreter's ``-m`` runs a module (`runpy.run_module` as ``__main__``,
``sys.argv`` set), its stderr and stdout caught; its exit status is what
it exits with (0 when it returns). One JSON list of ``[status, stderr,
stdout]`` is printed. One interpreter for a test module's mistakes
rather than one each: each run costs a start-up only once.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import sys
from typing import Any


def run(module: str, arguments: list[str], environment: dict[str, str]) -> list[Any]:
    err, out = io.StringIO(), io.StringIO()
    status: Any = 0
    saved, saved_environment = sys.argv[:], dict(os.environ)
    sys.argv = [module, *arguments]
    os.environ.update(environment)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) or exit.code is None else 1
        if not isinstance(exit.code, int) and exit.code is not None:
            err.write(f"{exit.code}\n")
    finally:
        sys.argv = saved
        os.environ.clear()
        os.environ.update(saved_environment)
    return [status or 0, err.getvalue(), out.getvalue()]


def main(path: str) -> None:
    with open(path, encoding="utf-8") as file:
        runs = json.load(file)
    print(json.dumps([run(*each) for each in runs]))


if __name__ == "__main__":
    main(sys.argv[1])
