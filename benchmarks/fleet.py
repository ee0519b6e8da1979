"""Fleets of workers on one shared Redis cache (issue 23): start-up, walk and refreshes, mixed load.

Three rows, on a redis-server of the section's own (`benchmarks.redis_server`),
emptied before each:

- start-up: 16 worker processes at once on an empty Redis, the Launchpad
  WADL served on loopback (`benchmarks.lpserver`, whose log names every
  whole WADL it sends); the same 16 on a warm disk cache, for scale; then
  single workers on the warm Redis against single workers on a warm disk
  cache. A worker is a fresh interpreter
  that opens the root and closes it; its time runs from spawn to then.
  Then, on an emptied Redis, 16 workers holding one OAuth credential, and
  16 holding a second one (issue 30: the WADL is shared between
  principals, each one's own answers are not): whole WADLs and requests
  the server saw for each.
- a walk over the example service's recipes and 1,000 refreshes of one
  recipe (each a conditional GET answered 304), Redis against disk, and
  on Redis holding an OAuth credential (each entry in its principal's
  part; the example service, without authorization, ignores it).
- 16 processes x 10,000 mixed reads and writes of 50 shared entries
  through the cache rules; a read whose stored bytes do not parse, or
  whose body does not match the digest its writer put in its ETag, is a
  torn entry.

``python -m benchmarks.fleet [--smoke]`` prints the section.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.config import REPO_ROOT, ServiceSpec, measured_env
from benchmarks.redis_server import redis_server
from benchmarks.sections import run_child, section_main
from benchmarks.services import cookbook_service, launchpad_server

FLEET = 16
SAMPLES = 5
REFRESHES = 1000
WALK_RECIPES = 1000
MIX_OPERATIONS = 10_000
MIX_NAMES = 50
_SUN_WADL = "application/vnd.sun.wadl+xml"


# -- children -------------------------------------------------------------------------


#: A worker: a fresh interpreter that opens the Launchpad root and exits. It prints
#: when it was done, then the seconds of its phases: ``import wadlclient``, the
#: redis client's import (which a Redis cache makes anyway; 0 on disk), the root
#: opened and closed.
#: A third argument names an OAuth token the worker signs with (none: anonymous).
WORKER = (
    "import sys, time\n"
    "began = time.perf_counter()\n"
    "from wadlclient import ServiceRoot, OAuthAuthorizer, AccessToken\n"
    "imported = time.perf_counter()\n"
    "if sys.argv[2].startswith('redis'):\n"
    "    import redis, redis.backoff, redis.retry\n"
    "ready = time.perf_counter()\n"
    "token = sys.argv[3] if len(sys.argv) > 3 else ''\n"
    "key = AccessToken(token, token + '-secret')\n"
    "signer = OAuthAuthorizer('fleet', '', key) if token else None\n"
    "ServiceRoot(signer, sys.argv[1], cache=sys.argv[2],"
    " wadl_media_type='application/vnd.sun.wadl+xml').close()\n"
    "done = time.perf_counter()\n"
    "print(time.time(), imported - began, ready - imported, done - ready)\n"
)
#: The phases a worker reports, as the section names them.
PHASES = ("import wadlclient", "import redis", "root opened and closed")
#: A warm start on Redis, less the import of redis-py (which wadlclient cannot make cheaper:
#: PROFILES.md), at most this many times a warm start on disk.
GOAL = 1.5


def _walk(base_url: str, cache: str, token: str = "") -> dict[str, float]:
    """Walk every recipe, then refresh one recipe `REFRESHES` times; seconds of each.

    ``token``: the OAuth token key to sign with (empty: anonymous).
    """
    from wadlclient import AccessToken, OAuthAuthorizer, ServiceRoot

    signer = OAuthAuthorizer("fleet", "", AccessToken(token, token + "-secret")) if token else None
    root = ServiceRoot(signer, base_url, cache=cache)
    began = time.perf_counter()
    walked = sum(1 for recipe in root.recipes if recipe.instructions is not None)
    walk = time.perf_counter() - began
    entry = root.recipes[0]
    entry.lp_refresh()
    began = time.perf_counter()
    for _ in range(REFRESHES):
        entry.lp_refresh()
    refreshes = time.perf_counter() - began
    root.close()
    return {"walk": walk, "refreshes": refreshes, "walked": walked}


class _Answer:
    """A response to store: a status, and an ETag naming the body's digest."""

    status = 200

    def __init__(self, body: bytes) -> None:
        self.headers = {"ETag": '"' + hashlib.sha256(body).hexdigest() + '"', "Vary": "Accept"}


