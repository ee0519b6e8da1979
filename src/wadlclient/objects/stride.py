"""How a loop reads one link of a walk's entries: the look-ahead's detector (no I/O).

A CPU's stride prefetcher watches the addresses a loop loads; this one
watches the positions of the entries whose link ``name`` the loop reads
(`Stride`, one per stream of entries and link name). Three steps:

- **detect**: two reads give a stride (1 when the loop reads every entry,
  10 when it reads every tenth);
- **confirm**: the stride is trusted once seen ``need`` times in a row
  (once for 1, the same link on consecutive entries; twice for a longer
  one), and guesses go out only then, for the entries the loop will reach
  next on that stride;
- **run ahead**: each guess the loop then reads lets the look-ahead reach
  one stride further (`FIRST_DISTANCE` up to `MAX_DISTANCE`, never more
  than `MAX_REACH` entries ahead).

A guess the loop passes without reading it is wasted. When the loop
leaves the stride, the distance halves and the next pattern must be seen
once more before it is trusted; and once anything was wasted, the guesses
out at a time are bounded by what is left of the waste allowed,
`WASTE_ALLOWANCE` plus a tenth of the reads, so that a detector that keeps
guessing wrong guesses no more until the loop's reads have earned it. A
loop with no pattern costs nothing; a loop that keeps to its stride wastes
nothing but the guesses out when it stops (at most the distance); one
that changes pattern wastes, beyond its first change, about a tenth of
what it reads.
"""

from __future__ import annotations

import heapq

__all__ = ["FIRST_DISTANCE", "MAX_DISTANCE", "MAX_REACH", "WASTE_ALLOWANCE", "Stride"]

#: Strides guessed ahead when a pattern is first trusted.
FIRST_DISTANCE = 4
#: Strides guessed ahead at most, once the guesses are being read (8 requests in
#: flight need no more, even when some guesses are entries met before).
MAX_DISTANCE = 32
#: Entries guessed ahead at most, whatever the stride (entries are held until reached).
MAX_REACH = 256
#: Times a stride must be seen in a row before it is trusted, at most (after failures).
MAX_NEED = 4
#: Guesses a detector may waste beyond a tenth of its reads, once it has wasted some.
WASTE_ALLOWANCE = 2


class Stride:
    """The reads of one link along one stream of entries, and the guesses they justify.

    Not thread-safe: the stream calls it under its walk's lock.
    """

    __slots__ = (
        "_guessed",
        "_heap",
        "distance",
        "frontier",
        "hits",
        "last",
        "need",
        "reads",
        "seen",
        "stride",
        "wasted",
    )

    def __init__(self) -> None:
        self.last: int | None = None
        self.stride = 0
        self.seen = 0
        self.need = 1
        self.distance = FIRST_DISTANCE
        self.frontier = -1
        self.hits = 0
        self.reads = 0
        self.wasted = 0
        self._heap: list[int] = []
        self._guessed: set[int] = set()

    @property
    def trusted(self) -> bool:
        """Whether the stride has been seen often enough to guess along it."""
        need = self.need if self.stride == 1 else self.need + 1
        return self.seen >= need and self.reach() > 0

    def reach(self) -> int:
        """Strides it may guess ahead: the distance, within the waste left once some was wasted."""
        if not self.wasted:
            return self.distance
        return min(self.distance, WASTE_ALLOWANCE + self.reads // 10 - self.wasted)

    def read(self, index: int, end: int | None = None, used: bool = True) -> list[int]:
        """The loop reads the link of entry ``index``: the entries to fetch it for now.

        ``end``: the number of entries, when known (nothing is guessed past
        it). ``used``: whether the loop read the entry the last read led to
        (fetched it); a loop that only reads links (to compare URLs, say)
        shows no pattern worth a request. A read of the entry read last
        changes nothing; a read before it starts the pattern anew (a second
        pass over a slice).
        """
        last = self.last
        if last is not None and index <= last:
            if index < last:
                self._start_over(index)
            return []
        self.reads += 1
        hit, missed = self._settle(index)
        broke = False
        if last is not None and not used:
            self.stride, self.seen = 0, 0
        elif last is not None:
            delta = index - last
            if delta == self.stride:
                self.seen += 1
            else:
                broke = self.seen > 0 and missed
                self.stride, self.seen = delta, 1
                self.frontier = index
        self.last = index
        if hit:
            self.hits += 1
            self.distance = min(MAX_DISTANCE, self.distance + 1)
        if broke:
            self.need = min(MAX_NEED, self.need + 1)
            self.distance = max(1, self.distance // 2)
        if not self.trusted:
            return []
        return self._guess(index, end)

    def wants(self, index: int) -> bool:
        """Whether ``index`` is a guess the loop has not passed (its link is wanted)."""
        return index in self._guessed and (self.last is None or index > self.last)

    def _settle(self, index: int) -> tuple[bool, bool]:
        """Account for the guesses up to ``index``: (it was one, some before it went unread)."""
        heap, hit, missed = self._heap, False, False
        while heap and heap[0] <= index:
            guess = heapq.heappop(heap)
            self._guessed.discard(guess)
            if guess == index:
                hit = True
            else:
                missed = True
                self.wasted += 1
        return hit, missed

    def _guess(self, index: int, end: int | None) -> list[int]:
        """The entries on the stride after ``index``, up to the distance, not guessed before."""
        stride = self.stride
        first = max(1, (self.frontier - index) // stride + 1)
        last = min(self.reach(), MAX_REACH // stride)
        guesses = [index + k * stride for k in range(first, last + 1)]
        if end is not None:
            guesses = [guess for guess in guesses if guess < end]
        for guess in guesses:
            if guess not in self._guessed:
                self._guessed.add(guess)
                heapq.heappush(self._heap, guess)
        if guesses:
            self.frontier = guesses[-1]
        return guesses

    def _start_over(self, index: int) -> None:
        """A read behind the last one: a new pass; guesses not reached are dropped, unwasted."""
        self.last, self.stride, self.seen, self.frontier = index, 0, 0, index
        self._heap.clear()
        self._guessed.clear()
