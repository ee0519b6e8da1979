"""A walk of 10,000 entries killed with SIGKILL resumes from its last token in another process.

The issue's test (41): the child walks the collection, writing each entry
and the walk's token after it (its checkpoint), and kills itself with
SIGKILL at a random page; this process resumes from the last token it
wrote. Together they hand out every entry exactly once, and the service's
journal shows at most one page read twice (and the one entry before the
place, which the resume reads again to find it).

With the look-ahead (the default), the child has pages fetched ahead when
it dies. As a job runs, on the same machine (or with the same Redis), the
child and the resumer share a cache directory: the child keeps each page
it receives there until it has handed it out (`wadlclient.objects.kept`),
and the resumer uses them without a request. What is read twice is the
page whose request was in flight when the child died: one, for a walk
whose caller takes longer over a page than the service takes to serve one
(the child waits a little on each entry, as a job's work does).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot

from .conftest import clear_journal, journal_entries

#: The generated recipes: with the seed's public ones, the walk is a little over 10,000 long.
RECIPES = 10_000

CHILD = """
import os, signal, sys, time
from wadlclient import Collection, ServiceRoot

url, kill_at, depth, cache = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
Collection.PREFETCH_DEPTH = depth
root = ServiceRoot(None, url, cache=cache or None)
walk = root.recipes.walk()
for count, recipe in enumerate(walk, 1):
    time.sleep(0.0002)  # the job's work on the entry
    sys.stdout.write(f"{recipe.self_link} {walk.token}\\n")
    sys.stdout.flush()  # the checkpoint: what a job would write to its database
    if count == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.fixture
def service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    return cookbook_service_factory(seed_recipes=RECIPES)


def served_twice(service: RunningService, total: int) -> int:
    """How many positions of the collection the service served more than once."""
    served = [0] * total
    for entry in journal_entries(service):
        if entry.method != "GET" or not entry.path.endswith("/recipes") or not entry.query:
            continue
        query = dict(parse_qsl(entry.query))
        start = int(query.get("ws.start", 0))
        for position in range(start, min(total, start + int(query["ws.size"]))):
            served[position] += 1
    return sum(1 for count in served if count > 1)


@pytest.mark.parametrize(
    ("depth", "shared"),
    [(0, False), (Collection.PREFETCH_DEPTH, True)],
    ids=["no look-ahead, own caches", "look-ahead, one cache directory"],
)
def test_a_walk_killed_at_a_random_page_resumes_in_another_process_every_entry_once(
    service: RunningService, depth: int, shared: bool, tmp_path: Path
) -> None:
    cache = str(tmp_path) if shared else ""  # "": each process its own temporary cache
    page = Collection.ITERATION_PAGE_SIZE
    rows, total = service.store.recipes(0, 2 * RECIPES, sees_private=False)
    everything = {f"{service.base_url}1.0/recipes/{row['id']}" for row in rows}
    assert total == len(everything) > RECIPES
    seed = int.from_bytes(os.urandom(4), "big")
    pick = random.Random(seed)
    kill_at = pick.randrange(1, total // page - 1) * page + pick.randrange(page)
    clear_journal(service)

    child = subprocess.run(
        [sys.executable, "-c", CHILD, service.base_url, str(kill_at), str(depth), cache],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert child.returncode == -9, child.stderr[-2000:]
    lines = [line.split(" ") for line in child.stdout.splitlines()]
    assert len(lines) == kill_at, f"seed {seed}"
    first = [link for link, _token in lines]
    with ServiceRoot(None, service.base_url, cache=cache or None) as root:
        resumed = [recipe.self_link for recipe in root.recipes.walk(resume=lines[-1][1])]

    handed = first + resumed
    assert len(handed) == len(set(handed)) == total, f"seed {seed}, killed at {kill_at}"
    assert set(handed) == everything
    # Without a look-ahead: the page the child was reading, from just before the place. With
    # one: the page in flight when it died, and the entry before the window that follows.
    assert served_twice(service, total) <= page + 1, f"seed {seed}, killed at {kill_at}"
    # The resumed walk ended: it left no page in the cache.
    assert not [path for path in tmp_path.iterdir() if path.name.startswith("walkpage-")]
