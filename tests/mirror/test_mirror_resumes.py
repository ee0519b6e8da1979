"""A mirror killed with SIGKILL mid-walk, run again, ends with every entry once (issue 42, point 2).

The child process runs ``wadlclient mirror`` (forked from one that imported
the command line: tests/cli/forked_commands.py); this process kills it once its
shard progress shows a random number of committed entries (it is then
somewhere in a later page), and runs the same command again.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from tests.cli import forked_commands as forked
from tests.cli.forked_commands import ForkedCommands

from cookbook_service.testing import RunningService
from wadlclient.cli import main
from wadlclient.objects import Collection

from .conftest import requests

PAGE = Collection.ITERATION_PAGE_SIZE
#: Seven pages: the kill comes after two to four of them are committed.
RECIPES = 1000


@pytest.fixture
def service(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    return cookbook_service_factory(seed_recipes=RECIPES)


def command(service: RunningService, out: Path, *extra: str) -> list[str]:
    return [service.base_url, "cookbooks", "--out", str(out), "--op", "find_recipes",
            "--arg", "search=Generated", "--quiet", *extra]  # fmt: skip


@pytest.fixture
def forked_commands() -> ForkedCommands:
    """``wadlclient`` children forked from one process that imported it (a fresh start each)."""
    return forked.shared()


def ended(pid: int) -> bool:
    """Whether the child ``pid`` has ended (a zombie until waited for) or is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def committed(out: Path) -> int:
    try:
        return int(json.loads((out / ".parts" / "shard-000.json").read_text())["entries"])
    except (OSError, ValueError):
        return 0


def served(service: RunningService) -> list[int]:
    """How many times the service served each position of the operation's result."""
    served = [0] * (RECIPES + PAGE)
    for entry in requests(service):
        query = dict(parse_qsl(entry.query))
        if query.get("ws.op") != "find_recipes" or "ws.size" not in query:
            continue
        start = int(query.get("ws.start", 0))
        for position in range(start, start + int(query["ws.size"])):
            served[position] += 1
    return served


@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_a_mirror_killed_mid_walk_resumes_every_entry_once(
    service: RunningService, tmp_path: Path, format: str, forked_commands: ForkedCommands
) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    kill_after = random.Random(seed).choice([2 * PAGE, 3 * PAGE, 4 * PAGE])
    out = tmp_path / "mirror"
    service.journal.clear()
    with service.delayed(30):
        child = forked_commands.start("mirror", *command(service, out, "--format", format))
        deadline = time.monotonic() + 120
        while committed(out) < kill_after and not ended(child):
            assert time.monotonic() < deadline, "the child made no progress"
            time.sleep(0.005)
        os.kill(child, signal.SIGKILL)
        done = forked_commands.wait(child)
    assert done.returncode == -signal.SIGKILL, f"seed {seed}: the child ended first"
    assert not (out / f"entries.{format}").exists(), "no output before the run ends"
    done_before = committed(out)
    first = served(service)
    assert any(path.name.startswith("walkpage-") for path in (out / ".cache").iterdir())
    service.journal.clear()

    assert main(["mirror", *command(service, out, "--format", format)]) == 0

    if format == "jsonl":
        rows = [json.loads(line) for line in (out / "entries.jsonl").read_text().splitlines()]
        links = [row["self_link"] for row in rows]
    else:
        text = (out / "entries.csv").read_text().splitlines()[1:]
        links = [line.split(",", 1)[0] for line in text]
    assert len(links) == len(set(links)) == RECIPES, f"seed {seed}"
    # The second run re-reads at most a page before the committed place (one entry, in
    # fact); what it reads after that place the child had read but not committed: the
    # page it was reading and those it had fetched ahead.
    second = served(service)
    assert sum(second[:done_before]) <= PAGE, f"seed {seed}"
    # The pages the child had received and not committed it kept in the mirror's own cache
    # (DIR/.cache, without --cache): read again are only those still on the way when it was
    # killed, at most the look-ahead's, and one entry before the committed place.
    twice = sum(1 for a, b in zip(first, second, strict=True) if a and b)
    assert twice <= Collection.PREFETCH_DEPTH * PAGE + 1, f"seed {seed}"
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        f"entries.{format}"
    ]


def test_a_mirror_killed_after_its_first_part_resumes_with_a_cache_directory(
    service: RunningService, tmp_path: Path, forked_commands: ForkedCommands
) -> None:
    """As a nightly job names its cache: the killed walk's pages fetched ahead are kept there."""
    out, cache = tmp_path / "mirror", tmp_path / "cache"
    argv = [*command(service, out), "--cache", str(cache)]
    with service.delayed(30):
        child = forked_commands.start("mirror", *argv)
        deadline = time.monotonic() + 120
        while committed(out) < PAGE and not ended(child):
            assert time.monotonic() < deadline, "the child made no progress"
            time.sleep(0.002)
        os.kill(child, signal.SIGKILL)
        done = forked_commands.wait(child)
    assert done.returncode == -signal.SIGKILL, "the child ended first"

    assert main(["mirror", *argv]) == 0

    rows = [json.loads(line) for line in (out / "entries.jsonl").read_text().splitlines()]
    links = [row["self_link"] for row in rows]
    assert len(links) == len(set(links)) == RECIPES
