"""A mirror killed with SIGKILL at a random moment and run again, at full size (issue 42).

On the cookbook service with 20,000 generated recipes at 150 ms latency,
for JSON Lines and for CSV, and for each look-ahead setting (the command's
default, two pages, and ``--pages-ahead 1``): one ``wadlclient mirror`` run
uninterrupted (its wall time sets the window the kills fall in), then for
each round a fresh directory, a run killed with SIGKILL at a moment drawn
uniformly from 5 % to 95 % of that wall time, and the same command again
(both use the mirror's own cache, ``DIR/.cache``, where the killed walk
keeps the pages it received and has not committed: docs/long-jobs.md).
Checked on the output: every recipe exactly once (none missing, none
twice). Counted in the service's journal (the service runs in this
process; the mirrors are ``python -m wadlclient mirror`` children): the
second run's requests that read again pages the killed run had been served
(the goal is at most one page), and of them those *in flight at the kill*:
each request of the killed run covering them was answered (the journal's
time, on this process's monotonic clock) after the kill was sent. No
process can keep those; any other page read twice is one the killed run
received, which the kept pages should have spared (`read_twice`). The seed
of each round is printed (``--seed`` draws them all from one).

The tests run the same check at 1,000 recipes without latency
(``tests/mirror/test_mirror_resumes.py``); this one takes minutes, so it
runs on demand: ``make soak`` (``python -m benchmarks.mirrorkill``), which
exits non-zero when an entry is missing or twice. ``make bench`` includes it.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlsplit

from benchmarks.config import REPO_ROOT, measured_env
from benchmarks.report import load_average

LATENCY = 150
ENTRIES = 20_000
ROUNDS = 3
FORMATS = ("jsonl", "csv")
#: The service's default page, as in the other sections (the mirror asks for 150).
PAGE_SIZE = 75
#: The look-ahead settings measured: the command's default (None: 2 pages) and ``--pages-ahead 1``.
PAGES_AHEADS: tuple[int | None, ...] = (None, 1)


def _command(base_url: str, out: Path, format: str, pages_ahead: int | None) -> list[str]:
    return [sys.executable, "-m", "wadlclient", "mirror", base_url, "cookbooks",
            "--out", str(out), "--op", "find_recipes", "--arg", "search=Generated",
            "--format", format, "--quiet",
            *(["--pages-ahead", str(pages_ahead)] if pages_ahead is not None else [])]  # fmt: skip


def _run(
    base_url: str, out: Path, format: str, kill_at: float | None = None,
    pages_ahead: int | None = None,
) -> tuple[float, float | None]:  # fmt: skip
    """One mirror in a child process, killed after ``kill_at`` seconds if given.

    Its wall, and the moment of the kill (``time.monotonic()``, the clock of
    the service's journal; None if it ended first).
    """
    started = time.perf_counter()
    child = subprocess.Popen(
        _command(base_url, out, format, pages_ahead), cwd=REPO_ROOT, env=measured_env(),
        stderr=subprocess.PIPE,
    )  # fmt: skip
    killed: float | None = None
    try:
        child.wait(None if kill_at is None else kill_at)
    except subprocess.TimeoutExpired:
        killed = time.monotonic()
        child.send_signal(signal.SIGKILL)
        child.wait()
    seconds = time.perf_counter() - started
    error = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if kill_at is None and child.returncode != 0:
        raise RuntimeError(f"mirror exited {child.returncode}: {error[-1500:]}")
    if child.stderr:
        child.stderr.close()
    return seconds, killed


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


class Served(NamedTuple):
    """A page of the operation's result the service served: its positions and its times."""

    start: int
    size: int
    started: float
    answered: float

    def positions(self) -> range:
        return range(self.start, self.start + self.size)


def _pages(journal: Any) -> list[Served]:
    """Each page of the operation's result the service served (the call itself: its first page)."""
    pages = []
    for entry in journal.entries():
        query = dict(parse_qsl(entry.query))
        if query.get("ws.op") == "find_recipes":
            size = int(query.get("ws.size", PAGE_SIZE))
            start = int(query.get("ws.start", 0))
            pages.append(Served(start, size, entry.started, entry.answered))
    return pages


def kept_pages(out: Path) -> set[int]:
    """The offsets of the pages the killed run left in its cache (`wadlclient.objects.kept`)."""
    offsets = set()
    for path in (out / ".cache").glob("walkpage-*"):
        lines = path.read_bytes().split(b"\n", 2)
        if len(lines) == 3:
            url = lines[1].decode(errors="replace").split(" ", 2)[-1]
            offsets.add(int(dict(parse_qsl(urlsplit(url).query)).get("ws.start", 0)))
    return offsets


def read_twice(
    first: list[Served], second: list[Served], killed: float, kept: set[int]
) -> dict[str, Any]:
    """What the run after the kill read again, each page told apart by the journal's times.

    A request of the second run reads a page twice when it covers more
    positions the killed run had been served than its first one (a window
    after kept pages starts one entry back, by design: that entry is counted
    in ``entries``, not as a page). Such a page was *in flight* at the kill
    when every request of the killed run that covered those positions was
    answered after the kill (no process could have kept it). Otherwise the
    killed run had been answered: *kept* if its page was in the cache after
    the kill (the resume should have used it: a bug), else *not kept* (still
    on its way in the killed process, or dropped too soon), with how long
    before the kill the service answered.
    """
    again, in_flight, entries, kept_again, not_kept = 0, 0, 0, [], []
    for request in second:
        overlap = [
            served for served in first
            if served.start < request.start + request.size
            and request.start < served.start + served.size
        ]  # fmt: skip
        covered = {p for served in overlap for p in served.positions()}
        positions = [p for p in request.positions() if p in covered]
        entries += len(positions)
        beyond = [p for p in positions if p != request.start]
        if not beyond:
            continue
        again += 1
        sources = [served for served in overlap if any(p in beyond for p in served.positions())]
        if all(served.answered >= killed for served in sources):
            in_flight += 1
            continue
        answered = [s for s in sources if s.answered < killed]
        detail = [[s.start, round(killed - s.answered, 3)] for s in answered]
        (kept_again if any(s.start in kept for s in answered) else not_kept).append(detail)
    return {"pages_again": again, "in_flight": in_flight, "entries_again": entries,
            "kept_again": kept_again, "not_kept": not_kept}  # fmt: skip


def _round(
    service: Any, format: str, full: float, seed: int, scratch: Path, pages_ahead: int | None
) -> dict[str, Any]:
    """One kill and resume: what the output holds and what was read twice."""
    rng = random.Random(seed)
    kill_at = rng.uniform(0.05, 0.95) * full
    out = Path(tempfile.mkdtemp(dir=scratch))
    service.journal.clear()
    killed_wall, killed = _run(service.base_url, out, format, kill_at, pages_ahead)
    time.sleep(0.5)  # the killed child's requests still in the service are answered
    done = _committed(out)
    # A run faster than the uninterrupted one may have ended before its kill: the run after
    # it is then the next night's, reading every page by design, not a resume.
    ended = killed is None or (out / f"entries.{format}").exists()
    first = _pages(service.journal)
    kept = kept_pages(out)
    service.journal.clear()
    setting = "default" if pages_ahead is None else str(pages_ahead)
    try:
        resumed_wall, _ = _run(service.base_url, out, format, pages_ahead=pages_ahead)
    except RuntimeError as error:
        # The run after the kill failed: the round says why (a failure of the mirror).
        return {"pages_ahead": setting, "seed": seed, "kill_at": round(kill_at, 2),
                "committed": done, "error": str(error).strip().splitlines()[-1]}  # fmt: skip
    second = _pages(service.journal)
    links = _links(out, format)
    return {
        "pages_ahead": setting, "seed": seed, "kill_at": round(kill_at, 2),
        "killed_wall": round(killed_wall, 2),
        "resumed_wall": round(resumed_wall, 2), "committed": done, "rows": len(links),
        "distinct": len(set(links)), "requests_second": len(second), "ended": ended,
        **read_twice(first, second, killed if killed is not None else float("inf"), kept),
    }  # fmt: skip


def measure(
    scratch: Path, smoke: bool = False, rounds: int = ROUNDS, *, entries: int | None = None,
    latency: int = LATENCY, pages_aheads: tuple[int | None, ...] = PAGES_AHEADS,
    formats: tuple[str, ...] = FORMATS, seed: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The reference wall and the rounds, per format and look-ahead setting.

    ``seed``: where the rounds' seeds come from (else the system's randomness).
    """
    from cookbook_service.testing import run_service

    count = entries if entries is not None else 600 if smoke else ENTRIES
    seeds = random.Random(seed) if seed is not None else random.SystemRandom()
    results: dict[str, Any] = {
        "entries": count, "latency": latency, "load_start": load_average(), "formats": {},
    }  # fmt: skip
    with run_service(seed_recipes=count, page_size=PAGE_SIZE, latency_ms=latency) as service:
        for format in formats:
            walls, found = {}, []
            for pages_ahead in pages_aheads:
                setting = "default" if pages_ahead is None else str(pages_ahead)
                out = Path(tempfile.mkdtemp(dir=scratch))
                walls[setting], _ = _run(service.base_url, out, format, pages_ahead=pages_ahead)
                print(f"  {format}, pages ahead {setting}: uninterrupted "
                      f"{walls[setting]:.2f} s", flush=True)  # fmt: skip
            for _ in range(1 if smoke else rounds):
                for pages_ahead in pages_aheads:
                    setting = "default" if pages_ahead is None else str(pages_ahead)
                    got = _round(service, format, walls[setting], seeds.getrandbits(32),
                                 scratch, pages_ahead)  # fmt: skip
                    got["expected"] = count  # every generated recipe matches "Generated"
                    got["full"] = walls[setting]
                    found.append(got)
                    print(f"  {format}: {got}", flush=True)
            results["formats"][format] = {"full": walls, "rounds": found}
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
                bad.append(f"{format}, pages ahead {got['pages_ahead']}, seed {got['seed']}: "
                           f"{_short(got['error'])}")  # fmt: skip
            elif not got["rows"] == got["distinct"] == got["expected"]:
                bad.append(f"{format}, seed {got['seed']}: {got['rows']} rows, "
                           f"{got['distinct']} distinct, {got['expected']} expected")  # fmt: skip
    return bad


def _others(got: dict[str, Any]) -> str:
    """The pages read twice that were not in flight at the kill, said briefly."""
    said = [
        f"{start}: answered {before:.3f} s before the kill, {kind}"
        for key, kind in (("kept_again", "kept yet read again"), ("not_kept", "not kept yet"))
        for detail in got[key]
        for start, before in detail
    ]  # fmt: skip
    return "; ".join(said) or "none"


def _row(format: str, got: dict[str, Any]) -> str:
    head = (f"| {format} | {got['pages_ahead']} | {got['full']:.2f} s | {got['kill_at']:.2f} s "
            f"| {got['committed']} ")  # fmt: skip
    if "error" in got:
        return head + f"| failed: {_short(got['error'])} | | | | | | | | {got['seed']} |"
    counts = (f"| {got['resumed_wall']:.2f} s | {got['rows']} | {got['rows'] - got['distinct']} "
              f"| {got['expected'] - got['distinct']} ")  # fmt: skip
    if got.get("ended"):
        return head + counts + f"| ended before the kill: a second run | | | | {got['seed']} |"
    again = (f"| {got['pages_again']} | {got['in_flight']} | {_others(got)} "
             f"| {got['entries_again']} ")  # fmt: skip
    return head + counts + again + f"| {got['seed']} |"


def summary(results: dict[str, Any]) -> list[str]:
    """Per look-ahead setting: pages read twice and those in flight at the kill (median, most)."""
    rounds = [got for found in results["formats"].values() for got in found["rounds"]]
    lines = []
    for setting in dict.fromkeys(got["pages_ahead"] for got in rounds):
        measured = [
            got for got in rounds
            if got["pages_ahead"] == setting and "error" not in got and not got.get("ended")
        ]  # fmt: skip
        if not measured:
            continue
        pages = [got["pages_again"] for got in measured]
        flight = [got["in_flight"] for got in measured]
        kept = sum(len(got["kept_again"]) for got in measured)
        waiting = [before for got in measured for d in got["not_kept"] for _, before in d]
        walls = ", ".join(
            f"{format} {found['full'][setting]:.2f} s"
            for format, found in results["formats"].items() if setting in found["full"]
        )  # fmt: skip
        lines.append(
            f"- pages ahead {setting} (uninterrupted: {walls}), {len(measured)} rounds "
            f"killed mid-walk: pages read twice median {statistics.median(pages):g}, most "
            f"{max(pages)} (goal at most 1: {'meets' if max(pages) <= 1 else 'misses'}, "
            f"{sum(1 for p in pages if p > 1)} rounds above); of them in flight at the kill "
            f"median {statistics.median(flight):g}, most {max(flight)}; the others: {kept} "
            f"kept yet read again, {len(waiting)} answered before the kill but not kept yet"
            + (f" ({min(waiting):.3f}-{max(waiting):.3f} s before)" if waiting else "")
            + "."
        )
    return lines


def markdown(results: dict[str, Any]) -> str:
    """One row per kill: the output's counts and what the second run read again."""
    lines = [
        f"## A mirror killed with SIGKILL and run again: {results['entries']} recipes at "
        f"{results['latency']} ms",
        "",
        "`python -m benchmarks.mirrorkill` (`make soak`): per format and look-ahead setting "
        "(`--pages-ahead`, default 2), one uninterrupted `wadlclient mirror` (its wall sets "
        "the window), then per round a run killed at a random moment in 5-95 % of that "
        "window and the same command again, in a fresh directory (the mirror's own cache, "
        "`DIR/.cache`, keeps the pages the killed run received and had not committed). "
        "Pages read twice: requests of the second run that cover positions the killed run "
        "had been served, beyond the one entry a window starts with. In flight at the kill: "
        "those whose every request in the killed run was answered after the kill (the "
        "service's journal against the kill's moment): served, never received, no process "
        "could keep them. The others: answered before the kill, and found kept in the "
        "cache after it or not. Goal: every entry exactly once, at most one page read "
        "twice. "
        f"Load average at start {results['load_start']}, at end {results['load_end']}.",
        "",
        "| format | pages ahead | uninterrupted | killed at | committed then | resumed run "
        "| rows | duplicates | missing | pages read twice | of them in flight at the kill "
        "| the others | entries read twice | seed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for format, found in results["formats"].items():
        lines += [_row(format, got) for got in found["rounds"]]
    bad = failures(results)
    rounds = [got for found in results["formats"].values() for got in found["rounds"]]
    verdict = "yes" if not bad else f"NO: {len(bad)} of {len(rounds)} rounds failed (above)"
    lines += ["", f"Every entry exactly once: {verdict}.", "", *summary(results)]
    return "\n".join(lines) + "\n"


def _pages_ahead(text: str) -> int | None:
    return None if text == "default" else int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mirrorkill", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="600 recipes, one round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="kills per format and setting")
    parser.add_argument("--entries", type=int, help=f"recipes (default {ENTRIES:,})")
    parser.add_argument("--latency", type=int, default=LATENCY, help="ms before each answer")
    parser.add_argument("--pages-ahead", type=_pages_ahead, action="append", dest="pages_aheads",
                        metavar="N|default", help="a look-ahead setting to measure "
                        "(repeatable; default: the command's default and 1)")  # fmt: skip
    parser.add_argument("--format", action="append", choices=FORMATS, dest="formats")
    parser.add_argument("--seed", type=int, help="draw the rounds' seeds from this one")
    parser.add_argument("--markdown", type=Path, help="where to write the section")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        results = measure(
            Path(scratch), args.smoke, args.rounds, entries=args.entries, latency=args.latency,
            pages_aheads=tuple(args.pages_aheads or PAGES_AHEADS),
            formats=tuple(args.formats or FORMATS), seed=args.seed,
        )  # fmt: skip
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
