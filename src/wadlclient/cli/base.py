"""What every ``wadlclient`` command shares: the exit statuses, `Command`, `UsageError`,
the SERVICE argument with its credential and reach options, and the JSON output.

A command module (`wadlclient.cli.commands`, or a user's own) imports these;
`wadlclient.cli` (the package) runs the commands and maps what they raise
to `EXIT_STATUSES`.
"""

from __future__ import annotations

import argparse
import getpass
import json
import math
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from wadlclient.errors import CredentialsError, NotFound, reduce_error

if TYPE_CHECKING:
    # Imported where used: ``wadlclient --version`` and ``--help`` parse the command
    # line without the HTTP stack, the authorizers and their credentials-file parser.
    from wadlclient.auth import HttpAuthorizer
    from wadlclient.objects import ServiceRoot

__all__ = [
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEOUT",
    "EXIT_STATUSES",
    "Command",
    "UsageError",
    "add_reach_arguments",
    "add_service_arguments",
    "non_negative",
    "open_root",
    "print_json",
    "reach_options",
]

#: The exit statuses, documented once: ``--help`` prints this table.
EXIT_STATUSES: dict[int, str] = {
    0: "done",
    1: "the service answered with an error, or with something unreadable",
    2: "the command line is wrong (unknown option, bad address, bad value, missing file)",
    3: "the service could not be reached (refused, timed out, dropped)",
    4: "credentials missing or unusable",
    70: "a bug in wadlclient (--verbose prints the traceback)",
    130: "interrupted (Ctrl-C)",
    141: "the output was closed early (piped into head, say)",
}


class UsageError(Exception):
    """The command line asks for something impossible: exit status 2."""

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)  # no credential the client holds goes with it


class Command(NamedTuple):
    """One ``wadlclient COMMAND``: its name, one line of help, its options, what it does.

    ``run(args)`` returns the exit status; it may raise `UsageError` (or
    ``argparse.ArgumentTypeError``, a bad value) or any `RestfulError`,
    which `main` turns into a one-line message.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: A one-shot command's defaults: a service that is down is told in about a second, not
#: after the library's half-minute of retries meant to ride out a restart.
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 2
#: The first waits between tries (0.25 s, then 0.5 s, ...; each drawn from 0 to it).
_BACKOFF_BASE = 0.25


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds more than 0, not {text}")
    return value


def add_reach_arguments(parser: argparse.ArgumentParser) -> None:
    """``--timeout`` and ``--retries``: how long a command tries to reach the service."""
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT,
        help="the most one request may take, its retries and waits included "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--retries",
        metavar="N",
        type=non_negative,
        default=DEFAULT_RETRIES,
        help="tries again of a request that failed in a way a retry may cure: a refused or "
        "dropped connection, a timeout, a busy server (429, 502, 503, 504); never an unknown "
        f"host (default {DEFAULT_RETRIES})",
    )


def reach_options(args: argparse.Namespace) -> dict[str, Any]:
    """The `ServiceRoot` keywords the options of `add_reach_arguments` stand for."""
    from wadlclient.http import Retry

    retry = Retry(total=args.retries, backoff_base=_BACKOFF_BASE, backoff_max=args.timeout)
    return {"timeout": args.timeout, "deadline": args.timeout, "retry": retry}


def add_service_arguments(
    parser: argparse.ArgumentParser, cache_default: str = "none kept"
) -> None:
    """SERVICE and the options that say how to reach it, for commands that talk to one."""
    parser.add_argument("service", metavar="SERVICE", help="e.g. http://127.0.0.1:8080/")
    parser.add_argument(
        "--api-version",
        default="1.0",
        help="the version path segment (default 1.0; 'none' if SERVICE has it)",
    )
    parser.add_argument(
        "--cache", help=f"a cache directory kept across runs (default: {cache_default})"
    )
    parser.add_argument(
        "--basic",
        metavar="USER",
        help="HTTP Basic user; the password is read from WADLCLIENT_PASSWORD or asked for",
    )
    parser.add_argument(
        "--credentials",
        metavar="FILE",
        help="an OAuth credentials file (lazr.restfulclient layout)",
    )
    add_reach_arguments(parser)


def _authorizer(args: argparse.Namespace) -> HttpAuthorizer | None:
    from wadlclient.auth import BasicHttpAuthorizer, OAuthAuthorizer

    if args.basic and args.credentials:
        raise UsageError("give --basic or --credentials, not both")
    if args.basic:
        password = os.environ.get("WADLCLIENT_PASSWORD")
        if password is None:
            if not sys.stdin.isatty():
                raise CredentialsError(
                    f"no password for {args.basic}: set WADLCLIENT_PASSWORD or run in a terminal"
                )
            password = getpass.getpass(f"Password for {args.basic}: ")
        return BasicHttpAuthorizer(args.basic, password)
    if args.credentials:
        return OAuthAuthorizer.load_from_path(args.credentials, application_name="wadlclient-cli")
    return None


def open_root(args: argparse.Namespace) -> ServiceRoot:
    """The service root the options of `add_service_arguments` describe."""
    from wadlclient.objects import ServiceRoot

    address = urlsplit(args.service)
    if address.scheme not in ("http", "https") or not address.netloc:
        raise UsageError(f"SERVICE must be an http:// or https:// address, not {args.service!r}")
    version = None if args.api_version == "none" else args.api_version
    authorizer = _authorizer(args)
    try:
        return ServiceRoot(
            authorizer, args.service, args.cache, version=version, **reach_options(args)
        )
    except NotFound as error:
        # The library's advice in the command line's spelling.
        error.note = error.note.replace("pass version=None", "pass --api-version none")
        raise


def print_json(result: Any) -> None:
    """``result`` on stdout as indented JSON (values JSON lacks as their ``str()``)."""
    json.dump(result, sys.stdout, indent=2, default=str, ensure_ascii=False)
    print()


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value
