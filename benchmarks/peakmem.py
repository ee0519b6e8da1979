"""The peak private memory of this process while an operation runs, read in one piece.

The ``rss*`` rows used to take pyperf's ``--track-memory``, which sums the
``Private_Clean`` and ``Private_Dirty`` lines of ``/proc/self/smaps``. That
file lists every mapping of the process (over 200 here, about 250 KB of
text), and pyperf reads it line by line from a Python thread: 8 KiB per
system call, the GIL handed back to the measured thread between calls, so
one reading took 7 to 60 ms of a walk that keeps creating threads and
mapping and freeing memory meanwhile. The sum is therefore not a
snapshot: a mapping read early and one read late can both hold the same
memory, and the kernel documents that a mapping that changes between two
pieces may be listed twice. The figures showed it: the same walk gave
26.6-27.5 MiB or, in about one sample in ten and at 10,000 as at 100,000
entries, 7 MiB more; an observer outside the process reading its
``smaps_rollup`` every 3 ms saw at most 26.5 MiB during walks that pyperf
reported at 33.3 MiB. Two samples per row, so one such reading moved
the median by 3.5 MiB.

Here the same sum is read from ``/proc/self/smaps_rollup``, which the kernel
adds up over all mappings in one pass and hands over in one short read, so
each sample is one state of the process. It is taken every `PERIOD` on a
thread of its own, as pyperf does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

__all__ = ["PERIOD", "ROLLUP", "PeakSampler", "peak_timer", "private_bytes"]

#: The kernel's sum over every mapping of this process (Linux 4.14 and later).
ROLLUP = Path("/proc/self/smaps_rollup")
#: Seconds between two samples (pyperf's own period).
PERIOD = 0.010


def private_bytes() -> int:
    """This process's private memory now: ``Private_Clean`` + ``Private_Dirty``, in bytes."""
    try:
        text = ROLLUP.read_bytes()
    except OSError as exc:
        raise RuntimeError(
            f"peak memory rows need {ROLLUP} (Linux 4.14 or later): {exc.strerror}"
        ) from None
    kib = sum(int(line.split()[1]) for line in text.splitlines() if line.startswith(b"Private_"))
    return kib * 1024


class PeakSampler:
    """The highest `private_bytes` seen between `start` and `stop`, sampled every `PERIOD`."""

    def __init__(self, period: float = PERIOD) -> None:
        self._period = period
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="peak-memory", daemon=True)
        self.peak = 0

    def _run(self) -> None:
        while True:
            self.peak = max(self.peak, private_bytes())
            if self._done.wait(self._period):
                return

    def start(self) -> None:
        """Take a first sample now, then keep sampling on the thread."""
        self.peak = private_bytes()
        self._thread.start()

    def stop(self) -> int:
        """Stop sampling; the peak, including one last sample taken now."""
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, private_bytes())
        return self.peak


def peak_timer(operation: Callable[[], object]) -> Callable[[int], float]:
    """A pyperf time function whose value is the peak private memory (bytes) of ``operation``.

    pyperf divides what it returns by ``loops``: the peak is multiplied back.
    """

    def time_func(loops: int) -> float:
        sampler = PeakSampler()
        sampler.start()
        try:
            for _ in range(loops):
                operation()
        finally:
            peak = sampler.stop()
        return float(peak * loops)

    return time_func
