"""Run the documents' blocks in one interpreter (this one), in order; stop at the first failure.

Reads the blocks as JSON on stdin (see docblocks.py). Python blocks share
one namespace, as in a session typed by a reader; the ``wadlclient`` lines
of sh blocks run in a shell. Prints ``ok N`` when all N ran.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import traceback


def run_python(where: str, text: str, namespace: dict[str, object]) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text, where, "exec"), namespace)
    return printed.getvalue()


#: A command line of the documents that runs: ``wadlclient ...``, maybe after ``NAME=value``s.
COMMAND = re.compile(r"^(\w+=\S+ )*wadlclient ")


def run_sh(where: str, text: str) -> None:
    for line in text.splitlines():
        if COMMAND.match(line):
            done = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60)
            if done.returncode != 0:
                raise RuntimeError(f"{line!r} exited {done.returncode}: {done.stderr.strip()}")


def main() -> int:
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
                run_sh(where, text)
        except BaseException:
            print(f"FAILED {where}", flush=True)
            traceback.print_exc(file=sys.stdout)
            return 1
    print(f"ok {len(blocks)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
