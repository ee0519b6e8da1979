"""One item of a bulk change: its change saved (read fresh, re-read on a 412), or its call made.

A save that got no clear answer (a 503 from a gateway, a connection
dropped before the answer) may or may not have acted. It is not simply
sent again: the entry is read afresh first. The same ETag means nothing
changed it, so the save did not act and is sent again; another ETag
with the values sent in place means it did act (its answer was lost);
anything else is someone else's change, handled as a 412 is. A save
carries ``If-Match``, so it can act only on the representation it was
made from: sent twice, it acts at most once. An entry without an ETag
gets no second try: nothing could tell whether the first one acted.

Named operations (`call`) are sent once: nothing tells whether a POST
acted, as the transport's own retry rules say (`wadlclient.Retry`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from wadlclient.bulk.lane import WriteLane
from wadlclient.bulk.policy import BulkPolicy
from wadlclient.bulk.report import CALLED, CHANGED, FAILED, PLANNED, UNCHANGED, ItemResult
from wadlclient.errors import HTTPError, PreconditionFailed, TransportError
from wadlclient.http.retry import is_transient
from wadlclient.objects import Entry, Resource, representation_of, url_of
from wadlclient.objects.entry import changes_of, drop_changes

__all__ = ["call_one", "label_of", "update_one"]


def label_of(item: Any) -> str:
    """How a report names an item: an entry's URL, else its repr (cut short)."""
    return url_of(item) if isinstance(item, Resource) else repr(item)[:200]


class _Tries:
    """What one item has spent: writes sent, 412s met, saves sent again."""

    __slots__ = ("conflicts", "resends", "writes")

    def __init__(self) -> None:
        self.writes = self.conflicts = self.resends = 0


def update_one(
    index: int, entry: Any, change: Callable[[Any], object], policy: BulkPolicy,
    lane: WriteLane, dry_run: bool,
) -> ItemResult:  # fmt: skip
    """Read ``entry`` afresh, apply ``change`` to it, save it: the result, whatever happens."""
    if not isinstance(entry, Entry):
        error = TypeError(f"bulk.update changes entries of a service, not {type(entry).__name__}")
        return ItemResult(index, label_of(entry), FAILED, {}, error)
    tries, sent = _Tries(), {}
    try:
        entry.lp_refresh()
        while True:
            change(entry)
            sent = changes_of(entry)
            if not sent or _holds(entry, sent):
                drop_changes(entry)
                return ItemResult(index, url_of(entry), UNCHANGED, {}, None, tries.writes)
            if dry_run:
                drop_changes(entry)
                return ItemResult(index, url_of(entry), PLANNED, sent)
            if _saved(entry, sent, policy, lane, tries):
                return ItemResult(index, url_of(entry), CHANGED, sent, None, tries.writes)
    except Exception as error:
        return ItemResult(index, url_of(entry), FAILED, sent, error, tries.writes)


def _saved(
    entry: Entry, sent: dict[str, Any], policy: BulkPolicy, lane: WriteLane, tries: _Tries
) -> bool:
    """Save once: True when the entry holds ``sent``; False to apply the change again.

    Raises the error that ends the item (a refusal, or no try left).
    """
    etag = entry.http_etag
    try:
        with lane.slot():
            tries.writes += 1
            entry.lp_save()
        return True
    except PreconditionFailed as error:
        _conflict(tries, policy, error)
        entry.lp_refresh()
        return False
    except (HTTPError, TransportError) as error:
        if etag is None or not _may_resend(error, policy):
            raise
        tries.resends += 1
        if tries.resends > policy.resends:
            raise
        time.sleep(policy.backoff(tries.resends, _retry_after(error)))
        entry.lp_refresh()
        if entry.http_etag == etag:
            return False  # untouched since: the save did not act
        if _holds(entry, sent):
            return True  # it acted; its answer was lost
        _conflict(tries, policy, error)
        return False


def _conflict(tries: _Tries, policy: BulkPolicy, error: Exception) -> None:
    """One more change by someone else met; the error when there were too many."""
    tries.conflicts += 1
    if tries.conflicts > policy.conflicts:
        raise error


def _may_resend(error: Exception, policy: BulkPolicy) -> bool:
    if isinstance(error, HTTPError):
        return error.status in policy.statuses
    return isinstance(error, TransportError) and is_transient(error)


def _retry_after(error: Exception) -> str | None:
    if isinstance(error, HTTPError):
        value = error.headers.get("retry-after")
        return value if isinstance(value, str) else None
    return None


def _holds(entry: Entry, sent: dict[str, Any]) -> bool:
    """Whether the entry's representation has every value ``sent``."""
    held = representation_of(entry)
    return all(key in held and held[key] == value for key, value in sent.items())


def call_one(
    index: int, item: Any, function: Callable[[Any], object], lane: WriteLane, dry_run: bool
) -> ItemResult:
    """``function(item)`` once, in the write lane: the result, whatever happens."""
    label = label_of(item)
    if dry_run:
        return ItemResult(index, label, PLANNED, {})
    try:
        with lane.slot():
            value = function(item)
    except Exception as error:
        return ItemResult(index, label, FAILED, {}, error, 1)
    return ItemResult(index, label, CALLED, {}, None, 1, value)
