"""`mirror`: a collection (or a named operation's result) copied to DIR, and kept fresh.

A run walks its source into part files (`wadlclient.mirror.parts`), then
finishes: it merges the parts with the previous snapshot, writes the
report and the next snapshot, then puts the snapshot (and the CSV) in
place, each write atomic and each step recorded in the state file after the
data it names, so a run started again after any crash ends as the first
would have. A ``since`` run (``since_arg`` given and a snapshot present)
asks the service only for the entries changed since the newest
``since_field`` of the snapshot (else the last run's start), and counts the
source to notice removals: only when the count is off does it list the pages.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urljoin

from wadlclient.fleet.work import FleetError, resolve_work
from wadlclient.mirror.files import Row, read_jsonl, write_csv, write_jsonl
from wadlclient.mirror.parts import PARTS, dump_walkable, read_parts, walk_shard
from wadlclient.mirror.state import MirrorError, Run, Source, State
from wadlclient.objects import Collection, ServiceRoot, representation_of
from wadlclient.objects.walks import checked_ahead

__all__ = ["FORMATS", "Progress", "Report", "mirror", "mirror_changes", "open_source"]

FORMATS = ("jsonl", "csv")
_NEXT = ".snapshot.next"


class Progress(Protocol):
    """What a run tells a display: the total when known, entries as they are committed."""

    def start(self, total: int | None) -> None: ...

    def advance(self, entries: int) -> None: ...

    def finish(self) -> None: ...


@dataclass
class Report:
    """What a run found: rows new, changed (another ``http_etag``) and removed, and the total."""

    mode: str
    entries: int
    new: list[Row] = field(default_factory=list)
    changed: list[Row] = field(default_factory=list)
    removed: list[Row] = field(default_factory=list)

    def changes(self) -> Iterator[tuple[str, Row]]:
        """``("new" | "changed" | "removed", row)`` for each change (removed: the last row seen)."""
        for kind in ("new", "changed", "removed"):
            for row in getattr(self, kind):
                yield kind, row

    def as_json(self) -> dict[str, Any]:
        """The report as ``--report`` saves it: counts and each kind's links."""
        links = {kind: [row.get("self_link") for row in getattr(self, kind)] for kind in
                 ("new", "changed", "removed")}  # fmt: skip
        counts = {kind: len(items) for kind, items in links.items()}
        return {"mode": self.mode, "entries": self.entries, "counts": counts, **links}


def output_path(directory: Path, format: str) -> Path:
    """The output file: ``entries.jsonl`` or ``entries.csv``."""
    return directory / f"entries.{format}"


def _snapshot_path(directory: Path, format: str) -> Path:
    """The JSON Lines file the next run compares with (the output itself for ``jsonl``)."""
    return output_path(directory, "jsonl") if format == "jsonl" else directory / ".snapshot.jsonl"


