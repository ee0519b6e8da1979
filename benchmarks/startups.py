"""The time functions of the rows sampled in new processes, one process per sample.

Start-ups run `benchmarks.child` (or, for the ``launchpadlib`` row, its
script, `benchmarks.lprow`); the ``process_`` rows run a user's whole script
(`SCRIPTS`), timed from spawn to exit. The smoke run (`benchmarks.smoke`)
may ask for a row's sample in the worker instead (``fresh`` false).
"""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.config import REPO_ROOT, SCRATCH_ROOT, measured_env
from benchmarks.lprow import script_seconds

#: Workloads timed in a new interpreter per sample (`benchmarks.child`).
START_UPS = (
    "import", "import_launchpad", "cold_start", "script_start", "warm_start", "launchpadlib",
)  # fmt: skip


def _child_seconds(workload: str, client: str, base_url: str, cache: Path) -> float:
    """Run one start-up sample in a new interpreter and return its seconds."""
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.child", workload, client, base_url, str(cache)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=measured_env(),
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"{workload}/{client} child failed ({completed.returncode}):\n{completed.stderr}"
        )
    return float(json.loads(completed.stdout.strip().splitlines()[-1])["seconds"])


def _in_process_seconds(workload: str, client: str, base_url: str, cache: Path) -> float:
    """A start-up sample's work done in this process: `benchmarks.child`'s code, no interpreter.

    Only the smoke run asks for it (a row with ``fresh`` false): its figures
    mean nothing, and the rows it keeps in new interpreters prove that path.
    """
    from benchmarks.child import measure

    return measure(workload, client, base_url, str(cache))


def fresh_process_timer(
    workload: str, client: str, base_url: str, cache: str | None, *, fresh: bool = True
) -> Callable[[int], float]:
    """A pyperf time function: each loop is one new interpreter (``fresh``, always in a full run).

    ``cold_start`` and ``script_start`` get a new empty cache directory per
    sample; ``warm_start``
    reuses the prefilled one it was given.
    """
    sample = _child_seconds if fresh else _in_process_seconds

    def time_func(loops: int) -> float:
        total = 0.0
        for _ in range(loops):
            if workload == "launchpadlib" and cache is not None:
                total += script_seconds(client, base_url, Path(cache))
                continue
            if cache is not None:
                total += sample(workload, client, base_url, Path(cache))
                continue
            SCRATCH_ROOT.mkdir(exist_ok=True)
            empty = Path(tempfile.mkdtemp(prefix="cold-", dir=SCRATCH_ROOT))
            try:
                total += sample(workload, client, base_url, empty)
            finally:
                shutil.rmtree(empty, ignore_errors=True)
        return total

    return time_func


#: A user's whole script per client: argv is the base URL and the cache directory;
#: ``read`` as a third argument reads one collection (ten entries, one field each).
SCRIPTS = {
    "ours": "import sys, wadlclient\n"
    "root = wadlclient.ServiceRoot(None, sys.argv[1], cache=sys.argv[2], version='1.0')\n"
    "if sys.argv[3:]:\n    [recipe.id for recipe in root.recipes[:10]]\n",
    "lazr": "import sys, lazr.restfulclient.resource as resource\n"
    "root = resource.ServiceRoot(None, sys.argv[1], cache=sys.argv[2], version='1.0')\n"
    "if sys.argv[3:]:\n    [recipe.id for recipe in root.recipes[:10]]\n",
    "http.client": "import sys, json, http.client, urllib.parse\n"
    "base = urllib.parse.urlsplit(sys.argv[1])\n"
    "connection = http.client.HTTPConnection(base.netloc)\n"
    "def get(path):\n"
    "    connection.request('GET', path, headers={'Accept': 'application/json'})\n"
    "    return json.loads(connection.getresponse().read())\n"
    "get(base.path + '1.0/')\n"
    "if sys.argv[3:]:\n"
    "    [e['id'] for e in get(base.path + '1.0/recipes?ws.size=10')['entries']]\n",
}


def _script_in_process(workload: str, client: str, argv: list[str]) -> Callable[[int], float]:
    """A script row's samples run in this process: the same script, its ``sys.argv``, no spawn.

    Only the smoke run asks for it (a row with ``fresh`` false): its figures
    mean nothing, and ``process_script`` still runs each client's script in
    a new interpreter.
    """
    code = compile(SCRIPTS[client], f"<{workload} {client}>", "exec")

    def time_func(loops: int) -> float:
        saved, sys.argv = sys.argv, ["-c", *argv]
        try:
            started = time.perf_counter()
            for _ in range(loops):
                exec(code, {"__name__": "__main__"})
            return time.perf_counter() - started
        finally:
            sys.argv = saved

    return time_func


def whole_process_timer(
    workload: str, client: str, base_url: str, cache: str | None, *, fresh: bool = True
) -> Callable[[int], float]:
    """A pyperf time function: each loop is one user's script, timed from spawn to exit.

    The cache is reused between samples (the warm-up sample fills it when
    no prefilled one was given; made here, it is removed as this process
    exits). Not ``fresh`` (the smoke run only): the script runs in this process.
    """
    if cache is None:
        SCRATCH_ROOT.mkdir(exist_ok=True)
        cache = tempfile.mkdtemp(prefix="script-", dir=SCRATCH_ROOT)
        atexit.register(shutil.rmtree, cache, ignore_errors=True)
    argv = [base_url, cache, *(["read"] if workload == "process_script" else [])]
    if not fresh:
        return _script_in_process(workload, client, argv)
    command = [sys.executable, "-c", SCRIPTS[client], *argv]
    env = measured_env()

    def time_func(loops: int) -> float:
        total = 0.0
        for _ in range(loops):
            started = time.perf_counter()
            completed = subprocess.run(
                command, capture_output=True, text=True, env=env, check=False
            )
            total += time.perf_counter() - started
            if completed.returncode != 0:
                raise RuntimeError(f"{workload}/{client} script failed:\n{completed.stderr!r}")
        return total

    return time_func
