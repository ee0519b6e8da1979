"""Walks that stay right while the collection changes under them.

A walk asks for pages by offset (``ws.start``). When entries leave the
results before the walk's place (the loop marks each task Fix Released,
and a search for open tasks loses it), the next page starts further
along than the walk has reached and entries are skipped; when entries
arrive before it, the next page starts with entries already handed out.

The walk here notices both and asks again from the right place:

- A page is *in step* with the one before when both were fetched while
  no write of the root was under way and no write finished between them
  (`WriteLog`), both state the same size, and the page does not begin
  with an entry already handed out. Such a page is used as it is: a walk
  over a collection that does not change sends exactly the requests it
  always did.
- Otherwise the walk asks for a *window*: a page from a little before its
  place (by the size the collection lost, or what the loop's writes
  removed last time), and checks that it starts at an entry already
  handed out (or at offset 0). If not, it asks from further back. From
  a window that starts so, nothing still in the results was skipped; the
  entries in it already handed out are left out and the rest handed out.

Entries are told apart by ``self_link``. A walk remembers, by their
hashes, the last `RECENT` entries it handed out (a fixed 32 KiB ring,
whatever the walk's length), the entries of it the loop wrote to (they
may move further along the results), and the first entries of its last
windows. This is what makes the promise in docs/bulk-changes.md hold:
no entry twice; no entry that is still in the results skipped, when the
server's order of the entries not yet reached does not change.
"""

from __future__ import annotations

import contextlib
import operator
from array import array
from collections.abc import Callable, Generator
from typing import Any, NamedTuple, Protocol

from wadlclient.errors import ResponseError
from wadlclient.objects.budget import WalkBudget
from wadlclient.objects.paging import Page, PageGuard, PageSource, WalkPlan
from wadlclient.objects.writelog import WriteLog

__all__ = ["RECENT", "Keeper", "Resumed", "Seen", "TaggedSource", "steady_walk"]

#: Entries handed out that a walk remembers (by hash) to recognise them in a window.
RECENT = 4096
#: First entries of windows a walk remembers: an entry that stays just before its place.
_ANCHORS = 64
#: Windows in a row that hand out nothing new before the walk gives up on a server.
MAX_STALLS = 64
#: Step-backs one window may take (each doubles the distance) before the walk gives up.
MAX_STEPS = 64
#: Entries handed out last that the first entry of each page is checked against.
_LAST = 64
_NOTHING: frozenset[int] = frozenset()
#: A hash no ``self_link`` has (CPython never returns -1 from ``hash``).
_EMPTY = -1


class Keeper(Protocol):
    """Where a walk keeps the pages it receives for a resume (`kept.KeptPages`)."""

    def keep(self, fetched: Any, quiet: int | None) -> None: ...


#: Pages to hand out: their entries, and whether the list may be emptied on the way.
Pages = Generator[tuple[list[Any], bool], None, None]
#: The pages after a page, fetched ahead (`wadlclient.objects.prefetch.pages_after`).
PagesAfter = Callable[[PageSource, Page, WalkPlan, PageGuard], Generator[list[Any], None, None]]


def link_hash(document: Any) -> int:
    """The hash of a document's ``self_link`` (of the document itself when it has none)."""
    link = document.get("self_link") if isinstance(document, dict) else None
    return hash(link) if isinstance(link, str) else id(document)


class Seen:
    """What a walk has handed out, in a fixed space: the recent ones, the moved ones, anchors.

    A `WriteWatcher`: a write to an entry among the recent ones marks it as
    possibly moved further along the results, to be left out when met again.
    """

    __slots__ = ("_anchors", "_page", "at", "moved", "recent")

    def __init__(self) -> None:
        #: The hashes of the last `RECENT` entries handed out; ``at`` is where the next goes.
        self.recent = array("q", [_EMPTY]) * RECENT
        self.at = 0
        self.moved: set[int] = set()
        self._anchors: dict[int, None] = {}
        #: The page being handed out, whole (a page may hold more than the ring).
        self._page = array("q")

    def was_last(self, key: int) -> bool:
        """Whether ``key`` is among the last `_LAST` entries handed out, or moved.

        Checked for the first entry of each page: an entry that arrived
        before the walk's place pushes the last ones handed out onto the
        next page. More than `_LAST` at once change the size too.
        """
        if key in self.moved:
            return True
        recent, at = self.recent, self.at
        low = at - _LAST
        last = recent[low:at] if low >= 0 else recent[low:] + recent[:at]
        return key in last

    def remember(self, keys: array[int]) -> None:
        """Entries handed out (a page's, at most `RECENT` of them kept)."""
        self._page = keys
        recent, at, count, size = self.recent, self.at, len(keys), RECENT
        if count >= size:
            recent[:] = keys[count - size :]
            self.at = 0
            return
        first = min(count, size - at)
        recent[at : at + first] = keys[:first]
        recent[: count - first] = keys[first:]
        self.at = (at + count) % size

    def known(self) -> frozenset[int]:
        """Every entry remembered, for checking a window."""
        return frozenset(self.recent) | self.moved | self._anchors.keys()

    def anchor(self, key: int) -> None:
        """Remember the entry a window started at (it may stay there for long)."""
        anchors = self._anchors
        anchors[key] = None
        if len(anchors) > _ANCHORS:
            del anchors[next(iter(anchors))]

    def wrote(self, url: str) -> None:
        key = hash(url)
        if key in self._page or key in self.recent:
            self.moved.add(key)