def mix(url: str, seed: int, operations: int) -> dict[str, int]:
    """Reads and writes, half each, of `MIX_NAMES` shared entries; counts and torn entries."""
    from wadlclient.cache import RedisStore, StoreCache
    from wadlclient.cache.fileformat import parse

    cache = StoreCache(RedisStore(url), owns_store=True)
    chance = random.Random(seed)
    urls = [f"http://fleet.test/1.0/entries/{index}" for index in range(MIX_NAMES)]
    counts = {"reads": 0, "writes": 0, "misses": 0, "torn": 0}
    for _ in range(operations):
        target = chance.choice(urls)
        if chance.random() < 0.5:
            body = chance.randbytes(chance.randrange(100, 20_000))
            cache.put(target, "application/json", _Answer(body), body)
            counts["writes"] += 1
            continue
        counts["reads"] += 1
        raw = cache.store.load(cache.filename(target, "application/json"))
        if raw is None:
            counts["misses"] += 1
            continue
        head, _, body = raw.partition(b"\r\n\r\n")
        stored = parse(head, body)
        digest = '"' + hashlib.sha256(body).hexdigest() + '"'
        if stored is None or stored.headers.get("etag") != digest:
            counts["torn"] += 1
    cache.close()
    return counts


def child(kind: str, first: str, second: str, third: str) -> Any:
    """In a child process: one walk, or one mixer's share."""
    if kind == "walk":
        return _walk(first, second, "" if third == "-" else third)
    if kind == "mix":
        return mix(first, int(second), int(third))
    raise ValueError(f"unknown child {kind!r}")


# -- the parent ---------------------------------------------------------------------------


def _spawn(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *args], cwd=REPO_ROOT, env=measured_env(), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _wait(process: subprocess.Popen[str], began: float) -> tuple[str, float]:
    """The process's last output line and its wall time since ``began``, once it exits."""
    out, err = process.communicate(timeout=600)
    seconds = time.perf_counter() - began
    if process.returncode != 0:
        raise RuntimeError(f"fleet child exited {process.returncode}: {err[-1500:]}")
    return (out.strip().splitlines() or [""])[-1], seconds


def together(children: list[list[str]]) -> list[tuple[str, float]]:
    """Processes started at once, one per argument list: (last output line, wall time) each."""
    began = time.perf_counter()
    processes = [_spawn(args) for args in children]
    return [_wait(process, began) for process in processes]


def workers(
    count: int,
    base_url: str,
    cache: str,
    phases: list[list[float]] | None = None,
    token: str = "",
) -> list[float]:
    """The wall times of ``count`` worker processes started at once, spawn to root closed.

    ``phases``: where each worker's phase seconds (`PHASES`) are appended.
    ``token``: the OAuth token key the workers sign with (empty: anonymous).
    """
    spawned = time.time()
    done = together([["-c", WORKER, base_url, cache, *([token] if token else [])]] * count)
    fields = [[float(field) for field in line.split()] for line, _ in done]
    if phases is not None:
        phases.extend(found[1:] for found in fields)
    return [found[0] - spawned for found in fields]


def _flush(url: str) -> None:
    import redis

    with redis.Redis.from_url(url) as client:
        client.flushdb()


