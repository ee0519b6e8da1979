"""The ``wadlclient`` command: look at a web service from the shell.

``wadlclient describe SERVICE`` lists the top-level collections and entries
and the named operations of each; ``wadlclient get SERVICE PATH`` prints a
resource as JSON (an entry's fields, or some or all of a collection's
entries); ``wadlclient stubgen SOURCE --output DIR --name MODULE`` writes a
typed-access package (`wadlclient.stubgen`). It is a thin layer over the
public API and exists mostly so that a user can check credentials, caching
and connectivity before writing a script. Whatever goes wrong, it prints one line on stderr, never a
traceback (``--verbose`` adds one for a bug in wadlclient itself).

Exit statuses (also in ``wadlclient --help``): see `EXIT_STATUSES`.

A command is a `Command` value; adding one is one line in `COMMANDS`
(``"package.module:NAME"``), imported when the command line is parsed.
`add_service_arguments` and `open_root` give a new command the same
SERVICE argument and credential options as ``describe`` and ``get``.
"""

from __future__ import annotations

import argparse
import getpass
import importlib
import json
import logging
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from wadlclient._version import __version__
from wadlclient.auth import BasicHttpAuthorizer, HttpAuthorizer, OAuthAuthorizer
from wadlclient.errors import CredentialsError, RestfulError, TransportError, Unauthorized
from wadlclient.objects import Collection, Entry, ServiceRoot, representation_of
from wadlclient.stubgen import command as stubgen

__all__ = [
    "COMMANDS",
    "EXIT_STATUSES",
    "Command",
    "UsageError",
    "add_service_arguments",
    "main",
    "open_root",
    "print_json",
]

#: The exit statuses, documented once: ``--help`` prints this table.
EXIT_STATUSES: dict[int, str] = {
    0: "done",
    1: "the service answered with an error, or with something unreadable",
    2: "the command line is wrong (unknown option, bad address, bad value)",
    3: "the service could not be reached (refused, timed out, dropped)",
    4: "credentials missing or unusable",
    70: "a bug in wadlclient (--verbose prints the traceback)",
    130: "interrupted (Ctrl-C)",
    141: "the output was closed early (piped into head, say)",
}


class UsageError(Exception):
    """The command line asks for something impossible: exit status 2."""