class TaggedSource:
    """A `PageSource` that notes, of the page it parsed last, where it was and the writes around it.

    ``before`` is the count of writes finished when the page was asked
    for; ``quiet`` is the same count if no write began before its answer
    came (the page shows the results as those writes left them), else None.
    Each request is counted against the walk's ``budget``, each page parsed
    is what the walk delivered (`WalkBudget`). ``keep`` (a walk's
    `kept.KeptPages`) is given each page as it is received, with ``quiet``.
    """

    __slots__ = (
        "_budget", "_keep", "_log", "_source", "before", "next_start", "quiet", "start", "total",
    )  # fmt: skip

    def __init__(
        self, source: PageSource, log: WriteLog, budget: WalkBudget, keep: Keeper | None = None
    ) -> None:
        self._source = source
        self._log = log
        self._budget = budget
        self._keep = keep
        self.before = 0
        self.quiet: int | None = None
        self.start: int | None = None
        self.total: int | None = None
        self.next_start: int | None = None

    def fetch_page(self, start: int | None, size: int | None) -> Page:
        return self.fetch_later(None, start, size)()

    def follow_next(self, link: str, size: int | None) -> Page:
        return self.fetch_later(link, None, size)()

    def count(self, page: Page) -> int | None:
        return self._source.count(page)

    def fetch_later(
        self, link: str | None, start: int | None, size: int | None
    ) -> Callable[[], Page]:
        log = self._log
        before = log.finished
        self._budget.spend()
        parse = self._source.fetch_later(link, start, size)
        quiet = before if log.quiet_since(before) else None
        if self._keep is not None:
            self._keep.keep(parse, quiet)

        def parsed() -> Page:
            page = parse()
            self.note(page, before, quiet)
            return page

        return parsed

    def note_kept(self, page: Page) -> None:
        """Take ``page``, kept by a walk before a resume, as the one parsed last (never quiet)."""
        self.note(page, self._log.finished, None)

    def note(self, page: Page, before: int, quiet: int | None) -> None:
        """Take ``page`` as the one parsed last, asked for after ``before`` writes."""
        self._budget.reached(page)
        self.before, self.quiet = before, quiet
        self.start, self.total, self.next_start = page.start, page.total, page.next_start


class _Place:
    """Where a walk is: the offset it reads next, and the page it read last (its size, writes)."""

    __slots__ = ("before", "pos", "quiet", "ratio", "stalls", "total")

    def __init__(self, pos: int, source: TaggedSource) -> None:
        self.pos = pos
        self.total = source.total
        self.before = source.before
        self.quiet = source.quiet
        #: The share of the loop's writes that took an entry out before the walk's place.
        self.ratio = 0.0
        self.stalls = 0

    def in_step(self, source: TaggedSource, first: Any, seen: Seen) -> bool:
        """Whether the page ``source`` parsed last follows the one before as it is."""
        return (
            self.quiet is not None
            and source.quiet == self.quiet
            and source.total == self.total
            and source.start in (None, self.pos)
            and (first is None or not seen.was_last(link_hash(first)))
        )

    def moved_to(self, source: TaggedSource, after: int) -> None:
        self.pos, self.total, self.before, self.quiet = (
            after, source.total, source.before, source.quiet,
        )  # fmt: skip


class Resumed(NamedTuple):
    """How a resumed walk starts from the pages the walk before it kept (`resume.kept_place`).

    ``known``: the entries of the first page before the place (handed out
    before the resume: a window may start at one); ``then``: the pages
    after the first, kept too, to hand out as they are.
    """

    known: list[Any]
    then: list[Page]


def steady_walk(
    source: TaggedSource, log: WriteLog, first: Page, owned: bool, plan: WalkPlan,
    pages_after: PagesAfter, resumed: Resumed | None = None,
) -> Pages:  # fmt: skip
    """Every entry from ``first`` on, once, asking again from the right place when the results move.

    Page by page: ``(entries, owned)``, an owned list may be emptied as it
    is handed out. ``source`` parsed ``first`` last (or noted it).
    ``pages_after`` is the walk's look-ahead (`prefetch.pages_after`).
    ``resumed``: ``first`` and the pages after it are those a walk killed
    before kept; the walk before may have written since they were
    fetched, so the page after them is asked for as a window.
    """
    seen = Seen()
    walk = _walk(source, log, first, owned, plan, pages_after, seen, resumed)
    del first  # the walk lets go of its pages as it hands them out
    log.watch(seen)
    try:
        yield from walk
    finally:
        log.unwatch(seen)