def _fleet_start(scratch: Path, redis_url: str, samples: int) -> dict[str, Any]:
    with launchpad_server(scratch) as server:
        log = server.log
        sent_before = log.read_text().count("sent the WADL")
        began = time.perf_counter()
        fleet = workers(FLEET, server.base_url, redis_url)
        fleet_wall = time.perf_counter() - began
        downloads = log.read_text().count("sent the WADL") - sent_before
        warm_redis, warm_disk, bare = [], [], []
        redis_phases: list[list[float]] = []
        disk_phases: list[list[float]] = []
        with tempfile.TemporaryDirectory(dir=scratch) as disk:
            workers(1, server.base_url, disk)
            disk_fleet = workers(FLEET, server.base_url, disk)
            for _ in range(samples):
                warm_redis += workers(1, server.base_url, redis_url, redis_phases)
                warm_disk += workers(1, server.base_url, disk, disk_phases)
                spawned = time.time()
                line, _ = together([["-c", "import time; print(time.time())"]])[0]
                bare.append(float(line) - spawned)
        principals = _principals(log, server.base_url, redis_url)
    return {
        "principals": principals,
        "downloads": downloads,
        "fleet": fleet,
        "disk_fleet": disk_fleet,
        "bare": bare,
        "fleet_wall": fleet_wall,
        "warm_redis": warm_redis,
        "warm_disk": warm_disk,
        "redis_phases": redis_phases,
        "disk_phases": disk_phases,
    }


def _principals(log: Path, base_url: str, redis_url: str) -> dict[str, dict[str, int]]:
    """A fleet per credential, one after the other, on an emptied Redis: what each cost the server.

    lpserver logs every request ("GET /1.0/ ...") and every whole WADL it sends.
    """
    _flush(redis_url)
    counts: dict[str, dict[str, int]] = {}
    for token in ("ann-token", "bob-token"):
        text = log.read_text()
        before = (text.count("sent the WADL"), text.count('"GET /1.0/ '))
        workers(FLEET, base_url, redis_url, token=token)
        text = log.read_text()
        after = (text.count("sent the WADL"), text.count('"GET /1.0/ '))
        counts[token] = {"wadls": after[0] - before[0], "requests": after[1] - before[1]}
    return counts


def _walks(scratch: Path, redis_url: str, samples: int) -> dict[str, list[dict[str, float]]]:
    spec = ServiceSpec("fleet-walk", WALK_RECIPES, page_size=75)
    results: dict[str, list[dict[str, float]]] = {"disk": [], "redis": [], "credential": []}
    with cookbook_service(spec, scratch) as server:
        for _ in range(samples):
            _flush(redis_url)
            results["redis"].append(run_child("benchmarks.fleet", "walk", server.base_url,
                                              redis_url, "-"))  # fmt: skip
            _flush(redis_url)
            results["credential"].append(run_child("benchmarks.fleet", "walk", server.base_url,
                                                   redis_url, "ann-token"))  # fmt: skip
            with tempfile.TemporaryDirectory(dir=scratch) as disk:
                results["disk"].append(run_child("benchmarks.fleet", "walk", server.base_url,
                                                 disk, "-"))  # fmt: skip
    return results


def measure(scratch: Path, smoke: bool = False) -> dict[str, Any]:
    """Every row, each on an emptied Redis."""
    samples = 1 if smoke else SAMPLES
    operations = 500 if smoke else MIX_OPERATIONS
    with redis_server() as redis:
        _flush(redis.url)
        start = _fleet_start(scratch, redis.url, samples)
        walks = _walks(scratch, redis.url, samples)
        _flush(redis.url)
        began = time.perf_counter()
        command = ["-m", "benchmarks.fleet", "--child", "mix", redis.url]
        mixers = together([[*command, str(seed), str(operations)] for seed in range(FLEET)])
        mixed = [json.loads(line) for line, _ in mixers]
        mix_wall = time.perf_counter() - began
    return {"start": start, "walks": walks, "mix": mixed, "mix_wall": mix_wall,
            "operations": operations}  # fmt: skip


def _phases(samples: list[list[float]]) -> str:
    """Each phase's median over the samples, in ms."""
    columns = zip(*samples, strict=True)
    return " / ".join(f"{statistics.median(column) * 1000:.1f}" for column in columns)


