"""Run a program with lazr.restfulclient served by wadlclient, changing none of its code.

    python -m wadlclient.lazr_compat script.py [args...]
    python -m wadlclient.lazr_compat -m package.module [args...]
"""

from __future__ import annotations

import os
import runpy
import sys

from wadlclient import install_as_lazr_restfulclient

_USAGE = "usage: python -m wadlclient.lazr_compat (script.py | -m module) [args...]"


def main(argv: list[str]) -> int:
    """Install the compatibility modules, then run the script or module as ``__main__``."""
    if not argv or argv[0] in ("-h", "--help") or (argv[0] == "-m" and len(argv) < 2):
        print(_USAGE, file=sys.stderr)
        return 2
    install_as_lazr_restfulclient()
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[:]
        # As ``python script.py`` does: the script's directory comes first on the path.
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