class Command(NamedTuple):
    """One ``wadlclient COMMAND``: its name, one line of help, its options, what it does.

    ``run(args)`` returns the exit status; it may raise `UsageError` or any
    `RestfulError`, which `main` turns into a one-line message.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def add_service_arguments(parser: argparse.ArgumentParser) -> None:
    """SERVICE and the options that say how to reach it, for commands that talk to one."""
    parser.add_argument("service", metavar="SERVICE", help="e.g. http://127.0.0.1:8080/")
    parser.add_argument(
        "--api-version",
        default="1.0",
        help="the version path segment (default 1.0; 'none' if SERVICE has it)",
    )
    parser.add_argument("--cache", help="a cache directory kept across runs (default: none kept)")
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


def _authorizer(args: argparse.Namespace) -> HttpAuthorizer | None:
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
    address = urlsplit(args.service)
    if address.scheme not in ("http", "https") or not address.netloc:
        raise UsageError(f"SERVICE must be an http:// or https:// address, not {args.service!r}")
    version = None if args.api_version == "none" else args.api_version
    return ServiceRoot(_authorizer(args), args.service, args.cache, version=version)


def print_json(result: Any) -> None:
    """``result`` on stdout as indented JSON (values JSON lacks as their ``str()``)."""
    json.dump(result, sys.stdout, indent=2, default=str, ensure_ascii=False)
    print()


# -- describe ------------------------------------------------------------------


def _describe(root: ServiceRoot) -> dict[str, Any]:
    described: dict[str, Any] = {"service_root": root.service_root}
    for kind in ("lp_collections", "lp_entries"):
        names = getattr(root, kind)
        described[kind.removeprefix("lp_")] = {
            name: {"operations": sorted(getattr(root, name).lp_operations)} for name in names
        }
    return described


def _run_describe(args: argparse.Namespace) -> int:
    with open_root(args) as root:
        print_json(_describe(root))
    return 0


DESCRIBE = Command(
    "describe",
    "list collections, entries and named operations",
    add_service_arguments,
    _run_describe,
)


# -- get -----------------------------------------------------------------------


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _get_arguments(parser: argparse.ArgumentParser) -> None:
    add_service_arguments(parser)
    parser.add_argument(
        "path",
        metavar="PATH",
        help="a URL of the service, or a path from its root: a top-level collection or "
        "entry name, then more path (e.g. featured_cookbook/recipes)",
    )
    parser.add_argument(
        "--limit",
        type=_non_negative,
        default=10,
        help="entries of a collection to print (default 10; 0: all, by a walk)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="a progress bar on stderr while walking (needs the [progress] extra)",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="a collection's entries one JSON object per line, each printed as it arrives",
    )


def _target_url(root: ServiceRoot, path: str) -> str:
    """The URL ``path`` names: itself when absolute, else resolved from the root.

    A first segment naming a top-level entry (``featured_cookbook``) stands
    for that entry's own URL, which is not under the root.
    """
    try:
        absolute = bool(urlsplit(path).scheme)
    except ValueError as error:
        message = f"PATH is not a URL or a path of the service: {path!r} ({error})"
        raise UsageError(message) from None
    if absolute:
        if not path.startswith(("http://", "https://")):
            raise UsageError(f"PATH must be an http:// or https:// URL, or a path: {path!r}")
        return path
    head, _, rest = path.strip("/").partition("/")
    if head in root.lp_entries:
        entry = getattr(root, head)
        return str(entry.self_link).rstrip("/") + ("/" + rest if rest else "")
    return urljoin(root.service_root, path.lstrip("/"))


def _with_progress(entries: Iterable[Entry], total: int) -> Iterable[Entry]:
    """``entries`` behind a tqdm bar on stderr; a `UsageError` when tqdm is missing."""
    try:
        from tqdm import tqdm
    except ImportError:
        raise UsageError("--progress needs tqdm: pip install 'wadlclient[progress]'") from None
    bar: Iterable[Entry] = tqdm(entries, total=total, unit="entry", file=sys.stderr, leave=False)
    return bar


def _collection_entries(
    collection: Collection[Entry], limit: int, progress: bool
) -> Iterable[Entry]:
    """The first ``limit`` entries (a slice), or all of them as a walk yields them."""
    if limit:
        return collection[:limit]
    entries: Iterable[Entry] = collection
    if progress:
        entries = _with_progress(entries, len(collection))
    return entries


def _run_get(args: argparse.Namespace) -> int:
    """The resource's JSON as the service sent it: an entry, or a collection's size and entries."""
    with open_root(args) as root:
        resource = root.load(_target_url(root, args.path))
        if isinstance(resource, Collection):
            entries = _collection_entries(resource, args.limit, args.progress)
            if args.jsonl:
                for entry in entries:
                    print(json.dumps(representation_of(entry), ensure_ascii=False), flush=True)
                return 0
            result: Any = {
                "total_size": len(resource),
                "entries": [representation_of(entry) for entry in entries],
            }
        elif args.jsonl:
            raise UsageError("--jsonl prints the entries of a collection; PATH names an entry")
        else:
            result = representation_of(resource)
        print_json(result)
    return 0


GET = Command("get", "print a resource as JSON", _get_arguments, _run_get)
STUBGEN = Command("stubgen", stubgen.HELP, stubgen.add_arguments, stubgen.run)


#: Every command, as ``"module:NAME"`` of a `Command`, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "wadlclient.cli:DESCRIBE",
    "wadlclient.cli:GET",
    "wadlclient.cli:STUBGEN",
)


def _commands() -> list[Command]:
    found = []
    for spec in COMMANDS:
        module, _, name = spec.partition(":")
        found.append(getattr(importlib.import_module(module), name))
    return found


def _parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    statuses = "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_STATUSES.items())
    parser = argparse.ArgumentParser(
        prog="wadlclient",
        description="Look at a WADL-described web service (lazr.restful dialect).",
        epilog=f"exit statuses:\n{statuses}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"wadlclient {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every HTTP exchange")
    common = argparse.ArgumentParser(add_help=False)
    # Before or after COMMAND; SUPPRESS so that the command's default does not undo a -v before.
    common.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
        help="log every HTTP exchange",
    )  # fmt: skip
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, parents=[common])
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def _fail(message: object, status: int) -> int:
    first_line = str(message).strip().splitlines()[0] if str(message).strip() else "failed"
    print(f"wadlclient: {first_line}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the process exit status (see `EXIT_STATUSES`)."""
    args = _parser(_commands()).parse_args(argv)
    if args.verbose:
        logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
        logging.getLogger("wadlclient.http").setLevel(logging.DEBUG)
        logging.getLogger("wadlclient.objects").setLevel(logging.INFO)
    try:
        return int(args.run(args))
    except UsageError as error:
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
            traceback.print_exc()
        return _fail(f"internal error: {type(error).__name__}: {error}", 70)


if __name__ == "__main__":
    sys.exit(main())
