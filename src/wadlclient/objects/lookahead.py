"""The adaptive look-ahead, on by default: a loop's link reads sent ahead once it shows a pattern.

``[task.bug.owner.name for task in tasks]`` waits for two round trips
per task. The entries of a walk or a slice form a stream (`_Entries`),
and the targets of a link of a stream form a stream in turn
(`_LinkStream`: the bugs of the tasks, the owners of the bugs), each entry
at its place (its stream in ``_group``, its index in ``_at``). Every read
of a link of a placed entry goes to its stream, whose detector for that link
(`stride.Stride`) decides whether the loop has shown a pattern; until it
has, the read is answered as it would be without the look-ahead, and
nothing else is sent. Once it has, the same link of the entries the loop
will reach next on that stride is fetched ahead, lowest index first, on
at most ``max_in_flight`` worker threads (and the connection pool keeps
everything the root sends within that limit per origin). A target that
arrives may have its own links wanted in turn (``bug.owner``).

As for `prefetch`, one walk fetches each linked URL once (`WalkMemory`,
bounded), a fetch that fails is forgotten (the program's own read of that
link sends its request again and raises that entry's own error), and the
transport's cache rules hold (a cached representation is revalidated).
A walk stopped early (``break``) drops the fetches not yet sent.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import sys
import threading
import weakref
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, TypeVar, cast

from wadlclient.objects.links import (
    ADAPTIVE,
    EntryList,
    WalkMemory,
    fetched_quietly,
    group,
    grouped,
)
from wadlclient.objects.resource import (
    Resource,
    SessionLike,
    attach,
    attached_link,
    is_fetched,
    unread_link,
)
from wadlclient.objects.stride import MAX_REACH, Stride
from wadlclient.schema import Field

__all__ = ["FOUND_FIRST", "sliced", "walked"]

_E = TypeVar("_E")

#: A walk's registry of places is swept of entries gone once it holds this many.
_SWEEP_AT = 64
#: Entries of a walk found by index once handed out, the first so many: a weak
#: reference each costs more than the rest of placing an entry.
FOUND_FIRST = 1024


def _place(entry: Resource, stream: _Stream, index: int) -> None:
    """Give ``entry`` its place, unless it has one (an owner many bugs share keeps the first)."""
    if entry._group is None:
        object.__setattr__(entry, "_group", stream)
        object.__setattr__(entry, "_at", index)


class _Linker(NamedTuple):
    """An entry whose link is wanted: its stream and index, and the link."""

    stream: _Stream
    at: int
    entry: Resource
    descriptor: Field

    def arrived(self, target: Resource) -> None:
        """The link's target is attached: the links wanted of it in turn are fetched."""
        self.stream.child(self.descriptor.name).arrived(self.at, target)


class _Job:
    """One URL fetched ahead, and the entries waiting for it."""

    __slots__ = ("done", "linkers", "ok", "priority", "target", "url", "walk")

    def __init__(self, walk: _Walk, url: str, target: Resource, priority: int) -> None:
        self.walk = walk
        self.url = url
        self.target = target
        self.priority = priority
        self.linkers: list[_Linker] = []
        self.ok = False
        self.done = threading.Event()


