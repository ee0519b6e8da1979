"""The look-ahead's detector: it guesses only along a pattern it has seen, and wastes little.

Pure logic (no I/O): a list of the indexes a loop reads a link at goes in,
the guesses come out. The wire-level tests are in test_adaptive_look_ahead.py.
"""

from __future__ import annotations

import random

from wadlclient.objects.stride import FIRST_DISTANCE, MAX_DISTANCE, WASTE_ALLOWANCE, Stride


def _run(reads: list[int], end: int | None = None) -> tuple[Stride, list[list[int]]]:
    detector = Stride()
    return detector, [detector.read(index, end) for index in reads]


def test_a_link_read_on_consecutive_entries_is_guessed_ahead_after_the_second() -> None:
    _, guesses = _run([0, 1])

    assert guesses == [[], [2, 3, 4, 5][:FIRST_DISTANCE]]


def test_one_read_alone_guesses_nothing() -> None:
    assert _run([7])[1] == [[]]


def test_every_tenth_entry_is_guessed_on_its_stride_after_the_third_read() -> None:
    _, guesses = _run([0, 10, 20])

    assert guesses[:2] == [[], []]
    assert guesses[2] == [30, 40, 50, 60][:FIRST_DISTANCE]


def test_guesses_the_loop_reads_let_it_reach_further() -> None:
    detector, guesses = _run(list(range(40)))

    assert detector.wasted == 0
    assert detector.distance > FIRST_DISTANCE
    # Each guess read lets the look-ahead go one entry further and slide by one.
    assert all(len(g) == 2 for g in guesses[3:20])


def test_nothing_is_guessed_past_the_known_end() -> None:
    _, guesses = _run([0, 1], end=3)

    assert guesses[1] == [2]


def test_reading_the_same_entry_again_changes_nothing() -> None:
    detector, guesses = _run([0, 0, 0, 1])

    assert guesses[:3] == [[], [], []]
    assert detector.reads == 2


def test_a_second_pass_starts_the_pattern_anew_without_counting_waste() -> None:
    detector, guesses = _run([0, 1, 2, 0, 1])

    assert guesses[3] == []
    assert guesses[4] != []
    assert detector.wasted == 0


def test_leaving_the_stride_halves_the_distance_and_asks_for_more_proof() -> None:
    detector, _ = _run(list(range(100)))
    distance = detector.distance

    detector.read(200)  # the guesses after 99 were passed unread

    assert detector.wasted > 0
    assert detector.distance == distance // 2
    assert detector.need == 2
    assert detector.read(201) == []  # one step of the new pattern is no longer enough


def test_once_guesses_were_wasted_the_reads_must_earn_the_next() -> None:
    detector, _ = _run([0, 1, 2, 3, 50])
    wasted = detector.wasted

    quiet = [detector.read(index) for index in range(51, 60)]
    later = [detector.read(index) for index in range(60, 200)]

    assert wasted > WASTE_ALLOWANCE
    assert quiet == [[]] * 9
    assert any(later)
    out = max(detector.frontier - detector.last, 0) if detector.last is not None else 0
    assert detector.wasted + out <= WASTE_ALLOWANCE + detector.reads // 10


def test_a_loop_with_no_pattern_wastes_a_bounded_part_of_its_reads() -> None:
    chooser = random.Random(32)
    reads = sorted(chooser.sample(range(10_000), 2_000))
    detector = Stride()
    guessed = sum(len(detector.read(index)) for index in reads)
    unread = guessed - detector.hits

    assert unread <= WASTE_ALLOWANCE + len(reads) // 10 + MAX_DISTANCE


def test_a_loop_that_keeps_changing_pattern_is_guessed_for_less_and_less() -> None:
    detector = Stride()
    index = 0
    for _ in range(50):  # two consecutive reads, then a jump: every guess wasted
        detector.read(index)
        detector.read(index + 1)
        index += 100

    assert detector.wasted <= WASTE_ALLOWANCE + detector.reads // 10 + FIRST_DISTANCE
