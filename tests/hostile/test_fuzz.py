"""The end-to-end fuzzer (`tests.hostile.fuzz`) in the suite: a fixed seed, a few seconds.

Generated WADL, root JSON and pages, served for real, give nothing but
wadlclient errors, and every walk, count, index and slice ends. The seed
is fixed so that a run finds what the last one found; with the walk's
request budget taken out, this run meets the hang of issue 40 (a next
link repeating between a walk's re-reads). A longer run, from new seeds:
``python -m tests.hostile.fuzz --minutes 10`` (``make fuzz``).
"""

from __future__ import annotations

from tests.hostile.fuzz import fuzz
from tests.hostile.server import HostileServer

#: The suite's seed and examples. Without the walk's budget, seed 15 meets the hang of
#: issue 40 at its 23rd example (seeds 15, 16, 17 and 25 did by their 26th, most others
#: between their 50th and 130th, as seed 40 did before pages drew their shape first).
SEED = 15
EXAMPLES = 120


def test_generated_wadl_root_json_and_pages_give_only_wadlclient_errors_and_end(
    hostile: HostileServer,
) -> None:
    fuzz(hostile, EXAMPLES, SEED)()
