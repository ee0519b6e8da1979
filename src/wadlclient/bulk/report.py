"""`BulkReport`: what a bulk change did to every item, to print, save as JSON, or try again.

A script prints it (one summary line, then a line per failure), saves it
(`BulkReport.save`: JSON, written whole or not at all), or sends the
failed items again (`BulkReport.retry`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from wadlclient.redact import redacted

__all__ = [
    "CALLED",
    "CHANGED",
    "FAILED",
    "PLANNED",
    "UNCHANGED",
    "BulkReport",
    "ItemResult",
]

#: The change was saved (the entry holds it now).
CHANGED = "changed"
#: The change asked for nothing the entry did not hold already: nothing was sent.
UNCHANGED = "unchanged"
#: The item could not be changed; ``error`` says why.
FAILED = "failed"
#: A dry run: this change would be sent.
PLANNED = "would change"
#: `wadlclient.bulk.call`: the function ran and returned ``value``.
CALLED = "called"

#: Failures a report's text lists one by one before it says how many more there were.
_LISTED = 50


class ItemResult(NamedTuple):
    """What became of one item of a bulk change."""

    #: Its place in the input (from 0).
    position: int
    #: The entry's URL (or, for `call`, the item's text).
    item: str
    #: `CHANGED`, `UNCHANGED`, `FAILED`, `PLANNED` or `CALLED`.
    status: str
    #: The fields sent (or, in a dry run, that would be), by JSON key, as JSON values.
    changes: Mapping[str, Any]
    #: Why it failed (None unless `FAILED`).
    error: BaseException | None = None
    #: Writes sent for it (a save sent again after a 412 or a 503 counts again).
    writes: int = 0
    #: What the function returned (`call`).
    value: Any = None

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON values (the error as its class name and message)."""
        found: dict[str, Any] = {
            "position": self.position,
            "item": self.item,
            "status": self.status,
            "changes": dict(self.changes),
            "writes": self.writes,
        }
        if self.error is not None:
            message = redacted(str(self.error))
            kind = getattr(self.error, "saved_kind", None) or type(self.error).__name__
            found["error"] = {"type": kind, "message": message}
        return found


class BulkReport:
    """Every item of a bulk change, in input order: `changed`, `unchanged`, `failed`.

    ``str(report)`` says how many of each and names every failure;
    `to_json` and `save` write the whole report; `retry` runs the same
    change again on the failed items only and returns their report.
    """

    __slots__ = ("_redo", "_retry_items", "dry_run", "interrupted", "operation", "results")

    def __init__(
        self,
        operation: str,
        results: Sequence[ItemResult],
        *,
        dry_run: bool = False,
        retry_items: Sequence[Any] = (),
        redo: Callable[[Sequence[Any]], BulkReport] | None = None,
        interrupted: bool = False,
    ) -> None:
        """``retry_items``: the failed items, in order; ``redo`` runs the change on such a list."""
        self.operation = operation
        self.results = tuple(results)
        self.dry_run = dry_run
        self.interrupted = interrupted
        self._retry_items = tuple(retry_items)
        self._redo = redo

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[ItemResult]:
        return iter(self.results)

    def _with(self, status: str) -> list[ItemResult]:
        return [result for result in self.results if result.status == status]

    @property
    def changed(self) -> list[ItemResult]:
        return self._with(CHANGED)

    @property
    def unchanged(self) -> list[ItemResult]:
        return self._with(UNCHANGED)

    @property
    def failed(self) -> list[ItemResult]:
        return self._with(FAILED)

    @property
    def ok(self) -> bool:
        """Whether no item failed and the run was not cut short."""
        return not self.interrupted and not any(r.status == FAILED for r in self.results)

    def counts(self) -> dict[str, int]:
        """Items by status, and ``"writes"``: the writes sent in all."""
        counted = Counter(result.status for result in self.results)
        return {**counted, "writes": sum(result.writes for result in self.results)}

    def __str__(self) -> str:
        counts = self.counts()
        writes = counts.pop("writes")
        parts = ", ".join(f"{number} {status}" for status, number in counts.items()) or "nothing"
        count = len(self.results)
        head = f"{self.operation} of {count} item{'' if count == 1 else 's'}"
        sent = f" ({writes} write{'' if writes == 1 else 's'} sent)"
        head += " (dry run: nothing sent)" if self.dry_run else sent
        lines = [f"{head}: {parts}" + ("; interrupted" if self.interrupted else "")]
        failed = self.failed
        lines += [f"  failed {r.item}: {r.error}" for r in failed[:_LISTED]]
        if len(failed) > _LISTED:
            lines.append(f"  ... and {len(failed) - _LISTED} more failures (report.failed)")
        return redacted("\n".join(lines))

    def __repr__(self) -> str:
        return f"<BulkReport {self.operation}: {self.counts()}>"

    def as_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "dry_run": self.dry_run,
            "interrupted": self.interrupted,
            "counts": self.counts(),
            "items": [result.as_dict() for result in self.results],
        }

    def to_json(self) -> str:
        """The report as indented JSON (``ensure_ascii``: any terminal or file shows it).

        No credential the client holds is in it (`wadlclient.redact.redacted`),
        even one a server sent back: the file is meant to be kept and shared.
        """
        return redacted(json.dumps(self.as_dict(), indent=1, default=repr))

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write `to_json` to ``path`` whole (a file beside it, renamed over it); the path."""
        import tempfile  # only a script that saves a report needs it

        target = os.fspath(path)
        text = self.to_json()
        folder, name = os.path.split(os.path.abspath(target))
        handle, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        return target

    def retry(self) -> BulkReport:
        """The same change again, on the failed items only; their report (empty when none)."""
        if self._redo is None:
            raise ValueError("a dry run's report has nothing to try again")
        return self._redo(self._retry_items)
