"""The ``wadlclient`` command: look at a web service from the shell.

``wadlclient describe SERVICE`` lists the top-level collections and entries
and the named operations of each; ``wadlclient get SERVICE PATH`` prints a
resource as JSON (an entry's fields, or some or all of a collection's
entries); ``wadlclient stubgen SOURCE --output DIR --name MODULE`` writes a
typed-access package (`wadlclient.stubgen`). It is a thin layer over the
public API and exists mostly so that a user can check credentials, caching
and connectivity before writing a script. Whatever goes wrong, it prints
one line on stderr, never a traceback (``--verbose`` adds one for a bug in
wadlclient itself), and it gives up soon: a one-shot command retries a
request twice within 30 s (``--retries``, ``--timeout``), not the
library's half-minute meant to ride out a restart.

Exit statuses (also in ``wadlclient --help``): see `EXIT_STATUSES`.

A command is a `Command` value (`wadlclient.cli.base`); adding one is one
line in `COMMANDS` (``"package.module:NAME"``), imported when the command
line is parsed. `add_service_arguments` and `open_root` give a new command
the same SERVICE argument, credential and reach options as ``describe``
and ``get`` (`wadlclient.cli.commands`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from wadlclient._version import __version__
from wadlclient.cli.base import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    EXIT_STATUSES,
    Command,
    UsageError,
    add_reach_arguments,
    add_service_arguments,
    open_root,
    print_json,
    reach_options,
)
from wadlclient.errors import CredentialsError, RestfulError, TransportError, Unauthorized
from wadlclient.redact import redacted

if TYPE_CHECKING:
    import logging

__all__ = [
    "COMMANDS",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEOUT",
    "EXIT_STATUSES",
    "Command",
    "UsageError",
    "add_reach_arguments",
    "add_service_arguments",
    "main",
    "open_root",
    "print_json",
    "reach_options",
]

#: Every command, as ``"module:NAME"`` of a `Command`, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "wadlclient.cli.commands:DESCRIBE",
    "wadlclient.cli.commands:GET",
    "wadlclient.cli.commands:STUBGEN",
    "wadlclient.cli.mirror:MIRROR",
)


def _commands() -> list[Command]:
    found = []
    for spec in COMMANDS:
        module, _, name = spec.partition(":")
        found.append(getattr(importlib.import_module(module), name))
    return found


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a command-line mistake is one line (and where help is), not the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    statuses = "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_STATUSES.items())
    parser = _OneLineParser(
        prog="wadlclient",
        description="Look at a WADL-described web service (lazr.restful dialect).",
        epilog=f"exit statuses:\n{statuses}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"wadlclient {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every HTTP exchange")
    common = _OneLineParser(add_help=False)
    # Before or after COMMAND; SUPPRESS so that the command's default does not undo a -v before.
    common.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
        help="log every HTTP exchange",
    )  # fmt: skip
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_OneLineParser
    )
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, parents=[common])
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def _fail(message: object, status: int) -> int:
    """One line on stderr; no credential the client holds, whatever the server sent back."""
    text = redacted(str(message)).strip()
    first_line = text.splitlines()[0] if text else "failed"
    print(f"wadlclient: {first_line}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the process exit status (see `EXIT_STATUSES`)."""
    args = _parser(_commands()).parse_args(argv)
    # Imported once the command line is parsed: ``--version`` and ``--help`` need no logging.
    import logging

    if args.verbose:
        logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
        logging.getLogger("wadlclient.http").setLevel(logging.DEBUG)
        logging.getLogger("wadlclient.objects").setLevel(logging.INFO)
        return _run(args)
    library, quiet = logging.getLogger("wadlclient"), _quiet_handler()
    library.addHandler(quiet)
    try:
        return _run(args)
    finally:
        library.removeHandler(quiet)


def _quiet_handler() -> logging.Handler:
    """Without ``--verbose``: the library's warnings (a cache that cannot be written) on
    stderr, but not its retries: the one error line says how many tries were made."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("wadlclient: %(message)s"))
    handler.addFilter(lambda record: record.name != "wadlclient.http")
    return handler


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` name; its exceptions as one line and an exit status."""
    try:
        return int(args.run(args))
    except (UsageError, argparse.ArgumentTypeError) as error:
        return _fail(error, 2)
    except (CredentialsError, Unauthorized) as error:
        return _fail(error, 4)
    except TransportError as error:
        return _fail(error, 3)
    except (RestfulError, ValueError) as error:
        return _fail(error, 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # Nothing more can be written; stdout is pointed away so that exit does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:
        if args.verbose:
            import traceback

            traceback.print_exc()
        return _fail(f"internal error: {type(error).__name__}: {error}", 70)
