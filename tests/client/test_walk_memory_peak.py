"""A long walk peaks no higher than a short one (issue 14: flat peak allocations).

The bench's ``memory`` rows take tracemalloc's peak while iterating 10,000
and 100,000 entries. Here the same is measured at a small page size, so
that many requests fit in a short test: whatever a walk leaves behind per
request (a memo of page URLs, a spare tuple parked in one of CPython's free
lists by each ``namedtuple._replace``) raises the longer walk's peak.

The service runs in a process of its own: an in-process server's
allocations (its journal grows by one entry per request) would be traced
with the client's. It asks for OAuth, so that every request is signed
(anonymously: any consumer may read that way).
"""

from __future__ import annotations

import gc
import itertools
import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.services import free_port

from wadlclient import AccessToken, Collection, OAuthAuthorizer, ServiceRoot

PAGE = 5
#: More pages than urlsplit's memo holds (128 URLs; oauthlib's signing splits each page's
#: URL): tracemalloc counts the entries that replace those made before it started, so a
#: walk of fewer pages would peak lower for that bounded reason alone.
SHORT = 140 * PAGE
LONG = 4 * SHORT
#: Room for the walks' noise (which requests are in flight at the peak).
SLACK = 16 * 1024


@pytest.fixture(scope="module")
def long_collection() -> Iterator[str]:
    """The base URL of an OAuth example service with more recipes than the long walk reads."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cookbook_service", "--port", str(port), "--auth", "oauth",
         "--page-size", str(PAGE), "--seed-recipes", str(LONG + 10)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base_url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, "the example service did not start"
            assert time.monotonic() < deadline, "the example service did not start in 30 s"
            try:
                # A bare connection: an HTTP client made for each try (an httpx one
                # loads the CA bundle into a TLS context every time) cost a second of CPU.
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield base_url
    finally:
        server.terminate()
        server.wait(timeout=10)


def peaks_of_walk(root: ServiceRoot, short: int, long: int) -> tuple[int, int]:
    """tracemalloc's peaks in one walk of the recipes: once ``short`` were read, then ``long``.

    The peak only rises, so whatever the walk leaves behind per request from
    ``short`` on shows in the second; one walk measures both, as two walks
    (the short one, then the long one from the start) did.
    """
    # A full collection also empties CPython's free lists: the walk starts clean.
    gc.collect()
    tracemalloc.start()
    try:
        recipes = iter(root.recipes)
        walked = sum(1 for _ in itertools.islice(recipes, short))
        short_peak = tracemalloc.get_traced_memory()[1]
        walked += sum(1 for _ in itertools.islice(recipes, long - short))
        long_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert walked == long
    return short_peak, long_peak


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="on Python 3.10 this walk's traced peak rises by about 7 bytes an entry (+59 kB "
    "over 7,700 more entries), at 3967e73 as now: not yet traced to its source; the rule "
    "holds on 3.11 and later (measured 2-3 kB for the same walks)",
)
@pytest.mark.usefixtures("python_gc_thresholds")
def test_a_walk_four_times_as_long_peaks_no_higher(
    long_collection: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    anonymous = OAuthAuthorizer("walker", "", AccessToken("", ""))
    with ServiceRoot(anonymous, long_collection, cache=str(tmp_path)) as root:
        # Imports, connections, memos: first-use set-up is not compared (nor traced: tracing
        # it would only cost time, the state it leaves is the same).
        assert sum(1 for _ in itertools.islice(root.recipes, SHORT)) == SHORT

        short, long = peaks_of_walk(root, SHORT, LONG)

    assert long <= short + SLACK, f"{SHORT} entries peak at {short} B, {LONG} at {long} B"