def _page_out(
    entries: list[Any], owned: bool, seen: Seen, skip: frozenset[int] | set[int]
) -> tuple[list[Any], bool]:
    """A page to hand out, without the entries in ``skip``; its entries remembered.

    The page's hashes are taken, and remembered, in one go (C loops): the
    walk's cost per entry stays that of handing it out (`PageWalker.walk`).
    """
    keys = _keys_of(entries)
    if skip and not skip.isdisjoint(keys):
        kept = [(d, k) for d, k in zip(entries, keys, strict=True) if k not in skip]
        entries, owned = [document for document, _ in kept], True
        keys = array("q", [key for _, key in kept])
    seen.remember(keys)
    return entries, owned


_SELF_LINK = operator.itemgetter("self_link")


def _keys_of(entries: list[Any]) -> array[int]:
    """The hashes of the entries' ``self_link`` (`link_hash` for an entry without one)."""
    try:
        return array("q", map(hash, map(_SELF_LINK, entries)))
    except (KeyError, TypeError, OverflowError):
        return array("q", map(link_hash, entries))


def _walk(
    source: TaggedSource, log: WriteLog, first: Page, owned: bool, plan: WalkPlan,
    pages_after: PagesAfter, seen: Seen, resumed: Resumed | None,
) -> Pages:  # fmt: skip
    if resumed is not None:
        seen.remember(_keys_of(resumed.known))
    place = _Place(first.next_start or 0, source)
    last = first._replace(entries=[])
    yield _page_out(first.entries, owned, seen, _NOTHING)
    del first
    if resumed is not None:
        then = resumed.then
        while then:
            page = then.pop(0)
            source.note_kept(page)
            place.moved_to(source, page.next_start or 0)
            last = page._replace(entries=[])
            yield _page_out(page.entries, True, seen, _NOTHING)
            del page
        place.quiet = None  # the walk before may have written since: a window comes next
    while last.next:
        if last.next_start is None:
            # Next links without an offset cannot be asked for from elsewhere: follow them.
            with contextlib.closing(pages_after(source, last, plan, PageGuard())) as rest:
                for entries in rest:
                    yield _page_out(entries, True, seen, seen.moved)
            return
        if place.quiet is not None and log.quiet_since(place.quiet):
            in_step = yield from _follow(source, last, plan, pages_after, place, seen)
            if in_step:
                return
        window = _window(source, place, plan, seen, log)
        skip = seen.known()
        new = [document for document in window.entries if link_hash(document) not in skip]
        place.stalls = 0 if new else place.stalls + 1
        if place.stalls > MAX_STALLS:
            raise ResponseError(
                f"the pages of {plan.name} kept changing: {MAX_STALLS} times in a row "
                "a page asked for again held nothing new"
            )
        place.moved_to(source, window.next_start or 0)
        last = window._replace(entries=[])
        del window
        yield _page_out(new, True, seen, _NOTHING)


def _follow(
    source: TaggedSource, last: Page, plan: WalkPlan, pages_after: PagesAfter,
    place: _Place, seen: Seen,
) -> Generator[tuple[list[Any], bool], None, bool]:  # fmt: skip
    """Hand out the pages after ``last`` while each is in step: True at the end, else False."""
    with contextlib.closing(pages_after(source, last, plan, PageGuard())) as rest:
        for entries in rest:
            if not place.in_step(source, entries[0] if entries else None, seen):
                return False
            place.stalls = 0
            after = source.next_start
            yield _page_out(entries, True, seen, seen.moved)
            if after is None:
                return True
            place.moved_to(source, after)
    return True


def _window(source: TaggedSource, place: _Place, plan: WalkPlan, seen: Seen, log: WriteLog) -> Page:
    """A page from before ``place.pos`` that starts at an entry handed out (or at offset 0).

    The first guess goes back one entry, and by the share of the writes
    since that took entries out last time; each miss goes back twice as
    far, at least by the size the collection lost and by every write since.
    """
    writes = log.started - place.before
    back = 1 + round(place.ratio * writes)
    for _ in range(MAX_STEPS):
        start = max(0, place.pos - back)
        # A page's worth beyond the walk's place (the server may serve fewer).
        page = source.fetch_page(start, plan.page_size + place.pos - start)
        known = seen.known()
        entries = page.entries
        anchored = bool(entries) and link_hash(entries[0]) in known
        if anchored:
            seen.anchor(link_hash(entries[0]))
        if start == 0 or anchored:
            _learn(place, start, entries, known, writes)
            return page
        lost = 0
        if place.total is not None and page.total is not None:
            lost = place.total - page.total
        back = max(2 * back, lost + 1, writes + 1)
        if page.total is not None and not entries:
            back = max(back, place.pos - page.total + 1)
    raise ResponseError(f"could not find the place of a walk over {plan.name} again")


def _learn(
    place: _Place, start: int, entries: list[Any], known: frozenset[int], writes: int
) -> None:
    """From a window: how many entries before the walk's place left, per write since."""
    if writes <= 0:
        return
    held = 0
    for document in entries:
        if link_hash(document) not in known:
            break
        held += 1
    lost = place.pos - (start + held)
    place.ratio = min(1.0, max(0.0, lost / writes))
