"""Finding a walk's place again from a resume token (`tokens.Position`), in any process.

The token names an offset (a guess) and the digests of the last entries
handed out. The walk asks for one page from just before that offset
(`plan.page_size` entries past it, like the steady walk's windows) and
looks for those entries in it: it goes on after them, so nothing is
handed out twice and nothing after them is skipped, even when entries
left or joined the results before the place meanwhile. When they are not
in that page, it asks from further back (by the size the collection lost,
doubling), or further on when it grew. A collection nobody changed
resumes with one request, which re-reads one entry before the place.

When every entry the token remembers has left the results, the walk
resumes at the offset, moved back by what the collection lost: entries
around the place may then be missed or repeated, as with any walk by offset.

A walk that kept its pages in a cache other processes share
(`wadlclient.objects.kept`) resumes from them instead, without a request
(`kept_place`): the page it was handing out, cut at its place, and those
it had fetched ahead.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from wadlclient.errors import ResponseError
from wadlclient.objects.kept import KeptPage, KeptPages
from wadlclient.objects.paging import Page, PageSource, WalkPlan
from wadlclient.objects.steady import Resumed, TaggedSource
from wadlclient.objects.tokens import ANCHORS, Position, Scope, digest

__all__ = ["MAX_STEPS", "Cursor", "find_place", "kept_place"]

#: Pages a resume asks for, at most, before taking the offset as the place.
MAX_STEPS = 24


class Cursor:
    """Where a walk is, kept as it goes: the pages it started handing out, the entries handed out.

    The walker tells it of each page as the page's entries start going out
    (`page`); the walk, of each entry the caller receives (``links``,
    ``handed``): entries the look-ahead holds back are not counted yet. The
    `Position` is worked out only when a token is asked for; ``taken`` (the
    walk's `kept.KeptPages.hold`) is told of the page each token names.
    """

    __slots__ = (
        "_counted", "_pages", "_start", "done", "handed", "links", "scope", "taken", "total",
        "walk",
    )  # fmt: skip

    def __init__(self, scope: Scope, start: Position | None = None, walk: bytes = b"") -> None:
        self.scope = scope
        self._start = start if start is not None else Position(scope)
        #: The id the walk keeps its pages under (`kept.KeptPages`; empty: it keeps none).
        self.walk = walk
        self.total = self._start.total
        self.done = self._start.done
        #: The links of the last entries handed out, the newest last.
        self.links: deque[str] = deque(maxlen=ANCHORS)
        self.handed = 0
        self._counted = 0
        #: Per page started: (entries counted up to its end, the offset after it, its offset).
        self._pages: deque[tuple[int, int, int]] = deque()
        #: Told of the page of each token taken (the pages kept for a resume: `kept`).
        self.taken: Callable[[int], None] | None = None

    def page(self, count: int, source: TaggedSource) -> None:
        """A page of ``count`` entries starts going out; ``source`` parsed it last."""
        pages = self._pages
        begin = source.start if source.start is not None else (pages[-1][1] if pages else 0)
        end = source.next_start if source.next_start is not None else begin + count
        self._counted += count
        pages.append((self._counted, end, begin))
        if source.total is not None:
            self.total = source.total
        while len(pages) > 1 and pages[0][0] < self.handed:
            pages.popleft()

    def position(self) -> Position:
        """Where the walk is now (a token is taken: ``taken`` is told of its page)."""
        position = self._position()
        if self.taken is not None:
            self.taken(position.page)
        return position

    def _position(self) -> Position:
        start, handed = self._start, self.handed
        if not handed:
            return (
                start
                if start.done == self.done
                else Position(
                    start.scope, start.pos, start.total, start.anchors, start.inclusive, self.done
                )
            )
        pos, page, pages = start.pos, start.page, self._pages
        for index, (counted, end, begin) in enumerate(pages):
            if counted >= handed:
                pos, page = end - (counted - handed), begin
                if counted == handed and index + 1 < len(pages):
                    page = pages[index + 1][2]  # the next entry's page has started
                break
        anchors = tuple(digest(link) for link in self.links)
        if len(anchors) < ANCHORS and not start.inclusive:
            anchors = (start.anchors + anchors)[-ANCHORS:]
        return Position(
            self.scope, max(0, pos), self.total, anchors, False, self.done, self.walk, page
        )


def _link_digest(document: Any) -> bytes | None:
    link = document.get("self_link") if isinstance(document, dict) else None
    return digest(link) if isinstance(link, str) else None


def _cut_at(entries: list[Any], position: Position) -> int | None:
    """Where the walk goes on in ``entries``: past its last entries, or at its first (inclusive)."""
    anchors = set(position.anchors)
    if not anchors:
        return None
    marks = [_link_digest(document) in anchors for document in entries]
    if True not in marks:
        return None
    first = marks.index(True)
    if position.inclusive:
        return first
    end = first
    while end < len(marks) and marks[end]:
        end += 1
    return end


def _cut(page: Page, at: int, position: Position) -> Page:
    """``page`` from ``at`` on, without the entries the token says were handed out.

    The steady walk that goes on needs nothing of the entries before: a
    window it asks for later must start at an entry it handed out itself.
    """
    anchors = set(position.anchors)
    rest = page.entries[at:]
    if anchors and not position.inclusive:
        rest = [document for document in rest if _link_digest(document) not in anchors]
    start = None if page.start is None else page.start + at
    if not rest:
        # Cut at its end (a token on a page's boundary): nothing left of it, and its offset
        # stays its own, or the page would seem to link to itself (`PageGuard`).
        start = page.start
    return page._replace(entries=rest, start=start)


def find_place(source: PageSource, position: Position, plan: WalkPlan) -> Page:
    """The page the walk goes on with: from just before its place, cut there."""
    pos = position.pos
    if not position.anchors:
        return source.fetch_page(pos or None, plan.page_size)
    back, grown = (0 if position.inclusive else 1), False
    page: Page | None = None
    for _ in range(MAX_STEPS):
        start = max(0, pos - back)
        page = source.fetch_page(start, plan.page_size + pos - start)
        at = _cut_at(page.entries, position)
        if at is not None:
            return _cut(page, at, position)
        lost = 0
        if position.total is not None and page.total is not None:
            lost = position.total - page.total
        if lost < 0 and not grown:
            # Entries joined before the place: it moved on.
            grown, pos, back = True, pos - lost, 1
            continue
        if start == 0:
            break
        back = max(2 * back, lost + 1)
    # Every entry remembered left the results: take the offset, less what left.
    lost = 0
    if page is not None and position.total is not None and page.total is not None:
        lost = max(0, position.total - page.total)
    return source.fetch_page(max(0, position.pos - lost) or None, plan.page_size)


def kept_place(
    kept: KeptPages, source: TaggedSource, position: Position, plan: WalkPlan
) -> tuple[Page, Resumed] | None:
    """The walk's place in the pages the walk before it kept, without a request (None: not kept).

    The page it was handing out is cut after its last entries (or taken
    whole when it starts at the place); the pages kept after it follow
    while each is the one its predecessor links to, of the same size, and
    fetched while no write of the walk before was under way since the
    first (as the steady walk would have used them), up to the walk's
    look-ahead.
    """
    found = kept.find(position.page)
    page = _parsed(kept, found)
    if found is None or page is None:
        return None
    at = _cut_at(page.entries, position)
    if at is None:
        if position.inclusive or (page.start or 0) != position.pos:
            return None
        at = 0
    source.note_kept(page)
    kept.drop_before(position.page, plan.page_size)
    then: list[Page] = []
    last, quiet = page, found.quiet
    while quiet is not None and last.next and last.next_start is not None:
        if len(then) > plan.depth:
            break  # more than the walk before could have fetched ahead
        after = kept.find(last.next_start)
        following = _parsed(kept, after)
        if after is None or following is None or after.quiet != quiet:
            break
        if following.start not in (last.next_start, None) or following.total != page.total:
            break
        then.append(following)
        last = following
    return _cut(page, at, position), Resumed(page.entries[:at], then)


def _parsed(kept: KeptPages, found: KeptPage | None) -> Page | None:
    """The page kept, parsed; None when it is not one (any process may write a shared cache)."""
    if found is None:
        return None
    try:
        return kept.parse(found.url, found.content)
    except ResponseError:
        return None
