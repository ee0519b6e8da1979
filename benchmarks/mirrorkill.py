"""A mirror killed with SIGKILL at a random moment and run again, at full size (issue 42).

On the cookbook service with 20,000 generated recipes at 150 ms latency,
for JSON Lines and for CSV: one ``wadlclient mirror`` run uninterrupted
(its wall time sets the window the kills fall in), then for each round a
fresh directory, a run killed with SIGKILL at a moment drawn uniformly from
5 % to 95 % of that wall time, and the same command again; each round
twice: with the command's default cache (a private one per run) and with
``--cache DIR`` shared by both runs, where a killed walk keeps the pages it
fetched ahead for the resumed one (docs/long-jobs.md). Checked on the
output: every recipe exactly once (none missing, none twice). Counted in the
service's journal (the service runs in this process; the mirrors are
``python -m wadlclient mirror`` children): the result's page requests of the
second run that cover positions the killed run had read (pages read twice:
the goal is at most one), the entries those cover, and how many of them lie
before the place the killed run had committed (what the resume token
controls; those after it were read ahead by the killed run and not yet
committed). The seed of each round is printed, so a round can be run again.

The tests run the same check at 1,000 recipes without latency
(``tests/mirror/test_mirror_resumes.py``); this one takes minutes, so it
runs on demand: ``make soak`` (``python -m benchmarks.mirrorkill``), which
exits non-zero when an entry is missing or twice. ``make bench`` includes it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from benchmarks.config import REPO_ROOT, measured_env
from benchmarks.report import load_average

LATENCY = 150
ENTRIES = 20_000
ROUNDS = 3
FORMATS = ("jsonl", "csv")
#: The service's default page, as in the other sections (the mirror asks for 150).
PAGE_SIZE = 75
#: How both runs of a round are started: the default cache, or a cache directory they share.
CACHES = ("default", "--cache DIR")


def _command(base_url: str, out: Path, format: str, cache: Path | None) -> list[str]:
    return [sys.executable, "-m", "wadlclient", "mirror", base_url, "cookbooks",
            "--out", str(out), "--op", "find_recipes", "--arg", "search=Generated",
            "--format", format, "--quiet",
            *(["--cache", str(cache)] if cache is not None else [])]  # fmt: skip


def _run(
    base_url: str, out: Path, format: str, kill_at: float | None = None, cache: Path | None = None
) -> float:
    """One mirror in a child process, killed after ``kill_at`` seconds if given; its wall."""
    started = time.perf_counter()
    child = subprocess.Popen(
        _command(base_url, out, format, cache), cwd=REPO_ROOT, env=measured_env(),
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        child.wait(None if kill_at is None else kill_at)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGKILL)
        child.wait()
    seconds = time.perf_counter() - started
    error = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if kill_at is None and child.returncode != 0:
        raise RuntimeError(f"mirror exited {child.returncode}: {error[-1500:]}")
    if child.stderr:
        child.stderr.close()
    return seconds


def _links(out: Path, format: str) -> list[str]:
    """The ``self_link`` of every row of the output, in order."""
    if format == "jsonl":
        lines = (out / "entries.jsonl").read_text().splitlines()
        return [json.loads(line)["self_link"] for line in lines]
    lines = (out / "entries.csv").read_text().splitlines()[1:]
    return [line.split(",", 1)[0] for line in lines]


def _committed(out: Path) -> int:
    """The entries the killed run had committed (0 before its first commit or once finishing)."""
    try:
        return int(json.loads((out / ".parts" / "shard-000.json").read_text())["entries"])
    except (OSError, ValueError, KeyError):
        return 0


def _pages(journal: Any) -> list[tuple[int, int]]:
    """``(start, size)`` of each page of the operation's result the service served."""
    pages = []
    for entry in journal.entries():
        query = dict(parse_qsl(entry.query))
        if query.get("ws.op") == "find_recipes" and "ws.size" in query:
            pages.append((int(query.get("ws.start", 0)), int(query["ws.size"])))
    return pages


def _round(
    service: Any, format: str, full: float, seed: int, scratch: Path, cache: str
) -> dict[str, Any]:
    """One kill and resume: what the output holds and what was read twice."""
    rng = random.Random(seed)
    kill_at = rng.uniform(0.05, 0.95) * full
    out = Path(tempfile.mkdtemp(dir=scratch))
    shared = out.parent / (out.name + "-cache") if cache != CACHES[0] else None
    service.journal.clear()
    killed_wall = _run(service.base_url, out, format, kill_at, shared)
    time.sleep(0.5)  # the killed child's requests still in the service are answered
    done = _committed(out)
    # A run faster than the uninterrupted one may have ended before its kill: the run after
    # it is then the next night's, reading every page by design, not a resume.
    ended = (out / f"entries.{format}").exists()
    first = _pages(service.journal)
    service.journal.clear()
    try:
        resumed_wall = _run(service.base_url, out, format, cache=shared)
    except RuntimeError as error:
        # The run after the kill failed: the round says why (a failure of the mirror).
        return {"cache": cache, "seed": seed, "kill_at": round(kill_at, 2), "committed": done,
                "error": str(error).strip().splitlines()[-1]}  # fmt: skip
    second = _pages(service.journal)
    read = set()
    for start, size in first:
        read.update(range(start, start + size))
    again = [(start, size) for start, size in second
             if any(p in read for p in range(start, start + size))]  # fmt: skip
    positions = {p for start, size in again for p in range(start, start + size) if p in read}
    links = _links(out, format)
    return {
        "cache": cache, "seed": seed, "kill_at": round(kill_at, 2),
        "killed_wall": round(killed_wall, 2),
        "resumed_wall": round(resumed_wall, 2), "committed": done, "rows": len(links),
        "distinct": len(set(links)), "pages_again": len(again),
        "entries_again": len(positions), "before_place": sum(1 for p in positions if p < done),
        "requests_second": len(second), "ended": ended,
    }  # fmt: skip


