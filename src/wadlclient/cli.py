"""The ``wadlclient`` command: look at a web service from the shell.

``wadlclient SERVICE describe`` lists the top-level collections and entries
and the named operations of each; ``wadlclient SERVICE get URL_OR_PATH``
prints a resource as JSON (an entry's fields, or a slice of a
collection's entries); ``wadlclient stubgen SOURCE --output DIR --name
MODULE`` writes a typed-access package (`wadlclient.stubgen`). It is a
thin layer over the public API and exists mostly so that a user can check
credentials, caching and connectivity before writing a script.
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any
from urllib.parse import urljoin

from wadlclient._version import __version__
from wadlclient.auth import BasicHttpAuthorizer, HttpAuthorizer, OAuthAuthorizer
from wadlclient.errors import RestfulError
from wadlclient.objects import Collection, Entry, Resource, ServiceRoot

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wadlclient",
        description="Look at a WADL-described web service (lazr.restful dialect).",
    )
    parser.add_argument("--version-info", action="version", version=f"wadlclient {__version__}")
    parser.add_argument("service", help="the service address, e.g. http://127.0.0.1:8080/")
    parser.add_argument(
        "--api-version",
        default="1.0",
        help="the version path segment (default 1.0; 'none' if the address has it)",
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
    parser.add_argument("-v", "--verbose", action="store_true", help="log every HTTP exchange")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("describe", help="list collections, entries and named operations")
    get = commands.add_parser("get", help="print a resource as JSON")
    get.add_argument("target", help="a URL of the service, or a path relative to its root")
    get.add_argument("--limit", type=int, default=10, help="entries of a collection (default 10)")
    return parser


def _authorizer(args: argparse.Namespace) -> HttpAuthorizer | None:
    if args.basic and args.credentials:
        raise SystemExit("wadlclient: give --basic or --credentials, not both")
    if args.basic:
        password = os.environ.get("WADLCLIENT_PASSWORD")
        if password is None:
            password = getpass.getpass(f"Password for {args.basic}: ")
        return BasicHttpAuthorizer(args.basic, password)
    if args.credentials:
        return OAuthAuthorizer.load_from_path(args.credentials, application_name="wadlclient-cli")
    return None


def _plain(value: Any) -> Any:
    """A JSON-friendly view of a field value (links become their URLs)."""
    if isinstance(value, Entry):
        return value.self_link
    if isinstance(value, Resource):
        return repr(value)
    return value


def _entry_fields(entry: Entry) -> dict[str, Any]:
    return {name: _plain(getattr(entry, name)) for name in entry.lp_attributes}


def _describe(root: ServiceRoot) -> dict[str, Any]:
    described: dict[str, Any] = {"service_root": root.service_root}
    for kind in ("lp_collections", "lp_entries"):
        names = getattr(root, kind)
        described[kind.removeprefix("lp_")] = {
            name: {"operations": sorted(getattr(root, name).lp_operations)} for name in names
        }
    return described


def _get(root: ServiceRoot, target: str, limit: int) -> Any:
    resource = root.load(urljoin(root.service_root, target))
    if isinstance(resource, Collection):
        return {
            "total_size": len(resource),
            "entries": [_entry_fields(entry) for entry in resource[:limit]],
        }
    if isinstance(resource, Entry):
        return _entry_fields(resource)
    return repr(resource)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the process exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["stubgen"]:
        from wadlclient.stubgen import main as stubgen

        return stubgen(arguments[1:])
    args = _parser().parse_args(arguments)
    if args.verbose:
        logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
        logging.getLogger("wadlclient.http").setLevel(logging.DEBUG)
    version = None if args.api_version == "none" else args.api_version
    try:
        with ServiceRoot(_authorizer(args), args.service, args.cache, version=version) as root:
            if args.command == "describe":
                result = _describe(root)
            else:
                result = _get(root, args.target, args.limit)
    except RestfulError as error:
        print(f"wadlclient: {error}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, indent=2, default=str, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
