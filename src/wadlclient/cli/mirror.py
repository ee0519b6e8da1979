"""``wadlclient mirror SERVICE COLLECTION --out DIR``: `wadlclient.mirror` from the shell."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from wadlclient.cli.base import Command, UsageError, add_service_arguments, open_root

__all__ = ["MIRROR"]

#: The cache directory of a mirror run without ``--cache``, inside its ``--out``.
CACHE = ".cache"

#: A kind's links are printed one a line up to this many; beyond, only its count.
_LISTED = 50


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--arg takes NAME=VALUE, not {text!r}")
    return name, value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def _pages_ahead(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of 0 or more, not {text!r}")
    return value


def _arguments(parser: argparse.ArgumentParser) -> None:
    add_service_arguments(parser, cache_default=f"DIR/{CACHE}")
    parser.add_argument(
        "collection", metavar="COLLECTION", help="a top-level collection, path or URL"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the mirror's directory")
    parser.add_argument("--op", help="copy this named operation's result instead")
    parser.add_argument("--arg", action="append", type=_pair, default=[], metavar="NAME=VALUE",
                        help="an argument of --op (repeatable)")  # fmt: skip
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    parser.add_argument("--since-arg", help="--op's argument filtering by modification "
                        "(e.g. modified_since): a later run reads what changed")  # fmt: skip
    parser.add_argument("--since-field", help="the entries' field that filter reads "
                        "(e.g. date_last_modified): asked since its newest value")  # fmt: skip
    parser.add_argument("--shards", type=_positive, default=1,
                        help="walk in N parts in N processes (a first or full run)")  # fmt: skip
    parser.add_argument("--engine", choices=("local", "celery"), default="local",
                        help="celery: the shards on the fleet's workers "
                        "(celery -A wadlclient.mirror.tasks worker; docs/fleet.md)")  # fmt: skip
    parser.add_argument("--work", metavar="MODULE:FUNCTION",
                        help="call this function with each entry copied (a call to another "
                        "system), in the process that walks its shard")  # fmt: skip
    parser.add_argument("--pages-ahead", type=_pages_ahead, metavar="N",
                        help="pages each walk requests ahead (default 2): a run killed "
                        "outright reads again the pages then in flight, up to N; 1 bounds "
                        "that to one page, and walks a service slower than the work at "
                        "half the pace (docs/mirror.md)")  # fmt: skip
    parser.add_argument("--report", metavar="FILE", help="save the run's report as JSON")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors (cron)")


def _print_report(report: dict[str, Any]) -> None:
    counts = report["counts"]
    kinds = f"{counts['new']} new, {counts['changed']} changed, {counts['removed']} removed"
    print(f"{report['entries']} entries ({report['mode']} run): {kinds}")
    for kind, mark in (("new", "+"), ("changed", "~"), ("removed", "-")):
        if counts[kind] <= _LISTED:
            for link in report[kind]:
                print(f"{mark} {link}")


def _run(args: argparse.Namespace) -> int:
    from wadlclient.mirror import MirrorError, Progress, mirror
    from wadlclient.mirror.core import WalkAll
    from wadlclient.mirror.pool import in_processes
    from wadlclient.mirror.progress import TerminalProgress
    from wadlclient.objects import Collection

    progress: Progress | None = None
    if not args.quiet and sys.stderr.isatty():
        progress = TerminalProgress(sys.stderr, Collection.ITERATION_PAGE_SIZE)
    walk_all: WalkAll | None = None
    if args.engine == "celery":
        from wadlclient.mirror.tasks import on_celery

        walk_all = on_celery()
    elif args.shards > 1:
        walk_all = in_processes(args.shards)
    if args.cache is None:
        # The mirror's own: a run after a kill finds there the pages its walk had fetched ahead.
        args.cache = os.path.join(args.out, CACHE)
    with open_root(args) as root:
        try:
            report = mirror(
                root, args.collection, args.out,
                op=args.op, args=dict(args.arg), format=args.format,
                since_arg=args.since_arg, since_field=args.since_field,
                shards=args.shards, progress=progress,
                walk_all=walk_all, work=args.work, pages_ahead=args.pages_ahead,
            )  # fmt: skip
        except MirrorError as error:
            raise UsageError(str(error)) from None
    document = report.as_json()
    if args.report:
        with open(args.report, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=1)
    if not args.quiet:
        _print_report(document)
    return 0


MIRROR = Command("mirror", "copy a collection to files and keep it fresh", _arguments, _run)
