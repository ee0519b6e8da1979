"""The commands ``wadlclient`` ships: ``describe``, ``get`` and ``stubgen``.

Each is a `Command` value, registered in `wadlclient.cli.COMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from wadlclient.cli.base import (
    Command,
    UsageError,
    add_reach_arguments,
    add_service_arguments,
    non_negative,
    open_root,
    print_json,
    reach_options,
)
from wadlclient.stubgen import command as stubgen

if TYPE_CHECKING:
    # Imported where used: ``wadlclient --version`` and ``--help`` need none of them.
    from wadlclient.objects import Collection, Entry, ServiceRoot

__all__ = ["DESCRIBE", "GET", "STUBGEN"]

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


def _get_arguments(parser: argparse.ArgumentParser) -> None:
    add_service_arguments(parser)
    # None: 1.0, or devel for a root inferred from a Launchpad web address (cli.web).
    parser.set_defaults(api_version=None)
    parser.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        help="a URL of the service, or a path from its root: a top-level collection or "
        "entry name, then more path (e.g. featured_cookbook/recipes); for Launchpad, also a "
        "web address or reference ('LP: #1', ppa:ada/tools), which may stand alone in "
        "place of SERVICE PATH (then --api-version is devel unless given)",
    )
    parser.add_argument(
        "--limit",
        type=non_negative,
        default=None,
        help=f"entries of a collection to print (default {DEFAULT_LIMIT}, all with --progress; "
        "0: all, by a walk)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="walk all the entries with a progress bar on stderr (needs the [progress] extra)",
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
    from wadlclient.http.urls import parse_url

    try:
        absolute = bool(urlsplit(path).scheme)
    except ValueError as error:
        message = f"PATH is not a URL or a path of the service: {path!r} ({error})"
        raise UsageError(message) from None
    if absolute:
        target, service = parse_url(path), parse_url(root.service_root)
        if target is None:
            raise UsageError(f"PATH must be an http:// or https:// URL, or a path: {path!r}")
        if service is not None and target.origin != service.origin:
            # The credentials and the cache are the service's: another site gets neither.
            raise UsageError(
                f"PATH {path!r} is not a URL of the service "
                f"({service.scheme}://{service.host_header}/); give a path, or one of its URLs"
            )
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


#: The entries of a collection ``get`` prints unless told (``--limit``).
DEFAULT_LIMIT = 10


def _limit(asked: int | None, progress: bool) -> int:
    """The number of entries to print (0: all): ``--progress`` walks them all unless limited.

    A bar is shown only for a walk: a limited number is fetched as one
    slice, so ``--progress`` with ``--limit N`` says on stderr that it shows none.
    """
    if asked is None:
        return 0 if progress else DEFAULT_LIMIT
    if progress and asked:
        print(
            f"wadlclient get: --progress shows no bar with --limit {asked}: the entries come "
            "in one slice, not a walk (--limit 0 walks them all, with the bar)",
            file=sys.stderr,
        )
    return asked


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


def _say_when_cut(collection: Collection[Entry], printed: int, args: argparse.Namespace) -> None:
    """One line on stderr when the default limit left entries out, saying how to get them all."""
    if args.limit is None and printed == DEFAULT_LIMIT and len(collection) > printed:
        print(
            f"wadlclient get: printed the first {printed} of {len(collection)} entries "
            "(the default --limit); --limit 0 prints them all",
            file=sys.stderr,
        )


def _run_get(args: argparse.Namespace) -> int:
    """The resource's JSON as the service sent it: an entry, or a collection's size and entries."""
    from wadlclient.cli.web import from_web_text, load_web_path
    from wadlclient.objects import Collection, Resource, representation_of

    if args.path is None:
        from_web_text(args)
    if args.api_version is None:
        args.api_version = "1.0"
    with open_root(args) as root:
        resource: Resource | None = load_web_path(root, args.path)
        if resource is None:
            resource = root.load(_target_url(root, args.path))
        if isinstance(resource, Collection):
            entries = _collection_entries(
                resource, _limit(args.limit, args.progress), args.progress
            )
            if args.jsonl:
                printed = 0
                for entry in entries:
                    print(json.dumps(representation_of(entry), ensure_ascii=False), flush=True)
                    printed += 1
                _say_when_cut(resource, printed, args)
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


# -- stubgen -------------------------------------------------------------------


def _stubgen_arguments(parser: argparse.ArgumentParser) -> None:
    stubgen.add_arguments(parser)
    add_reach_arguments(parser)


def _run_stubgen(args: argparse.Namespace) -> int:
    return stubgen.run(args, **reach_options(args))


STUBGEN = Command("stubgen", stubgen.HELP, _stubgen_arguments, _run_stubgen)
