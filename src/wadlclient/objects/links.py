"""Links of many entries fetched together: the N+1 loop's round trips, sent at once.

``[r.dish.name for r in recipes]`` sends one request per recipe, one after
another: at 100 ms from the server, a hundred recipes cost ten seconds.
`prefetch` takes the entries and the links about to be read ("dish", or
"bug.owner" for a link of a link), sends each distinct URL once,
concurrently (at most ``workers`` in flight, on the transport's keep-alive
pool), and attaches each representation to every entry that links to it:
reading ``recipe.dish.name`` afterwards sends nothing. The transport's
cache rules hold as for any read (a cached representation is revalidated,
never used stale), and a reader asking for a URL while it is being
prefetched shares that request (`wadlclient.http.flights`).

A link whose fetch failed is not attached: reading it fetches it again
and raises that entry's own error, naming its URL.

`LookAhead` is the fixed look-ahead, asked for by number
(``ServiceRoot(look_ahead=N)`` or ``WADLCLIENT_LOOK_AHEAD=N``): entries
handed out together (a page of a walk, a slice) share one, and when a link
of one of them is read, the same link of it and of the next ``N - 1`` is
fetched together, all at once (at most ``LOOK_AHEAD_WORKERS`` at a time,
within the pool's ``max_in_flight``). As one `prefetch` call sends each URL
once, one walk or slice fetches each linked URL once (`WalkMemory`): an
entry many others link to (a bug's owner) is fetched the first time it is
met, not once per run. The default is the adaptive look-ahead
(`wadlclient.objects.lookahead`); ``look_ahead=0`` turns both off.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar, cast

from wadlclient.objects.resource import (
    Resource,
    attach,
    attached_link,
    fetch_now,
    session_of,
    unread_link,
    url_of,
)
from wadlclient.schema import Field

__all__ = [
    "ADAPTIVE",
    "LOOK_AHEAD_VARIABLE",
    "LOOK_AHEAD_WORKERS",
    "MAX_WORKERS",
    "WALK_MEMORY",
    "EntryList",
    "LookAhead",
    "WalkMemory",
    "fetched_quietly",
    "group",
    "grouped",
    "look_ahead_from_env",
    "prefetch",
]

#: Requests one prefetch keeps in flight at most.
MAX_WORKERS = 8
#: Requests the automatic mode keeps in flight at most, however far it looks ahead.
LOOK_AHEAD_WORKERS = 32
#: Link targets one walk remembers in the automatic mode, at most (`WalkMemory`).
WALK_MEMORY = 1024
#: The environment variable that chooses the look-ahead (0: off; N: fixed; unset or auto: adaptive).
LOOK_AHEAD_VARIABLE = "WADLCLIENT_LOOK_AHEAD"
#: A session's ``look_ahead`` for the adaptive look-ahead, the default.
ADAPTIVE = -1

#: An entry: a `Resource`, or what typed access calls it (a protocol `Entry` satisfies).
_E = TypeVar("_E")


def look_ahead_from_env() -> int:
    """``WADLCLIENT_LOOK_AHEAD`` as a number of entries (`ADAPTIVE` when unset or ``auto``)."""
    value = os.environ.get(LOOK_AHEAD_VARIABLE, "").strip()
    if not value or value.lower() == "auto":
        return ADAPTIVE
    if not (value.isascii() and value.isdigit()):
        raise ValueError(
            f"{LOOK_AHEAD_VARIABLE} must be a whole number of entries or auto, not {value!r}"
        )
    return int(value)


def prefetch(entries: Iterable[_E], *paths: str, workers: int = MAX_WORKERS) -> list[_E]:
    """Fetch the links ``paths`` name of every entry together; returns the entries as a list.

    A path is a link's name (``"dish"``) or names joined by dots
    (``"bug.owner"``: each entry's bug, then each bug's owner). Each
    distinct URL is sent once per call, at most ``workers`` at a time.
    """
    if workers < 1:
        raise ValueError("workers must be 1 or more")
    held = list(entries)
    for entry in held:
        if not isinstance(entry, Resource):
            raise TypeError(f"prefetch takes entries of a service, not {type(entry).__name__}")
    for path in paths:
        names = path.split(".")
        if not all(names):
            raise ValueError(f"not a link path: {path!r}")
        level: Sequence[Resource] = cast("list[Resource]", held)
        for name in names:
            level = _fetch_links(level, name, workers)
    return held


def _fetch_links(entries: Sequence[Resource], name: str, workers: int) -> list[Resource]:
    """Fetch link ``name`` of ``entries`` (distinct URLs once), attach; the targets, distinct.

    Targets attached before (an earlier path fetched them) are not fetched
    again but are among the targets, so that a longer path goes on from them.
    """
    wanted: dict[str, list[tuple[Resource, Field]]] = {}
    held: dict[str, Resource] = {}
    for entry in entries:
        found = unread_link(entry, name)
        if found is not None:
            url, descriptor = found
            wanted.setdefault(url, []).append((entry, descriptor))
            continue
        target = attached_link(entry, name)
        if target is not None:
            held.setdefault(url_of(target), target)
    targets = [_target_for(*linkers[0], url) for url, linkers in wanted.items()]
    arrived = _fetch_all(targets, workers) if targets else []
    for target, ok, linkers in zip(targets, arrived, wanted.values(), strict=True):
        if ok:
            for entry, descriptor in linkers:
                attach(entry, descriptor.key, target)
    fetched = [target for target, ok in zip(targets, arrived, strict=True) if ok]
    return [target for url, target in held.items() if url not in wanted] + fetched


def _target_for(entry: Resource, descriptor: Field, url: str) -> Resource:
    target: Resource = session_of(entry).entry(url, descriptor.link_type)
    return target


def _fetch_all(targets: list[Resource], workers: int) -> list[bool]:
    """GET every target (concurrently when more than one); whether each arrived."""
    if len(targets) == 1:
        return [fetched_quietly(targets[0])]
    # Imported here: a process that never fetches links together (most launchpadlib
    # scripts) does not pay for concurrent.futures and queue at start-up.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(workers, len(targets)), "wadlclient-links") as pool:
        return list(pool.map(fetched_quietly, targets))


def fetched_quietly(target: Resource) -> bool:
    """Fetch one target; a failure is left for the reader to meet (and see named)."""
    try:
        fetch_now(target)
    except Exception:
        return False
    return True


class WalkMemory:
    """The link targets one walk (or slice) has fetched in the automatic mode, by URL.

    It makes a walk send each linked URL once, as one `prefetch` call does:
    the owner shared by a hundred bugs is fetched with the first run of
    bugs that links to it, then attached to the others as they are met.
    Bounded: beyond ``size`` targets the least recently met is forgotten
    (and fetched again, revalidated, if met again). Runs of a walk may be
    read from several threads, hence the lock.
    """

    __slots__ = ("_lock", "_size", "_targets")

    def __init__(self, size: int = WALK_MEMORY) -> None:
        self._size = size
        self._targets: OrderedDict[str, Resource] = OrderedDict()
        self._lock = threading.Lock()

    def attach_known(self, entries: Iterable[Resource], name: str) -> None:
        """Attach to each of ``entries`` the target of its link ``name``, if fetched before."""
        unread = [(entry, found) for entry in entries if (found := unread_link(entry, name))]
        with self._lock:
            for entry, (url, descriptor) in unread:
                target = self._targets.get(url)
                if target is not None:
                    self._targets.move_to_end(url)
                    attach(entry, descriptor.key, target)

    def get(self, url: str) -> Resource | None:
        """The target fetched for ``url``, if remembered (then it is the most recently met)."""
        with self._lock:
            target = self._targets.get(url)
            if target is not None:
                self._targets.move_to_end(url)
            return target

    def keep(self, target: Resource) -> None:
        """Remember ``target``, fetched, for the rest of the walk."""
        with self._lock:
            self._targets[url_of(target)] = target
            self._targets.move_to_end(url_of(target))
            while len(self._targets) > self._size:
                self._targets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._targets)


class LookAhead:
    """Entries handed out together, for the automatic mode: a link read is read for the next too.

    When a link of entry ``i`` is read and not held, the same link of
    entries ``i`` to ``i + size - 1`` is fetched together (`prefetch`),
    but for the targets the walk's `WalkMemory` holds already.
    A walk groups its entries in runs of ``size``; a slice is one group.
    """

    __slots__ = ("_entries", "_index", "_memory", "size")

    def __init__(self, size: int, memory: WalkMemory | None = None) -> None:
        self.size = size
        self._memory = memory if memory is not None else WalkMemory()
        self._entries: list[Resource] = []
        self._index: dict[int, int] = {}

    def add(self, entry: _E) -> _E:
        """Make ``entry`` one of the group (returned, for use in expressions)."""
        resource = cast(Resource, entry)
        self._index[id(resource)] = len(self._entries)
        self._entries.append(resource)
        object.__setattr__(resource, "_group", self)
        return entry

    def read(
        self, entry: Resource, descriptor: Field, url: str, target: Resource | None
    ) -> Resource | None:
        """Link ``descriptor`` of ``entry`` is read: the target, fetched with the next if not held.

        The entries so fetched form a group of their own, sharing the walk's
        memory, so that reading a link of theirs in turn (``task.bug.owner``)
        looks ahead too.
        """
        if target is None:
            self._fetch_ahead(entry, descriptor.name)
            target = attached_link(entry, descriptor.name)
        return target

    def _fetch_ahead(self, entry: Resource, name: str) -> None:
        """Fetch link ``name`` of ``entry`` and of the ``size - 1`` entries after it together."""
        at = self._index.get(id(entry))
        if at is None:
            return
        window = self._entries[at : at + self.size]
        self._memory.attach_known(window, name)
        prefetch(window, name, workers=min(self.size, LOOK_AHEAD_WORKERS))
        ahead = LookAhead(self.size, self._memory)
        for linker in window:
            target = attached_link(linker, name)
            if target is None:
                continue
            self._memory.keep(target)
            if target._group is None:
                ahead.add(target)

    def __len__(self) -> int:
        return len(self._entries)


def group(entries: Iterable[_E], size: int, memory: WalkMemory | None = None) -> EntryList[_E]:
    """``entries`` as an `EntryList`, sharing one `LookAhead` of ``size`` when it is over 1."""
    if size <= 1:
        return EntryList(entries)
    ahead = LookAhead(size, memory)
    return EntryList(ahead.add(entry) for entry in entries)


class EntryList(list[_E]):
    """A list of entries (a slice of a collection) whose links can be fetched together."""

    def prefetch(self, *paths: str, workers: int = MAX_WORKERS) -> EntryList[_E]:
        """Fetch the links ``paths`` name of every entry together (`prefetch`); returns self."""
        prefetch(self, *paths, workers=workers)
        return self


def grouped(entries: Iterable[_E], size: int) -> Iterator[_E]:
    """``entries``, taken ``size`` at a time into one `LookAhead` each (as they are when 0 or 1).

    A run is taken whole before its first entry is handed out, so that the
    first link read can be fetched for the whole run.
    """
    if size <= 1:
        yield from entries
        return
    source = iter(entries)
    memory = WalkMemory()
    while run := list(itertools.islice(source, size)):
        yield from group(run, size, memory)