def open_source(root: ServiceRoot, source: Source, since: str | None = None) -> Collection[Any]:
    """The collection ``source`` names, its operation called (with ``since`` if given)."""
    path = source.collection
    head, _, rest = path.strip("/").partition("/")
    resource: Any
    if "://" not in path and not rest and head in root.lp_collections:
        # A top-level collection by name: typed from the root, so its operations are known.
        url, resource = urljoin(root.service_root, head), getattr(root, head)
    else:
        if "://" in path:
            url = path
        elif head in root.lp_entries:
            url = str(getattr(root, head).self_link).rstrip("/") + ("/" + rest if rest else "")
        else:
            url = urljoin(root.service_root, path.lstrip("/"))
        resource = root.load(url)
    if source.op is not None:
        arguments: dict[str, Any] = dict(source.args)
        if since is not None and source.since_arg is not None:
            arguments[source.since_arg] = since
        try:
            operation = getattr(resource, source.op)
        except AttributeError:
            raise MirrorError(f"{url} has no named operation {source.op!r}") from None
        resource = operation(**arguments)
    if not isinstance(resource, Collection):
        raise MirrorError(f"{url}{' ' + source.op if source.op else ''} is not a collection")
    return resource


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _when(text: str) -> datetime:
    """An ISO 8601 date-time; one without an offset is taken as UTC (as lazr.restful sends)."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def _since_value(state: State, snapshot: Path) -> str | None:
    """The newest ``since_field`` in the snapshot (the service's clock), else the last start.

    The earlier of the two when both are known: an entry changed during the
    last run, after its page was read, is older than entries changed later
    on pages read later, but not older than the run's start.
    """
    name, started = state.source.since_field, state.last_started
    if name is None:
        return started
    try:
        values = [_when(str(row[name])) for row in read_jsonl(snapshot) if row.get(name)]
    except ValueError as error:
        raise MirrorError(
            f"{snapshot}: {name} holds a value that is not a date ({error})"
        ) from None
    if not values:
        return started
    newest = max(values)
    if started is not None and _when(started) < newest:
        return started
    return newest.isoformat()


def _plan(root: ServiceRoot, directory: Path, state: State, shards: int) -> Run:
    snapshot = _snapshot_path(directory, state.format)
    since = None
    if state.source.since_arg is not None and snapshot.exists() and state.last_started:
        since = _since_value(state, snapshot)
    collection = open_source(root, state.source, since)
    walkables: list[object] = [collection]
    if since is None and shards > 1:
        walkables = list(collection.shards(shards))
    shutil.rmtree(directory / PARTS, ignore_errors=True)
    return Run(
        mode="full" if since is None else "since",
        started=_now(),
        since=since,
        walkables=[dump_walkable(walkable) for walkable in walkables],
    )


def _removed_since(
    root: ServiceRoot, state: State, old: Mapping[str, Row], delta: dict[str, Row]
) -> list[str]:
    """Links gone from the source: none if its count adds up, else those its pages lack.

    A listing finds entries the filter missed too (they join ``delta`` as new).
    """
    whole = open_source(root, state.source)
    expected = len(old) + sum(1 for link in delta if link not in old)
    if len(whole) == expected:
        return []
    listed = {str(entry.self_link): entry for entry in whole}
    for link, entry in listed.items():
        if link not in old and link not in delta:
            delta[link] = representation_of(entry)
    return [link for link in old if link not in listed]


def _settle(root: ServiceRoot, directory: Path, state: State, run: Run) -> None:
    """Merge the parts with the snapshot into the next snapshot and the report (phase 1)."""
    snapshot = _snapshot_path(directory, state.format)
    old = {str(row.get("self_link")): row for row in read_jsonl(snapshot)}
    delta, fields = read_parts(directory, len(run.walkables))
    state.fields = fields or state.fields
    if run.mode == "full":
        current = delta
        removed = [link for link in old if link not in current]
    else:
        removed = _removed_since(root, state, old, delta)
        current = dict(old)
        current.update(delta)
        for link in removed:
            current.pop(link, None)
    new = [link for link in delta if link not in old]
    changed = [
        link for link in delta
        if link in old and old[link].get("http_etag") != delta[link].get("http_etag")
    ]  # fmt: skip
    write_jsonl(directory / _NEXT, current.values())
    run.report = {"new": new, "changed": changed, "removed": [old[link] for link in removed]}
    run.phase = "finishing"
    state.save(directory)


def _finish(directory: Path, state: State, run: Run) -> Report:
    """Put the next snapshot and the output in place, then forget the run (phase 2)."""
    snapshot = _snapshot_path(directory, state.format)
    if (directory / _NEXT).exists():
        os.replace(directory / _NEXT, snapshot)
    rows = {str(row.get("self_link")): row for row in read_jsonl(snapshot)}
    if state.format == "csv":
        write_csv(output_path(directory, "csv"), state.fields, list(rows.values()))
    assert run.report is not None
    report = Report(
        run.mode,
        len(rows),
        new=[rows[link] for link in run.report["new"] if link in rows],
        changed=[rows[link] for link in run.report["changed"] if link in rows],
        removed=list(run.report["removed"]),
    )
    state.count, state.last_started, state.run = len(rows), run.started, None
    state.save(directory)
    shutil.rmtree(directory / PARTS, ignore_errors=True)
    return report


WalkAll = Callable[[Path, Run, "Progress | None"], None]


def _walk_here(directory: Path, run: Run, progress: Progress | None) -> None:
    advance = None if progress is None else progress.advance
    for index, walkable in enumerate(run.walkables):
        walk_shard(
            str(directory), index, walkable, Collection.ITERATION_PAGE_SIZE, advance, run.work,
            run.pages_ahead,
        )  # fmt: skip


def mirror(
    root: ServiceRoot,
    collection: str,
    out: str | os.PathLike[str],
    *,
    op: str | None = None,
    args: Mapping[str, str] | None = None,
    format: str = "jsonl",
    since_arg: str | None = None,
    since_field: str | None = None,
    shards: int = 1,
    progress: Progress | None = None,
    walk_all: WalkAll | None = None,
    work: str | None = None,
    pages_ahead: int | None = None,
) -> Report:
    """Copy ``collection`` (a name, path or URL of ``root``'s service) to ``out``; the changes.

    ``op``/``args``: a named operation of it whose result is copied instead.
    ``since_arg``: the operation's argument that filters by modification
    (``modified_since``); ``since_field``: the entries' field it filters on.
    ``work``: a function called with each entry copied, as ``"package.module:function"``
    (a call to another system; imported by each shard's worker): at least once per entry.
    ``pages_ahead``: the pages each walk requests ahead (`Collection.PREFETCH_DEPTH` if
    None): a kill costs at most that many pages read again (docs/mirror.md).
    Runs again after a crash go on from the last commit; see the module's doc.
    """
    if format not in FORMATS:
        raise MirrorError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if since_arg is not None and op is None:
        raise MirrorError("since_arg names an argument of a named operation: give op too")
    if shards < 1:
        raise MirrorError(f"shards must be at least 1, not {shards}")
    try:
        checked_ahead(pages_ahead)
    except ValueError as error:
        raise MirrorError(str(error)) from None
    if work is not None:
        try:
            resolve_work(work)
        except FleetError as error:
            raise MirrorError(str(error)) from None
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    source = Source(collection, op, dict(args or {}), since_arg, since_field)
    state = State.load(directory)
    if state is None:
        state = State(source, format)
    elif state.source != source or state.format != format:
        raise MirrorError(
            f"{directory} holds a mirror of {state.source.collection!r} "
            f"(op {state.source.op}, {state.format}); give another directory"
        )
    if state.run is None:
        state.run = _plan(root, directory, state, shards)
        state.save(directory)
    run = state.run
    run.work, run.pages_ahead = work, pages_ahead
    if run.phase == "walking":
        if progress is not None:
            progress.start(None if run.mode == "since" else _total(root, source))
        (walk_all or _walk_here)(directory, run, progress)
        _settle(root, directory, state, run)
        if progress is not None:
            progress.finish()
    return _finish(directory, state, run)


def _total(root: ServiceRoot, source: Source) -> int | None:
    try:
        return len(open_source(root, source))
    except (TypeError, ValueError):
        return None


def mirror_changes(
    root: ServiceRoot, collection: str, out: str | os.PathLike[str], **options: Any
) -> Iterator[tuple[str, Row]]:
    """Run `mirror` and yield its changes: ``for kind, row in mirror_changes(...)``."""
    yield from mirror(root, collection, out, **options).changes()
