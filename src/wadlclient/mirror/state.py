"""The state file of a mirror (``DIR/.mirror-state.json``): what it copies and where a run is.

The state is written after the data it describes (a part file is fsynced
before the state naming it and its walk token): after a crash, a part the
state does not name is an orphan and is removed, so every entry a committed
part holds is in the output exactly once and the walk goes on after it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wadlclient.errors import RestfulError
from wadlclient.mirror.files import write_atomic

__all__ = ["FORMAT_VERSION", "STATE_NAME", "MirrorError", "Run", "Source", "State"]

STATE_NAME = ".mirror-state.json"
FORMAT_VERSION = 1


class MirrorError(RestfulError, ValueError):
    """A mirror that cannot go on (another mirror's directory, a damaged state); says why."""


@dataclass(frozen=True)
class Source:
    """What is mirrored: a collection (name, path or URL), or a named operation's result."""

    collection: str
    op: str | None = None
    args: dict[str, str] = field(default_factory=dict)
    since_arg: str | None = None
    since_field: str | None = None


@dataclass
class Run:
    """A run under way: ``full`` (every entry) or ``since`` (the entries changed since ``since``).

    ``walkables`` are the pickled shards (one: the collection); each keeps
    its own progress (`wadlclient.mirror.parts`). ``phase`` becomes
    ``finishing`` once ``report`` (links by kind) and the next snapshot are written.
    ``work``: the per-entry work of this run's walk (`wadlclient.mirror.parts`), if any;
    ``pages_ahead``: the pages its walks request ahead (None: `Collection.PREFETCH_DEPTH`).
    """

    mode: str
    started: str
    since: str | None = None
    walkables: list[str] = field(default_factory=list)
    phase: str = "walking"
    report: dict[str, list[Any]] | None = None
    work: str | None = None
    pages_ahead: int | None = None


@dataclass
class State:
    """The whole state file."""

    source: Source
    format: str
    fields: list[str] = field(default_factory=list)
    last_started: str | None = None
    count: int = 0
    run: Run | None = None

    def save(self, directory: Path) -> None:
        document = {"version": FORMAT_VERSION, **asdict(self)}
        write_atomic(directory / STATE_NAME, [json.dumps(document, indent=1) + "\n"])

    @classmethod
    def load(cls, directory: Path) -> State | None:
        path = directory / STATE_NAME
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise MirrorError(f"{path}: cannot read the mirror's state ({error})") from None
        if not isinstance(document, dict) or document.get("version") != FORMAT_VERSION:
            raise MirrorError(f"{path}: not a state file of this version of wadlclient's mirror")
        try:
            run = document.get("run")
            return cls(
                source=Source(**document["source"]),
                format=str(document["format"]),
                fields=list(document.get("fields", [])),
                last_started=document.get("last_started"),
                count=int(document.get("count", 0)),
                run=None if run is None else Run(**run),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise MirrorError(f"{path}: a damaged state file ({error})") from None
