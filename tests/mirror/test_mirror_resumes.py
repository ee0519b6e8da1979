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
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from tests.cli import forked_commands as forked
from tests.cli.forked_commands import ForkedCommands

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.cli import main
from wadlclient.mirror import MirrorError, mirror
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


def test_a_mirror_killed_before_its_first_batch_resumes_from_the_pages_it_kept(
    service: RunningService, tmp_path: Path
) -> None:
    """The first entry is committed at once: its token names the walk whose pages are kept.

    The child's work hangs on the second entry (a call to another system
    that never answers), its first page received; killed then, the run
    after goes on from the pages it kept and reads none of the first page again.
    """
    out, log = tmp_path / "mirror", tmp_path / "worked.txt"
    log.touch()
    env = {**os.environ, "MIRROR_WORK_LOG": str(log),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}  # fmt: skip
    service.journal.clear()
    argv = [sys.executable, "-m", "wadlclient", "mirror",
            *command(service, out, "--work", "mirror_work:note_then_stall")]  # fmt: skip
    child = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while "stalled" not in log.read_text() and child.poll() is None:
            assert time.monotonic() < deadline, "the child made no progress"
            time.sleep(0.005)
        while not list((out / ".cache").glob("walkpage-*")):
            assert time.monotonic() < deadline, "the child kept no page"
            time.sleep(0.005)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the child ended first"
    first = served(service)
    assert first[:PAGE] == [1] * PAGE  # the first page, served once to the child
    service.journal.clear()

    assert main(["mirror", *command(service, out)]) == 0

    links = [
        json.loads(line)["self_link"] for line in (out / "entries.jsonl").read_text().splitlines()
    ]
    assert len(links) == len(set(links)) == RECIPES
    # The rest of the first page came from the cache; the next page's request starts one
    # entry back, at the last entry kept (the killed run may have written meanwhile).
    assert served(service)[: PAGE - 1] == [0] * (PAGE - 1)


def pages_in_flight(service: RunningService) -> int:
    """The most page requests of the operation's result the service was serving at once."""
    pages = [entry for entry in requests(service) if "ws.size" in entry.query]
    events = sorted([(entry.started, 1) for entry in pages] + [(e.answered, -1) for e in pages])
    busy = peak = 0
    for _when, change in events:
        busy += change
        peak = max(peak, busy)
    return peak


def test_a_mirror_with_a_pages_ahead_of_one_has_one_page_in_flight_at_most(
    service: RunningService, tmp_path: Path
) -> None:
    service.journal.clear()
    with service.delayed(30):
        assert main(["mirror", *command(service, tmp_path / "mirror", "--pages-ahead", "1")]) == 0
    assert pages_in_flight(service) == 1
    pages = [entry for entry in requests(service) if "ws.size" in entry.query]
    assert len(pages) == -(-RECIPES // PAGE)  # every page once

    service.journal.clear()
    with service.delayed(30):
        assert main(["mirror", *command(service, tmp_path / "default")]) == 0
    assert pages_in_flight(service) == Collection.PREFETCH_DEPTH


@pytest.mark.parametrize("value", ["-1", "two"])
def test_pages_ahead_that_is_not_a_count_is_a_usage_error(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["mirror", *command(service, tmp_path / "m", "--pages-ahead", value)])

    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert f"--pages-ahead: expected a whole number of 0 or more, not '{value}'" in err
    assert not (tmp_path / "m").exists()


def test_pages_ahead_that_is_not_a_count_is_a_mirror_error(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root, pytest.raises(MirrorError) as error:
        mirror(root, "cookbooks", tmp_path, op="find_recipes", pages_ahead=-1)
    assert str(error.value) == "pages_ahead must be a whole number of 0 or more, not -1"
