"""Run a program with lazr.restfulclient served by wadlclient, changing none of its code.

    python -m wadlclient.lazr_compat [options] script.py [args...]
    python -m wadlclient.lazr_compat [options] -m package.module [args...]

``--record FILE`` writes every exchange to FILE, credentials scrubbed;
``--replay FILE`` answers them from it and sends nothing (the testing
kit's `wadlclient.testing.record`; the same as setting WADLCLIENT_RECORD
or WADLCLIENT_REPLAY). ``--fake SEED`` runs the program against a fake
Launchpad filled by the seed file's ``seed(fake)`` (`wadlclient.testing.seeding`),
every login and every Launchpad address routed to it; ``--launchpad VERSION``
picks the API version it fakes (devel by default).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path

from wadlclient import install_as_lazr_restfulclient
from wadlclient.errors import RestfulError

_USAGE = (
    "usage: python -m wadlclient.lazr_compat [--record FILE | --replay FILE] "
    "[--fake SEED [--launchpad VERSION]] (script.py | -m module) [args...]"
)
_SESSION_OPTIONS = {"--record": "WADLCLIENT_RECORD", "--replay": "WADLCLIENT_REPLAY"}
_FAKE_OPTIONS = ("--fake", "--launchpad")


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
    fake: dict[str, str] = {}
    while argv and (argv[0] in _SESSION_OPTIONS or argv[0] in _FAKE_OPTIONS):
        if len(argv) < 2:
            print(_USAGE, file=sys.stderr)
            return 2
        if argv[0] in _FAKE_OPTIONS:
            fake[argv[0]] = argv[1]
        else:
            os.environ[_SESSION_OPTIONS[argv[0]]] = argv[1]
        argv = argv[2:]
    if not argv or (argv[0] == "-m" and len(argv) < 2):
        print(_USAGE, file=sys.stderr)
        return 2
    install_as_lazr_restfulclient()
    # The cheap checks first: a mistyped name is answered before the client is imported.
    problem = _missing(argv) or _environment_problem() or _replay_problem()
    if problem:
        print(f"python -m wadlclient.lazr_compat: {problem}", file=sys.stderr)
        return 2
    try:
        with _faked(fake):
            return _run(argv)
    except _FakeRefused as refused:
        print(f"python -m wadlclient.lazr_compat: {refused}", file=sys.stderr)
        return 2


def _missing(argv: list[str]) -> str:
    """What ``python`` would say of the script or module ``argv`` names ("" when it is there)."""
    if argv[0] == "-m":
        if importlib.util.find_spec(argv[1].partition(".")[0]) is None:
            return f"no module named {argv[1]!r}"
    elif not os.path.isfile(argv[0]):
        return f"can't open file {argv[0]!r}"
    return ""


def _run(argv: list[str]) -> int:
    """Run the script or module ``argv`` names as ``__main__``."""
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[:]
        # As ``python script.py`` does: the script's directory comes first on the path.
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


class _FakeRefused(RestfulError):
    """The fake ``--fake`` asks for cannot be made (the message says why)."""


@contextlib.contextmanager
def _faked(options: dict[str, str]) -> Iterator[None]:
    """With ``--fake SEED``: a fake Launchpad, every login and Launchpad address routed to it."""
    if "--fake" not in options:
        if options:
            raise _FakeRefused("--launchpad picks the version of a --fake Launchpad: give --fake")
        yield
        return
    from wadlclient.testing.launchpad import patched_launchpad
    from wadlclient.testing.seeding import SeedError, launchpad_fake

    try:
        fake = launchpad_fake(options.get("--launchpad", "devel"), options["--fake"])
    except SeedError as error:
        raise _FakeRefused(str(error)) from None
    with fake, patched_launchpad(fake):
        yield


#: Each setting the layer reads, and the module and function that check it: imported
#: only when the setting is there (a start without them, as most are, imports
#: neither the cache nor the HTTP stack to check nothing; the CA bundle's check is light).
_CHECKED_SETTINGS = (
    ("WADLCLIENT_CACHE", "wadlclient.cache", "cache_from_environment"),
    ("WADLCLIENT_LOOK_AHEAD", "wadlclient.objects.links", "look_ahead_from_env"),
    ("WADLCLIENT_MAX_IN_FLIGHT", "wadlclient.http.limits", "max_in_flight_from_env"),
    ("HTTPLIB2_CA_CERTS", "wadlclient.lazr.restfulclient._certificates", "verify_from_environment"),
)


def _environment_problem() -> str:
    """What is wrong with a ``WADLCLIENT_*`` setting the layer reads ("" when nothing is).

    Checked before the program starts: it would otherwise fail deep inside
    its first login, under a traceback of the program's own frames. An
    unset setting means its default, which needs no check.
    """
    record, replay = _SESSION_OPTIONS["--record"], _SESSION_OPTIONS["--replay"]
    if os.environ.get(record) and os.environ.get(replay):
        return f"{record} and {replay} are both set: choose one"
    for variable, module, function in _CHECKED_SETTINGS:
        if variable not in os.environ:
            continue
        check = getattr(importlib.import_module(module), function)
        try:
            check()
        except (RestfulError, ValueError) as error:
            return str(error)
    return ""


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
