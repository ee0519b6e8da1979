"""What a test run makes once and every pytest-xdist worker shares, behind a file lock.

A session fixture runs in each worker; an expensive artifact (the docs site,
a type checker's report, mypy's cache) made in each would be made up to
``-n`` times over. These helpers keep it in the run's base temporary
directory (the parent of the workers' own, so one per run, as pytest-xdist
documents), under a name keyed by its inputs, and let one process at a time
make or use it (``fcntl.flock``; the lock goes with the process if it dies).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def run_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base temporary directory of the whole run (all workers'), not of this worker."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def key_of(*inputs: str | bytes | Path | Iterable[Path]) -> str:
    """A short digest of ``inputs``: strings, bytes, files (by path and content), file lists."""
    digest = hashlib.sha256()
    for item in inputs:
        if isinstance(item, str | bytes):
            digest.update(item.encode() if isinstance(item, str) else item)
            continue
        for path in sorted([item] if isinstance(item, Path) else item):
            digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@contextmanager
def locked(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Path]:
    """The run's directory ``name``, made if need be, while no other process holds it."""
    where = run_directory(tmp_path_factory) / name
    with open(f"{where}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            where.mkdir(exist_ok=True)
            yield where
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def made_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """The run's directory ``name``, filled by ``make`` the first time it is asked for.

    A ``make`` that fails (raises) leaves nothing behind, so the next caller makes it again
    and fails in its own test.
    """
    with locked(tmp_path_factory, name) as where:
        done = Path(f"{where}.made")
        if not done.exists():
            shutil.rmtree(where)
            where.mkdir()
            make(where)
            done.touch()
    return where
