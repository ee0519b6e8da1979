"""The write lane's promise: two starts it grants are at least ``min_interval`` apart.

Checked on the times the lane itself gives each start (``with lane.slot()
as started``), from a clock of the test's own: a busy machine cannot make
them fail, and no test here measures the machine's speed (the bulk rows
of ``make bench`` do).
"""

from __future__ import annotations

import itertools
import threading

from wadlclient.bulk.lane import WriteLane


class LateClock:
    """A clock that moves only when the lane sleeps; the first sleeps wake ``late`` seconds late,
    as a thread on a loaded machine does."""

    def __init__(self, late: float, late_sleeps: int = 1) -> None:
        self.now = 0.0
        self.late = late
        self.late_sleeps = late_sleeps
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += seconds + (self.late if len(self.sleeps) <= self.late_sleeps else 0.0)


def gaps(starts: list[float]) -> list[float]:
    return [round(later - earlier, 9) for earlier, later in itertools.pairwise(sorted(starts))]


def test_a_start_after_a_late_one_still_waits_the_whole_interval() -> None:
    clock = LateClock(late=0.06)
    lane = WriteLane(1, 0.1, clock=clock, sleep=clock.sleep)

    starts = []
    for _write in range(4):
        with lane.slot() as started:
            starts.append(started)

    # The second start woke 0.06 s late (0.16); the third is still a whole 0.1 after it.
    assert starts == [0.0, 0.16, 0.26, 0.36]
    assert min(gaps(starts)) >= 0.1


def test_starts_granted_to_many_threads_are_each_an_interval_apart() -> None:
    clock = LateClock(late=0.03, late_sleeps=5)
    lane = WriteLane(4, 0.1, clock=clock, sleep=clock.sleep)
    starts: list[float] = []

    def writer() -> None:
        for _write in range(5):
            with lane.slot() as started:
                starts.append(started)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(starts) == 20
    assert min(gaps(starts)) >= 0.1


def test_without_an_interval_the_lane_never_waits() -> None:
    clock = LateClock(late=0.0)
    lane = WriteLane(2, clock=clock, sleep=clock.sleep)

    for _write in range(3):
        with lane.slot():
            pass

    assert clock.sleeps == []
