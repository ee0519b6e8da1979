"""Walking one shard into numbered part files, each committed with the token after it.

A shard's progress (``DIR/.parts/shard-<i>.json``) names its committed
parts and the walk token after the last entry they hold; a part is fsynced
before the progress naming it. Started again, the shard removes the parts
its progress does not name (a crash between the two writes) and resumes
from the token: nothing is lost, and an entry written twice (an interrupt
between an entry and its token) is dropped by ``self_link`` when the parts
are merged. Runs in the caller's process or in a pool's worker.

The per-entry work (``work``, ``"package.module:function"``: a call to
another system for each entry copied) runs before the entry's row joins
its part: an entry is worked at least once, and again when a run cut
short between its work and the next commit goes on.
"""

from __future__ import annotations

import base64
import json
import pickle
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wadlclient.fleet.work import resolve_work
from wadlclient.mirror.files import TEMP_SUFFIX, Row, read_jsonl, write_atomic, write_jsonl
from wadlclient.objects import Entry, representation_of

__all__ = ["PARTS", "ShardProgress", "dump_walkable", "read_parts", "walk_shard"]

PARTS = ".parts"


@dataclass
class ShardProgress:
    """Where shard ``index`` is: its committed parts, the token after them, and whether done."""

    token: str | None = None
    parts: list[str] = field(default_factory=list)
    entries: int = 0
    done: bool = False
    fields: list[str] = field(default_factory=list)

    @staticmethod
    def path(directory: Path, index: int) -> Path:
        return directory / PARTS / f"shard-{index:03d}.json"

    @classmethod
    def load(cls, directory: Path, index: int) -> ShardProgress:
        try:
            text = cls.path(directory, index).read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        return cls(**json.loads(text))

    def save(self, directory: Path, index: int) -> None:
        write_atomic(self.path(directory, index), [json.dumps(asdict(self)) + "\n"])


def dump_walkable(walkable: object) -> str:
    """A shard or collection as text for the state file (its recipe and bounds: no secret)."""
    return base64.b64encode(pickle.dumps(walkable)).decode("ascii")


def _load_walkable(text: str) -> Any:
    # The state file is the mirror's own, in the user's directory: trusted as that directory is.
    return pickle.loads(base64.b64decode(text))


def _fields_of(entry: Entry) -> list[str]:
    """The entry type's fields as JSON keys, in the WADL's order."""
    names = list(entry.lp_attributes)
    names += [f"{name}_link" for name in entry.lp_entries]
    names += [f"{name}_collection_link" for name in entry.lp_collections]
    return names


def _remove_orphans(directory: Path, index: int, kept: list[str]) -> None:
    """Shard ``index``'s own leftovers: parts its progress does not name, its unfinished writes.

    Only its own: the other shards run beside it, each writing its parts and
    progress through temporary files that must not vanish under them.
    """
    prefix = f"{index:03d}-"
    progress_temp = ShardProgress.path(directory, index).name + TEMP_SUFFIX
    for path in (directory / PARTS).iterdir():
        name = path.name
        if (name.startswith(prefix) and name not in kept) or name == progress_temp:
            path.unlink(missing_ok=True)


def walk_shard(
    directory: str,
    index: int,
    walkable: str,
    batch: int,
    on_entries: Callable[[int], None] | None = None,
    work: str | None = None,
    pages_ahead: int | None = None,
) -> int:
    """Walk shard ``index`` (pickled ``walkable``) on from its progress; its entries in all runs.

    ``work``: the function called with each entry before it is written, by import path;
    ``pages_ahead``: the pages the walk requests ahead (None: the collection's default).
    """
    out = Path(directory)
    (out / PARTS).mkdir(exist_ok=True)
    progress = ShardProgress.load(out, index)
    _remove_orphans(out, index, progress.parts)
    if progress.done:
        return progress.entries
    each = None if work is None else resolve_work(work)
    walk = _load_walkable(walkable).walk(resume=progress.token, pages_ahead=pages_ahead)
    rows: list[Row] = []
    token = progress.token

    def commit() -> None:
        if rows:
            name = f"{index:03d}-{len(progress.parts) + 1:06d}.jsonl"
            write_jsonl(out / PARTS / name, rows)
            progress.parts.append(name)
            progress.entries += len(rows)
        progress.token = token
        progress.save(out, index)
        if on_entries is not None and rows:
            on_entries(len(rows))
        rows.clear()

    # A token is worked out when it is committed: per entry it cost a walk of 20,000 a
    # quarter of its CPU. With work, after each entry too: an entry whose work fails is
    # not committed, and the token must stop just before it. A walk started afresh commits
    # after its first entry: its token names the walk whose pages the cache keeps, so a
    # run killed before the first batch's end resumes from them too.
    fresh = progress.token is None
    handed = False
    try:
        for entry in walk:
            handed = True
            if not progress.fields:
                progress.fields = _fields_of(entry)
            row = representation_of(entry)
            if each is not None:
                each(entry)
            rows.append(row)
            handed = False
            if each is not None or len(rows) >= batch or fresh:
                token = walk.token
            if len(rows) >= batch or fresh:
                commit()
                fresh = False
    except BaseException:
        # Ctrl-C or a failed request: what was handed out is kept, the next run goes on after
        # it. Cut short between an entry handed out and its row, the token stays at the last
        # one worked out: the rows after it are walked again, and written once (by self_link).
        if not handed:
            token = walk.token
        commit()
        raise
    progress.done = True
    token = walk.token
    commit()
    return progress.entries


def read_parts(directory: Path, count: int) -> tuple[dict[str, Row], list[str]]:
    """The committed parts' rows of ``count`` shards by ``self_link`` (in order), and fields."""
    rows: dict[str, Row] = {}
    fields: list[str] = []
    for index in range(count):
        progress = ShardProgress.load(directory, index)
        fields = fields or progress.fields
        for name in progress.parts:
            for row in read_jsonl(directory / PARTS / name):
                rows[str(row.get("self_link"))] = row
    return rows, fields
