"""A saved bulk report read back: checked whole, so `BulkReport.retry` works in a later process.

`BulkReport.save` writes JSON meant to be kept, shared and edited; what
comes back may be damaged, edited by hand, or hostile. `load_report`
reads it as the library reads any file it did not make: a regular file
only (a FIFO, a device or a directory is refused without blocking), at
most `MAX_REPORT_BYTES` (never read whole before that is checked), and
every field checked against what `save` writes. Anything else is one
`ReportFileError` naming the file and the cause.

Given the service root and the change, the loaded report of a
``bulk update`` tries its failed entries again (`BulkReport.retry`), each
read afresh from its URL; a ``bulk call``'s items were saved as text, so
only the script can make them again.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Sequence
from typing import Any

from wadlclient.bulk.items import update_one
from wadlclient.bulk.lane import WriteLane, run
from wadlclient.bulk.policy import DEFAULT_POLICY, BulkPolicy
from wadlclient.bulk.report import (
    CALLED,
    CHANGED,
    FAILED,
    PLANNED,
    UNCHANGED,
    BulkReport,
    ItemResult,
)
from wadlclient.errors import RestfulError

__all__ = ["MAX_REPORT_BYTES", "ReportFileError", "SavedError", "load_report"]

#: The largest report file `load_report` reads (about 200,000 items; ``max_bytes`` for more).
MAX_REPORT_BYTES = 64 * 1024 * 1024
_UPDATE, _CALL = "bulk update", "bulk call"
_STATUSES = frozenset({CHANGED, UNCHANGED, FAILED, PLANNED, CALLED})
_PIECE = 1 << 20


class ReportFileError(RestfulError, ValueError):
    """A saved bulk report cannot be read back: missing, not a file, too large, or not a report."""


class SavedError(RestfulError):
    """A failure as a saved report holds it: the error's class name (``saved_kind``) and message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.saved_kind = kind


def _read_capped(path: str, limit: int) -> bytes:
    """The file's bytes: a regular file of at most ``limit`` bytes, opened without blocking."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise ReportFileError(f"cannot read bulk report {path}: {error.strerror}") from None
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise ReportFileError(f"bulk report {path} is not a regular file")
        if found.st_size > limit:
            raise ReportFileError(f"bulk report {path} is larger than {limit} bytes")
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, "rb", buffering=0) as file:
        pieces, total = [], 0
        while total <= limit:
            try:
                piece = file.read(min(_PIECE, limit + 1 - total))
            except OSError as error:  # EAGAIN cannot happen on a regular file; any other is real
                cause = error.strerror or errno.errorcode.get(error.errno or 0, "error")
                raise ReportFileError(f"cannot read bulk report {path}: {cause}") from None
            if not piece:
                break
            pieces.append(piece)
            total += len(piece)
        if total > limit:
            raise ReportFileError(f"bulk report {path} is larger than {limit} bytes (it grew)")
    return b"".join(pieces)


def _parsed(path: str, data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ReportFileError(f"bulk report {path} is not JSON: {error}") from None
    except RecursionError:
        raise ReportFileError(f"bulk report {path} is not a report: nested too deeply") from None


def _need(path: str, ok: bool, what: str) -> None:
    if not ok:
        raise ReportFileError(f"bulk report {path} is not a report saved by wadlclient: {what}")


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _item(path: str, number: int, found: Any) -> ItemResult:
    """One saved item, checked."""
    where = f"item {number}"
    _need(path, isinstance(found, dict), f"{where} is not an object")
    _need(path, _count(found.get("position")), f"{where} has no position")
    _need(path, isinstance(found.get("item"), str), f"{where} has no item")
    _need(path, found.get("status") in _STATUSES, f"{where} has an unknown status")
    _need(path, isinstance(found.get("changes"), dict), f"{where} has no changes")
    _need(path, _count(found.get("writes", 0)), f"{where} has a bad count of writes")
    error: SavedError | None = None
    if found["status"] == FAILED:
        saved = found.get("error")
        _need(path, isinstance(saved, dict), f"{where} failed and says no error")
        kind, message = saved.get("type"), saved.get("message")
        _need(path, isinstance(kind, str) and isinstance(message, str), f"{where}'s error")
        error = SavedError(kind, message)
    return ItemResult(
        found["position"], found["item"], found["status"], found["changes"], error,
        found.get("writes", 0),
    )  # fmt: skip


def load_report(
    path: str | os.PathLike[str],
    *,
    root: Any = None,
    change: Callable[[Any], object] | None = None,
    policy: BulkPolicy = DEFAULT_POLICY,
    max_bytes: int = MAX_REPORT_BYTES,
) -> BulkReport:
    """The report `BulkReport.save` wrote to ``path``, checked; `ReportFileError` if it is not one.

    With ``root`` (the service's root) and ``change`` (the function given
    to `update`), the report of a ``bulk update`` can `BulkReport.retry`:
    its failed entries are read afresh from their URLs and changed again.
    """
    name = os.fspath(path)
    document = _parsed(name, _read_capped(name, max_bytes))
    _need(name, isinstance(document, dict), "not a JSON object")
    operation = document.get("operation")
    _need(name, operation in (_UPDATE, _CALL), "no known operation")
    flags = [document.get(flag, False) for flag in ("dry_run", "interrupted")]
    _need(name, all(isinstance(flag, bool) for flag in flags), "dry_run, interrupted")
    items = document.get("items")
    _need(name, isinstance(items, list), "no list of items")
    results = [_item(name, number, found) for number, found in enumerate(items)]
    failed = [result.item for result in results if result.status == FAILED]
    redo = _redo_for(name, operation, root, change, policy)
    dry_run, interrupted = flags
    return BulkReport(
        operation, results, dry_run=dry_run, retry_items=failed,
        redo=None if dry_run else redo, interrupted=interrupted,
    )  # fmt: skip


def _redo_for(
    path: str, operation: str, root: Any, change: Callable[[Any], object] | None,
    policy: BulkPolicy,
) -> Callable[[Sequence[Any]], BulkReport]:  # fmt: skip
    """How the loaded report tries its failed items again (or says why it cannot)."""

    def cannot(urls: Sequence[Any]) -> BulkReport:
        if operation == _CALL:
            raise ValueError(
                f"the bulk call saved in {path} cannot be tried again from the file: its items "
                f"were saved as text; run bulk.call on them again"
            )
        raise ValueError(
            f"to try the failed entries of {path} again, load it with root= (the service "
            f"root) and change= (the function given to bulk.update)"
        )

    if operation != _UPDATE or root is None or change is None:
        return cannot
    policy = policy.check()

    def again(urls: Sequence[Any]) -> BulkReport:
        def work(index: int, url: Any, lane: WriteLane) -> ItemResult:
            try:
                entry = root.load(url)
            except Exception as error:  # gone, refused: this item fails, the others go on
                return ItemResult(index, str(url), FAILED, {}, error)
            return update_one(index, entry, change, policy, lane, False)

        results, failed, stopped = run(urls, work, policy, progress=False, what=_UPDATE)
        report = BulkReport(_UPDATE, results, retry_items=failed, redo=again,
                            interrupted=stopped is not None)  # fmt: skip
        if stopped is not None:
            stopped.bulk_report = report  # type: ignore[attr-defined]
            raise stopped
        return report

    return again