class _Fetcher:
    """Jobs run lowest index first on at most ``workers`` daemon threads, started on demand.

    A thread ends when no job waits, so an idle walk holds none; none
    outlives the process (the pool's own timeouts bound each request). It
    knows its walk only through the jobs queued, so that a walk done with
    is freed at once, not by the cycle collector.
    """

    __slots__ = ("_lock", "_order", "_queue", "_running", "_workers")

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._running = 0
        self._queue: list[tuple[int, int, _Job]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def submit(self, job: _Job) -> None:
        with self._lock:
            heapq.heappush(self._queue, (job.priority, next(self._order), job))
            start = self._running < self._workers
            if start:
                self._running += 1
        if start:
            threading.Thread(target=self._work, name="wadlclient-look-ahead", daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._running -= 1
                    return
                job = heapq.heappop(self._queue)[2]
            # A guess that went wrong is dropped, as if never made: its entry reads as usual.
            with contextlib.suppress(Exception):
                job.walk.run(job)

    def drop(self) -> list[_Job]:
        """Take the jobs not started yet off the queue; they are returned, never sent."""
        with self._lock:
            jobs = [job for _, _, job in self._queue]
            self._queue.clear()
        return jobs


class _Walk:
    """What the streams of one walk or slice share: a lock, the memory, the jobs, the fetcher."""

    __slots__ = ("fetcher", "lock", "memory", "pending", "session")

    def __init__(self, session: SessionLike) -> None:
        self.session = session
        self.lock = threading.RLock()
        self.memory = WalkMemory()
        self.pending: dict[str, _Job] = {}
        self.fetcher = _Fetcher(max(1, session.max_in_flight))

    def fetch(self, linker: _Linker, url: str) -> None:
        """Fetch ``url`` for ``linker``: from memory, by joining a job, or by a new job."""
        with self.lock:
            known = self.memory.get(url)
            job = None if known is not None else self.pending.get(url)
            if job is not None:
                job.linkers.append(linker)
                return
            if known is not None:
                attach(linker.entry, linker.descriptor.key, known)
            else:
                target = self.session.entry(url, linker.descriptor.link_type)
                job = self.pending[url] = _Job(self, url, target, linker.at)
                job.linkers.append(linker)
        if known is not None:
            linker.arrived(known)
        elif job is not None:
            self.fetcher.submit(job)

    def take(self, linker: _Linker, url: str) -> Resource | None:
        """The target of a link read if the look-ahead holds it or is fetching it (waited for)."""
        with self.lock:
            known = self.memory.get(url)
            if known is not None:
                attach(linker.entry, linker.descriptor.key, known)
                return known
            job = self.pending.get(url)
            if job is None:
                return None
            job.linkers.append(linker)
        job.done.wait()
        return job.target if job.ok else None

    def run(self, job: _Job) -> None:
        """A worker's turn: fetch; attach to the entries waiting; fetch what they want next."""
        ok = fetched_quietly(job.target)
        try:
            with self.lock:
                self.pending.pop(job.url, None)
                linkers, job.linkers = job.linkers, []
                if ok:
                    self.memory.keep(job.target)
                    for linker in linkers:
                        attach(linker.entry, linker.descriptor.key, job.target)
                job.ok = ok
        finally:
            job.done.set()
        if not ok or not linkers:
            return
        first = linkers[0]
        _place(job.target, first.stream.child(first.descriptor.name), first.at)
        for linker in linkers:
            linker.arrived(job.target)

    def drop_queued(self) -> None:
        """Drop the fetches not sent yet (the loop stopped): their waiters read as usual."""
        for job in self.fetcher.drop():
            with self.lock:
                self.pending.pop(job.url, None)
                job.linkers = []
            job.done.set()


class _Stream:
    """Entries in the order a loop reaches them, and a detector per link read on them."""

    __slots__ = ("_children", "_detectors", "_made", "walk")

    def __init__(self, walk: _Walk) -> None:
        self.walk = walk
        self._detectors: dict[str, Stride] = {}
        self._children: dict[str, _LinkStream] = {}
        #: Per link, the entry the last read made (not fetched ahead): did the loop use it?
        self._made: dict[str, Resource] = {}

    def entry(self, index: int, pull: bool = False) -> Resource | None:
        """The entry at ``index`` if it is here (``pull``: taken from the walk if need be)."""
        raise NotImplementedError

    def end(self) -> int | None:
        """The number of entries, once known."""
        return None

    def child(self, name: str) -> _LinkStream:
        """The stream of the targets of link ``name`` of these entries."""
        child = self._children.get(name)
        if child is None:
            with self.walk.lock:
                child = self._children.setdefault(name, _LinkStream(self, name))
        return child

    def read(
        self, entry: Resource, descriptor: Field, url: str, target: Resource | None
    ) -> Resource:
        """Link ``descriptor`` of ``entry`` (placed here) is read: the target to return.

        The `resource.Group` hook. Guesses are sent first, then the read waits
        for its own target if the look-ahead is fetching it.
        """
        walk, name, index = self.walk, descriptor.name, entry._at
        with walk.lock:
            detector = self._detectors.get(name)
            if detector is None:
                detector = self._detectors[name] = Stride()
            made = self._made.pop(name, None)
            used = made is None or is_fetched(made)
            guesses = detector.read(index, self.end(), used)
        for guess in guesses:
            self.want(guess, name)
        if target is None:
            target = walk.take(_Linker(self, index, entry, descriptor), url)
        if target is None:
            target = cast(Resource, walk.session.entry(url, descriptor.link_type))
            with walk.lock:
                self._made[name] = target
        _place(target, self.child(name), index)
        return target

    def want(self, index: int, name: str, entry: Resource | None = None) -> None:
        """Fetch link ``name`` of entry ``index`` ahead, if the entry is here and it is not held.

        ``entry``: the entry at ``index`` when the caller has it (else it is
        looked for, and taken from the walk if need be: on the loop's thread).
        """
        if entry is None:
            entry = self.entry(index, pull=True)
        if entry is None or not is_fetched(entry):
            return
        try:
            found = unread_link(entry, name)
            held = attached_link(entry, name) if found is None else None
        except ValueError:
            return  # an entry of another type, without that link
        if found is not None:
            self.walk.fetch(_Linker(self, index, entry, found[1]), found[0])
        elif held is not None:
            self.child(name).arrived(index, held)

    def arrived(self, index: int, entry: Resource) -> None:
        """``entry``, at ``index``, is here now (fetched ahead): fetch the links wanted of it."""
        with self.walk.lock:
            wanted = [name for name, d in self._detectors.items() if d.wants(index)]
        for name in wanted:
            self.want(index, name, entry)


class _LinkStream(_Stream):
    """The targets of link ``name`` of another stream's entries, at their linkers' indexes."""

    __slots__ = ("_name", "_parent")

    def __init__(self, parent: _Stream, name: str) -> None:
        super().__init__(parent.walk)
        self._parent = parent
        self._name = name

    def entry(self, index: int, pull: bool = False) -> Resource | None:
        linker = self._parent.entry(index)
        if linker is None or not is_fetched(linker):
            return None
        try:
            return attached_link(linker, self._name)
        except ValueError:
            return None

    def end(self) -> int | None:
        return self._parent.end()


class _Entries(_Stream):
    """A slice's entries, or a walk's as it hands them out and as the look-ahead takes them early.

    Entries are found by index through weak references (all of a slice's;
    the first `FOUND_FIRST` of a walk's, enough for a list made of a walk
    and looped over after), so that the stream holds none the program has
    let go of; and those taken from the walk ahead of the loop (at most
    `MAX_REACH`). Only the loop's thread takes entries from the walk; an
    error of the walk met early is raised when the loop reaches it.
    """

    __slots__ = (
        "_ahead", "_count", "_error", "_found", "_places", "_source", "_sweep_at", "_taking",
    )  # fmt: skip

    def __init__(self, walk: _Walk, source: Iterator[Resource] | None = None) -> None:
        super().__init__(walk)
        self._source = source
        self._ahead: deque[Resource] = deque()
        self._places: dict[int, weakref.ref[Resource]] = {}
        self._found = FOUND_FIRST if source is not None else sys.maxsize
        self._count = 0
        self._sweep_at = _SWEEP_AT
        self._error: Exception | None = None
        self._taking = threading.Lock()

    def add(self, entry: Resource) -> Resource:
        """Place ``entry`` after the others (`_place`, inline: a walk does it for every entry)."""
        index = self._count
        self._count = index + 1
        if entry._group is None:
            object.__setattr__(entry, "_group", self)
            object.__setattr__(entry, "_at", index)
        if index < self._found:
            places = self._places
            places[index] = weakref.ref(entry)
            if len(places) >= self._sweep_at:
                self._places = {i: ref for i, ref in places.items() if ref() is not None}
                self._sweep_at = max(_SWEEP_AT, 2 * len(self._places))
        return entry

    def entry(self, index: int, pull: bool = False) -> Resource | None:
        ref = self._places.get(index)
        if ref is not None:
            return ref()
        if self._found == sys.maxsize:
            return None
        with self._taking:
            if pull and index >= self._count:
                self._take_ahead(index)
            ahead = self._ahead
            at = index - (self._count - len(ahead))
            return ahead[at] if 0 <= at < len(ahead) else None

    def end(self) -> int | None:
        return self._count if self._source is None else None

    def _take_ahead(self, index: int) -> None:
        """Take entries from the walk until ``index`` is among them, or the walk ends (locked)."""
        while self._source is not None and self._count <= index:
            if len(self._ahead) >= MAX_REACH:
                return
            try:
                entry = next(self._source, None)
            except Exception as error:
                self._error, self._source = error, None
                return
            if entry is None:
                self._source = None
                return
            self._ahead.append(self.add(entry))

    def hand_out(self) -> Iterator[Resource]:
        """The walk's entries, in order, each placed; fetches not sent are dropped on ``break``.

        One at a time, as the loop asks: taking more would fetch the next
        page sooner than a loop that stops near a page's end needs it. The
        common case (nothing taken ahead) is written out: it runs per entry.
        """
        ahead, taking, add = self._ahead, self._taking, self.add
        try:
            while True:
                if ahead:
                    yield ahead.popleft()
                    continue
                with taking:
                    source = self._source
                    entry = None if source is None or ahead else next(source, None)
                    if entry is not None:
                        add(entry)
                    elif not ahead:
                        self._source = None
                if entry is not None:
                    yield entry
                elif not ahead:
                    break
            if self._error is not None:
                error, self._error = self._error, None
                raise error
        except BaseException:
            self.walk.drop_queued()
            raise


def walked(entries: Iterable[_E], session: SessionLike) -> Iterator[_E]:
    """A walk's ``entries`` as the session's look-ahead hands them out (adaptive, fixed or off)."""
    if session.look_ahead != ADAPTIVE:
        return grouped(entries, session.look_ahead)
    stream = _Entries(_Walk(session), iter(cast("Iterable[Resource]", entries)))
    return cast("Iterator[_E]", stream.hand_out())


def sliced(entries: Iterable[_E], session: SessionLike) -> EntryList[_E]:
    """A slice's ``entries`` as an `EntryList` placed for the session's look-ahead."""
    if session.look_ahead != ADAPTIVE:
        return group(entries, session.look_ahead)
    stream = _Entries(_Walk(session))
    return EntryList(cast(Any, stream.add(cast(Resource, entry))) for entry in entries)
