"""Bulk changes: many entries changed or operations called, several in flight, each reported.

::

    from wadlclient import bulk

    def close(task):
        task.status = "Fix Released"

    report = bulk.update(project.searchTasks(status="Fix Committed"), close)
    print(report)                       # how many changed, unchanged, failed; every failure named
    report.save("closed.json")          # every item, as JSON
    if not report.ok:
        print(report.retry())           # the failed ones again

`update` reads each entry afresh, applies ``change`` to it (a function
that sets fields, as a loop body before ``lp_save()`` would) and saves
what changed; a 412 (someone changed the entry since) reads it again and
applies the change again, a few times at most. `call` runs a function
(a named operation, or several) on each item once. Both keep
`BulkPolicy.reads` items under way and send their writes through a
narrower lane (`BulkPolicy.writes`, 4, at least `BulkPolicy.min_interval`
apart), and return a `BulkReport`. ``dry_run=True`` sends no write;
``progress=True`` shows a bar on stderr (the ``progress`` extra).

The entries may come from a walk of a search that the changes move:
the walk hands out each entry once all the same (docs/bulk-changes.md).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from wadlclient.bulk.items import call_one, update_one
from wadlclient.bulk.lane import WriteLane, run
from wadlclient.bulk.policy import DEFAULT_POLICY, RESEND_STATUSES, BulkPolicy
from wadlclient.bulk.report import (
    CALLED,
    CHANGED,
    FAILED,
    PLANNED,
    UNCHANGED,
    BulkReport,
    ItemResult,
)
from wadlclient.bulk.saved import MAX_REPORT_BYTES, ReportFileError, SavedError, load_report
from wadlclient.objects import Resource

__all__ = [
    "CALLED",
    "CHANGED",
    "DEFAULT_POLICY",
    "FAILED",
    "MAX_REPORT_BYTES",
    "PLANNED",
    "RESEND_STATUSES",
    "UNCHANGED",
    "BulkPolicy",
    "BulkReport",
    "ItemResult",
    "ReportFileError",
    "SavedError",
    "WriteLane",
    "call",
    "load_report",
    "update",
]

_T = TypeVar("_T")


def update(
    entries: Iterable[_T],
    change: Callable[[_T], object],
    *,
    policy: BulkPolicy = DEFAULT_POLICY,
    dry_run: bool = False,
    progress: bool = False,
) -> BulkReport:
    """Apply ``change`` to a fresh read of each entry and save it; a report of every entry.

    ``change(entry)`` sets the fields to change (``entry.status = ...``)
    and does not save; setting nothing, or only values the entry holds
    already, leaves the entry unchanged (nothing sent). It may run more
    than once for an entry (after a 412, on the entry read again), so it
    should decide from what it reads. An error it raises fails that entry
    only. Entries are worked on in threads: leave them alone meanwhile.

    Ctrl-C, or an error of ``entries`` (a walk's), stops the run once the
    entries under way are done, and is raised with the report so far as
    its ``bulk_report`` attribute.
    """
    policy = policy.check()
    entries = _of_this_library(entries)

    def work(index: int, entry: Any, lane: WriteLane) -> ItemResult:
        return update_one(index, entry, change, policy, lane, dry_run)

    def redo(failed: Sequence[Any]) -> BulkReport:
        return update(failed, change, policy=policy, progress=progress)

    return _report("bulk update", entries, work, policy, progress, dry_run, redo)


def call(
    items: Iterable[_T],
    function: Callable[[_T], object],
    *,
    policy: BulkPolicy = DEFAULT_POLICY,
    dry_run: bool = False,
    progress: bool = False,
) -> BulkReport:
    """Run ``function(item)`` once per item (named operations, say), ``policy.writes`` at a time.

    The result of each call is the item's ``value`` in the report. A call
    that failed is not made again by itself: a POST may have acted even
    when its answer was an error, so only the script can tell whether to
    send it again (``report.retry()`` runs the failed ones). ``dry_run``
    runs nothing and lists the items.
    """
    policy = policy.check()

    def work(index: int, item: Any, lane: WriteLane) -> ItemResult:
        return call_one(index, item, function, lane, dry_run)

    def redo(failed: Sequence[Any]) -> BulkReport:
        return call(failed, function, policy=policy, progress=progress)

    return _report("bulk call", items, work, policy, progress, dry_run, redo)


#: The top-level packages of stock lazr.restfulclient and launchpadlib objects.
_STOCK_PACKAGES = ("lazr", "launchpadlib")


def _stock(thing: object) -> bool:
    """Whether ``thing`` is stock lazr.restfulclient's or launchpadlib's (not the layer's)."""
    return not isinstance(thing, Resource) and type(thing).__module__.startswith(_STOCK_PACKAGES)


def _refuse_stock(thing: object) -> None:
    if _stock(thing):
        raise TypeError(
            f"bulk.update changes entries of wadlclient, and this {type(thing).__name__} is "
            f"stock launchpadlib's (lazr.restfulclient): run the script on wadlclient's "
            f"launchpadlib layer, `python -m wadlclient.lazr_compat script.py` "
            f"(docs/lazr-compat.md), and the same objects work"
        )


def _of_this_library(entries: Iterable[_T]) -> Iterable[_T]:
    """``entries`` as they were, unless they are stock launchpadlib's: one TypeError, up front.

    A stock collection is refused before it sends anything; otherwise the
    first entry is looked at (and handed on with the rest).
    """
    _refuse_stock(entries)
    if isinstance(entries, Resource):
        return entries
    if isinstance(entries, Collection):  # a list, a set: read again, and its length kept
        for first in entries:
            _refuse_stock(first)
            break
        return entries
    iterator = iter(entries)
    try:
        first = next(iterator)
    except StopIteration:
        return ()
    except Exception as error:  # a walk's error: raised by the run, with its report
        return _raising(error)
    _refuse_stock(first)
    return itertools.chain((first,), iterator)


def _raising(error: Exception) -> Iterator[Any]:
    raise error
    yield


def _report(
    operation: str, items: Iterable[Any], work: Callable[[int, Any, WriteLane], ItemResult],
    policy: BulkPolicy, progress: bool, dry_run: bool,
    redo: Callable[[Sequence[Any]], BulkReport],
) -> BulkReport:  # fmt: skip
    results, failed, stopped = run(items, work, policy, progress=progress, what=operation)
    report = BulkReport(
        operation, results, dry_run=dry_run, retry_items=failed,
        redo=None if dry_run else redo, interrupted=stopped is not None,
    )  # fmt: skip
    if stopped is not None:
        with contextlib.suppress(AttributeError):
            stopped.bulk_report = report  # type: ignore[attr-defined]
        raise stopped
    return report
