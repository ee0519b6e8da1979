"""The test modules' asserts rewritten once per run, before pytest-xdist starts its workers.

pytest rewrites the asserts of each test module and conftest it imports and
caches the result beside the source (``__pycache__/*-pytest-*.pyc``). On a
fresh clone that cache is empty, and the workers, which all collect every
module at once, would each rewrite all of them: the same seconds of CPU paid
once per worker. The controller (which loads this hook but collects nothing)
writes the missing and stale ones first, in two processes where it can, so
the workers only read them. It uses pytest's own rewriting and cache format
through private names: when those change, it does nothing (an optimization,
never a requirement), and a warm run only checks the cache.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import os
from collections.abc import Callable, Iterable, Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

#: pytest's rewrite-and-cache of one module.
_Rewrite = Callable[[Path], None]


def rewritten_pyc(source: Path) -> Path | None:
    """Where pytest caches the rewritten ``source``, or None if its internals have moved."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir
    except ImportError:
        return None
    return Path(get_cache_dir(source)) / (source.name[:-3] + PYC_TAIL)


def is_cached(source: Path) -> bool:
    """Whether pytest's cache holds ``source`` rewritten from its current text.

    The check pytest makes on import, on the header alone: the bytes pytest
    writes before the code (its own ``_write_pyc_fp``, so its format) for this
    source's hash, against the cached file's first bytes.
    """
    try:
        from _pytest.assertion.rewrite import _write_pyc_fp
    except ImportError:
        return True
    pyc = rewritten_pyc(source)
    if pyc is None:
        return True
    code = compile("", "", "exec")
    header = io.BytesIO()
    try:
        _write_pyc_fp(header, importlib.util.source_hash(source.read_bytes()), code)
        expected = header.getvalue()[: -len(marshal.dumps(code))]
        with pyc.open("rb") as cached:
            return cached.read(len(expected)) == expected
    except OSError:
        return False


def _rewriter(config: pytest.Config) -> _Rewrite | None:
    """pytest's rewrite-and-cache of one module, or None if its internals have moved."""
    try:
        from _pytest.assertion.rewrite import _rewrite_test, _write_pyc, assertstate_key

        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return None

    def rewrite(source: Path) -> None:
        pyc = rewritten_pyc(source)
        try:
            source_hash, code = _rewrite_test(source, config)
            if pyc is not None:
                pyc.parent.mkdir(parents=True, exist_ok=True)
                _write_pyc(state, code, source_hash, pyc)
        except Exception:  # a module that does not compile, a cache not writable: a worker says
            return  # what it has to say when it collects the module; this only saves it time

    return rewrite


def rewritable_sources(config: pytest.Config, roots: Iterable[Path]) -> Iterator[Path]:
    """The modules pytest rewrites when it collects ``roots``: test modules and conftests."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    for root in roots:
        files = root.rglob("*.py") if root.is_dir() else [root]
        for path in files:
            if "__pycache__" not in path.parts and any(fnmatch(path.name, p) for p in patterns):
                yield path


def _only_thread() -> bool:
    """Whether this process runs one thread, as the kernel counts them (false when it cannot tell).

    `threading` does not see every thread: an xdist worker runs execnet's
    on ``_thread`` alone.
    """
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _can_fork() -> bool:
    """Whether a forked child can share the work: more than one core, and no other thread.

    A child forked while another thread holds a lock (the import lock, a
    logger's) can wait for it forever; xdist's controller has no other
    thread before it starts the workers, a worker (as in this hook's tests) has.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return hasattr(os, "fork") and (cores or 1) > 1 and _only_thread()


def _rewrite_all(rewrite: _Rewrite, sources: list[Path]) -> None:
    """Rewrite ``sources`` (those not cached), half of them in a forked child where one can."""
    child = os.fork() if len(sources) > 1 and _can_fork() else -1
    if child == 0:
        try:
            for source in sources[1::2]:
                rewrite(source)
        finally:
            os._exit(0)
    for source in sources[0::2] if child > 0 else sources:
        rewrite(source)
    if child > 0:
        os.waitpid(child, 0)


def rewrite_test_modules(config: pytest.Config, roots: Iterable[Path]) -> None:
    """Rewrite and cache the test modules under ``roots`` that pytest has not cached."""
    rewrite = _rewriter(config)
    if rewrite is not None and config.getoption("assertmode") == "rewrite":
        sources = rewritable_sources(config, roots)
        _rewrite_all(rewrite, [path for path in sources if not is_cached(path)])


def _collection_roots(config: pytest.Config) -> list[Path]:
    """The paths this run collects (its arguments without ``::`` test names)."""
    return [Path(config.invocation_params.dir, arg.split("::")[0]) for arg in config.args]


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In pytest-xdist's controller, before it starts the workers: rewrite the test modules."""
    config: Any = session.config
    if config.pluginmanager.has_plugin("dsession") and not hasattr(config, "workerinput"):
        rewrite_test_modules(config, _collection_roots(config))
