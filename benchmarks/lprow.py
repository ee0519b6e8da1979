"""The ``launchpadlib`` row: a whole launchpadlib process, stock against on wadlclient.

Each sample is one process running ``benchmarks/lpscript.py``, timed from
spawn to exit: interpreter start-up, imports, ``login_anonymously`` on a
warm cache, one collection read. ``lazr`` runs it as it is; ``ours`` runs
it under ``python -m wadlclient.lazr_compat``, so not a line changes. The
floor (``benchmarks/lpfloor.py``) is launchpadlib's own start-up under no
client library and the read on a bare connection.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from benchmarks.config import BENCH_DIR, FLOOR, OURS, REPO_ROOT, measured_env

SCRIPT = BENCH_DIR / "lpscript.py"
FLOOR_SCRIPT = BENCH_DIR / "lpfloor.py"


def script_command(client: str, service_root: str, directory: Path) -> list[str]:
    """The command line that runs the script for ``client``."""
    if client == FLOOR:
        return [sys.executable, str(FLOOR_SCRIPT), service_root, str(directory)]
    runner = ["-m", "wadlclient.lazr_compat"] if client == OURS else []
    return [sys.executable, *runner, str(SCRIPT), service_root, str(directory)]


def script_seconds(client: str, service_root: str, directory: Path) -> float:
    """Wall-clock seconds of one whole process (it must succeed)."""
    command = script_command(client, service_root, directory)
    started = time.perf_counter()
    completed = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
        env=measured_env(),
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    if completed.returncode != 0:
        raise RuntimeError(f"launchpadlib/{client} failed:\n{completed.stderr[-2000:]}")
    return elapsed


def prefill(clients: tuple[str, ...], service_root: str, scratch: Path) -> dict[str, Path]:
    """Run the script once per client so that each has its own warm launchpadlib directory.

    The floor's script keeps nothing there (no login, no WADL): its directory stays empty.
    """
    directories: dict[str, Path] = {}
    for client in clients:
        directories[client] = scratch / f"launchpadlib-{client}"
        directories[client].mkdir()
        if client != FLOOR:
            script_seconds(client, service_root, directories[client])
    return directories
