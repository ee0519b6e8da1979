"""Run a program with lazr.restfulclient served by wadlclient, changing none of its code.

    python -m wadlclient.lazr_compat [--record FILE | --replay FILE] script.py [args...]
    python -m wadlclient.lazr_compat [--record FILE | --replay FILE] -m package.module [args...]

``--record FILE`` writes every exchange to FILE, credentials scrubbed;
``--replay FILE`` answers them from it and sends nothing (the testing
kit's `wadlclient.testing.record`; the same as setting WADLCLIENT_RECORD
or WADLCLIENT_REPLAY).
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
from pathlib import Path

from wadlclient import install_as_lazr_restfulclient

_USAGE = (
    "usage: python -m wadlclient.lazr_compat [--record FILE | --replay FILE] "
    "(script.py | -m module) [args...]"
)
_SESSION_OPTIONS = {"--record": "WADLCLIENT_RECORD", "--replay": "WADLCLIENT_REPLAY"}


def main(argv: list[str]) -> int:
    """Install the compatibility modules, then run the script or module as ``__main__``.

    Exit statuses: 0 for ``--help``; 2, with one line on stderr, for a
    missing or unknown script or module (as ``python`` itself says it), or
    a ``--replay`` file that is not a sound recording (read before the
    program starts, so that it fails there rather than deep inside it).
    """
    if argv and argv[0] in ("-h", "--help"):
        print(f"{_USAGE}\n\n{__doc__.strip().splitlines()[0]}")
        return 0
    while argv and argv[0] in _SESSION_OPTIONS:
        if len(argv) < 2:
            print(_USAGE, file=sys.stderr)
            return 2
        os.environ[_SESSION_OPTIONS[argv[0]]] = argv[1]
        argv = argv[2:]
    if not argv or (argv[0] == "-m" and len(argv) < 2):
        print(_USAGE, file=sys.stderr)
        return 2
    problem = _replay_problem()
    if problem:
        print(f"python -m wadlclient.lazr_compat: {problem}", file=sys.stderr)
        return 2
    install_as_lazr_restfulclient()
    if argv[0] == "-m":
        if importlib.util.find_spec(argv[1].partition(".")[0]) is None:
            print(f"python -m wadlclient.lazr_compat: no module named {argv[1]!r}", file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        if not os.path.isfile(argv[0]):
            print(f"python -m wadlclient.lazr_compat: can't open file {argv[0]!r}", file=sys.stderr)
            return 2
        sys.argv = argv[:]
        # As ``python script.py`` does: the script's directory comes first on the path.
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


def _replay_problem() -> str:
    """What is wrong with the recording ``$WADLCLIENT_REPLAY`` names ("" when nothing is)."""
    replay = os.environ.get(_SESSION_OPTIONS["--replay"])
    if not replay:
        return ""
    from wadlclient.testing.record import RecordingError, read_recording

    try:
        read_recording(Path(replay))
    except RecordingError as error:
        return str(error)
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
