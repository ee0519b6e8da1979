"""The process-memory rows' reader: the sum smaps lists, sampled while an operation runs.

``benchmarks.peakmem`` replaced pyperf's ``--track-memory`` (whose reading of
``/proc/self/smaps`` in pieces was not a snapshot); it must measure the same
quantity, see memory an operation holds only for a moment, and say clearly
when the machine cannot give it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from benchmarks import peakmem

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the rows read Linux's /proc/self/smaps_rollup"
)

MiB = 2**20


def private_in_smaps() -> int:
    """Private_Clean + Private_Dirty over every mapping /proc/self/smaps lists, in bytes."""
    text = Path("/proc/self/smaps").read_bytes()
    return sum(int(line.split()[1]) for line in text.splitlines() if line.startswith(b"Private_"))


def test_private_bytes_is_the_sum_smaps_lists_over_every_mapping() -> None:
    listed = private_in_smaps() * 1024
    rolled_up = peakmem.private_bytes()

    # Read one after the other: the first reading's own text (a few hundred KiB) may sit between.
    assert abs(rolled_up - listed) < 2 * MiB, f"rollup {rolled_up} B, smaps {listed} B"


def test_the_peak_of_an_operation_includes_memory_it_held_for_a_moment() -> None:
    held = 64 * MiB

    def hold_briefly() -> None:
        block = bytearray(held)  # zero-filled: every page written, so private
        time.sleep(5 * peakmem.PERIOD)
        del block

    before = peakmem.private_bytes()
    peak = peakmem.peak_timer(hold_briefly)(1)
    after = peakmem.private_bytes()

    assert peak >= before + held - MiB, f"before {before} B, peak {peak} B"
    assert after < peak - held / 2, f"peak {peak} B, after {after} B: the block was freed"


def test_a_machine_without_smaps_rollup_gets_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(peakmem, "ROLLUP", tmp_path / "smaps_rollup")

    with pytest.raises(RuntimeError, match=r"need .*smaps_rollup \(Linux 4.14 or later\)"):
        peakmem.PeakSampler().start()