def markdown(results: dict[str, Any]) -> str:
    """The rows as a markdown section."""
    start, walks, mixed = results["start"], results["walks"], results["mix"]
    median = statistics.median
    redis_start, disk_start = median(start["warm_redis"]), median(start["warm_disk"])
    import_redis = median(phases[1] for phases in start["redis_phases"])
    beyond = redis_start - import_redis
    lines = [
        "## Fleets of workers on one Redis cache",
        "",
        f"One redis-server on loopback (maxmemory 256 MB, volatile-lru). Medians of "
        f"{len(start['warm_disk'])} samples unless said. A worker is a fresh `python` that "
        "imports wadlclient and opens the Launchpad root (WADL served on loopback); its time "
        f"runs from spawn to the root closed (a bare `python`: {median(start['bare']):.3f} s).",
        "",
        "| row | figure |",
        "|---|---|",
        f"| {FLEET} workers at once, empty Redis: whole WADLs sent by the server | "
        f"{start['downloads']} (goal 1) |",
        f"| {FLEET} workers at once: start of each (2 cores shared by all) | median "
        f"{median(start['fleet']):.3f} s, max {max(start['fleet']):.3f} s; fleet "
        f"{start['fleet_wall']:.2f} s |",
        f"| the same {FLEET} at once on a warm disk cache, for scale | median "
        f"{median(start['disk_fleet']):.3f} s, max {max(start['disk_fleet']):.3f} s |",
        f"| a worker after the fleet, warm Redis | {redis_start:.3f} s |",
        f"| a worker on a warm disk cache | {disk_start:.3f} s |",
        f"| warm Redis start / warm disk start (goal: at most 1.5x a disk start plus the "
        f"import of redis-py, {import_redis * 1000:.1f} ms here: see PROFILES.md) | "
        f"{redis_start / disk_start:.2f}; without the import {beyond / disk_start:.2f}: "
        f"{'meets' if beyond <= GOAL * disk_start else 'MISS'} |",
        f"| where a warm worker's time goes, medians in ms: {', '.join(PHASES)} | "
        f"Redis {_phases(start['redis_phases'])}; disk {_phases(start['disk_phases'])} |",
    ]
    ann, bob = start["principals"]["ann-token"], start["principals"]["bob-token"]
    lines += [
        f"| {FLEET} workers at once holding one OAuth credential, empty Redis: whole WADLs "
        f"sent; requests | {ann['wadls']} (goal 1); {ann['requests']} |",
        f"| then {FLEET} holding a second credential: whole WADLs sent; requests (the root's "
        f"JSON is each principal's own) | {bob['wadls']} (goal 0); {bob['requests']} |",
    ]
    for row, title in (("walk", f"walk of {WALK_RECIPES} recipes"),
                       ("refreshes", f"{REFRESHES} refreshes (304)")):  # fmt: skip
        on_redis = median(s[row] for s in walks["redis"])
        on_disk = median(s[row] for s in walks["disk"])
        signed = median(s[row] for s in walks["credential"])
        lines.append(
            f"| {title}: Redis {on_redis:.3f} s, disk {on_disk:.3f} s; Redis holding one "
            f"OAuth credential {signed:.3f} s | ratio Redis/disk {on_redis / on_disk:.2f}; "
            f"with the credential / anonymous {signed / on_redis:.2f} |"
        )
    total = {key: sum(m[key] for m in mixed) for key in ("reads", "writes", "misses", "torn")}
    lines.append(
        f"| {FLEET} processes x {results['operations']:,} mixed reads/writes of "
        f"{MIX_NAMES} entries (100 B-20 KB) | {total['torn']} torn of {total['reads']:,} "
        f"reads ({total['misses']} misses), {total['writes']:,} writes, "
        f"{results['mix_wall']:.1f} s |"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return section_main(
        argv, prog="python -m benchmarks.fleet", doc=__doc__, child_args=4, child=child,
        measure=measure, markdown=markdown,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