def measure(scratch: Path, smoke: bool = False, rounds: int = ROUNDS) -> dict[str, Any]:
    """The reference wall and the rounds, per format."""
    from cookbook_service.testing import run_service

    entries = 600 if smoke else ENTRIES
    results: dict[str, Any] = {"entries": entries, "load_start": load_average(), "formats": {}}
    with run_service(seed_recipes=entries, page_size=PAGE_SIZE, latency_ms=LATENCY) as service:
        for format in FORMATS:
            full = _run(service.base_url, Path(tempfile.mkdtemp(dir=scratch)), format)
            print(f"  {format}: uninterrupted {full:.2f} s", flush=True)
            found = []
            for _ in range(1 if smoke else rounds):
                for cache in CACHES:
                    seed = int.from_bytes(os.urandom(4), "big")
                    got = _round(service, format, full, seed, scratch, cache)
                    got["expected"] = entries  # every generated recipe matches "Generated"
                    found.append(got)
                    print(f"  {format}: {got}", flush=True)
            results["formats"][format] = {"full": full, "rounds": found}
    results["load_end"] = load_average()
    return results


def _short(error: str) -> str:
    """An error's message with each URL cut to its query's ``ws.start`` (the rows stay short)."""
    words = []
    for word in error.removeprefix("mirror exited 1: ").split():
        if "://" in word:
            start = dict(parse_qsl(urlsplit(word).query)).get("ws.start")
            word = f"<page ws.start={start}>" if start is not None else "<URL>"
        words.append(word)
    return " ".join(words)


def failures(results: dict[str, Any]) -> list[str]:
    """The rounds whose output misses an entry or holds one twice, said plainly."""
    bad = []
    for format, found in results["formats"].items():
        for got in found["rounds"]:
            if "error" in got:
                bad.append(f"{format}, {got['cache']} cache, seed {got['seed']}: "
                           f"{_short(got['error'])}")  # fmt: skip
            elif not got["rows"] == got["distinct"] == got["expected"]:
                bad.append(f"{format}, seed {got['seed']}: {got['rows']} rows, "
                           f"{got['distinct']} distinct, {got['expected']} expected")  # fmt: skip
    return bad


def markdown(results: dict[str, Any]) -> str:
    """One row per kill: the output's counts and what the second run read again."""
    lines = [
        f"## A mirror killed with SIGKILL and run again: {results['entries']} recipes at "
        f"{LATENCY} ms",
        "",
        "`python -m benchmarks.mirrorkill` (`make soak`): per format, one uninterrupted "
        "`wadlclient mirror` (its wall sets the window), then per round a run killed at a "
        "random moment in 5-95 % of that window and the same command again, each in a fresh "
        "directory, with the command's default cache and with a `--cache DIR` both runs "
        "share. Pages read twice: page requests of the second run that cover positions "
        "the killed run had read (goal: at most 1); of the entries they cover, those before "
        "the place the killed run had committed. Goal: every entry exactly once. "
        f"Load average at start {results['load_start']}, at end {results['load_end']}.",
        "",
        "| format | cache | uninterrupted | killed at | committed then | resumed run | rows "
        "| duplicates | missing | pages read twice | entries read twice (before the place) "
        "| seed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for format, found in results["formats"].items():
        for got in found["rounds"]:
            if "error" in got:
                lines.append(
                    f"| {format} | {got['cache']} | {found['full']:.2f} s | {got['kill_at']:.2f} s "
                    f"| {got['committed']} | failed: {_short(got['error'])} | | | | | "
                    f"| {got['seed']} |"
                )
                continue
            lines.append(
                f"| {format} | {got['cache']} | {found['full']:.2f} s | {got['kill_at']:.2f} s "
                f"| {got['committed']} | {got['resumed_wall']:.2f} s | {got['rows']} "
                f"| {got['rows'] - got['distinct']} | {got['expected'] - got['distinct']} "
                + (
                    f"| ended before the kill: a second run, {got['pages_again']} pages | "
                    if got.get("ended")
                    else f"| {got['pages_again']} | {got['entries_again']} ({got['before_place']}) "
                )
                + f"| {got['seed']} |"
            )
    bad = failures(results)
    rounds = [got for found in results["formats"].values() for got in found["rounds"]]
    verdict = "yes" if not bad else f"NO: {len(bad)} of {len(rounds)} rounds failed (above)"
    lines += ["", f"Every entry exactly once: {verdict}."]
    for cache in CACHES:
        kept = [
            got for got in rounds
            if got["cache"] == cache and "error" not in got and not got.get("ended")
        ]  # fmt: skip
        pages = [got["pages_again"] for got in kept]
        if not pages:
            continue
        lines[-1] += (
            f" Pages read twice, {cache} cache: median {statistics.median(pages):g}, most "
            f"{max(pages)} (goal at most 1: {'meets' if max(pages) <= 1 else 'misses'}; "
            f"{sum(1 for p in pages if p > 1)} of {len(pages)} rounds above)."
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mirrorkill", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="600 recipes, one round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="kills per format")
    parser.add_argument("--markdown", type=Path, help="where to write the section")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        results = measure(Path(scratch), args.smoke, args.rounds)
    text = markdown(results)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    bad = failures(results)
    for line in bad:
        print(f"mirrorkill: an entry missing or twice: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
