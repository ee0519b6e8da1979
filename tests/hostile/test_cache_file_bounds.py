"""A cache file that is not a small regular file is a miss with a warning (issue 40, 4).

A disk-cache entry grown to 3 GiB, a link to ``/dev/zero`` or a FIFO in
place of an entry or of a persisted WADL model: the next root reads none
of it (no `MemoryError`, no wait), warns once per file, and asks the
server again. lazr.restfulclient's file cache (the compatibility layer's)
does the same.
"""

from __future__ import annotations

import logging
import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.hostile.server import HostileServer

from wadlclient import HTTPCache, ServiceRoot, schema
from wadlclient.lazr.restfulclient._browser import AtomicFileCache

#: A sparse file this big, read whole, would exhaust the memory of most machines.
HUGE = 3 << 30


def _sparse(path: Path) -> None:
    with path.open("wb") as out:
        out.truncate(HUGE)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


PLANTED: dict[str, tuple[Callable[[Path], None], str]] = {
    "sparse-3GiB": (_sparse, f"it holds {HUGE} bytes, more than any cache entry"),
    "link-to-dev-zero": (_zero, "it is a symbolic link, not a regular file"),
    "fifo": (_fifo, "it is a FIFO, not a regular file"),
}


def guarded(call: Callable[[], object], fifos: list[Path]) -> tuple[object, int]:
    """``call()``'s result and the memory it took at most, in a thread given 20 s."""
    results: list[object] = []
    tracemalloc.start()
    try:
        worker = threading.Thread(target=lambda: results.append(call()), daemon=True)
        worker.start()
        worker.join(20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if worker.is_alive():
        for fifo in fifos:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading the cache blocked for 20 s")
    assert results, "the call raised (see the thread's traceback above)"
    return results[0], peak


@pytest.mark.usefixtures("python_gc_thresholds")
@pytest.mark.parametrize("kind", PLANTED)
def test_an_entry_or_model_that_is_not_a_small_regular_file_is_a_miss_with_a_warning(
    hostile: HostileServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    monkeypatch.setattr(schema, "MODEL_PERSIST_MIN_BYTES", 0)
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())
    hostile.serve_root()
    with ServiceRoot(None, hostile.url, cache=tmp_path, version="1.0"):
        pass
    files = sorted(path for path in tmp_path.iterdir() if not path.name.startswith("."))
    assert len(files) >= 2  # the WADL's entry and its persisted model
    make, says = PLANTED[kind]
    for path in files:
        path.unlink()
        make(path)
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())  # as a new process
    asked = hostile.count("/1.0/")

    def load() -> object:
        with ServiceRoot(None, hostile.url, cache=tmp_path, version="1.0") as root:
            return root.recipes

    with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
        recipes, peak = guarded(load, files if kind == "fifo" else [])

    assert recipes is not None
    assert hostile.count("/1.0/") > asked  # asked the server again
    assert peak < 256 << 20
    warnings = [record.getMessage() for record in caplog.records]
    assert warnings
    assert all(f"not read ({says})" in line and "treated as a miss" in line for line in warnings)


@pytest.mark.usefixtures("python_gc_thresholds")
@pytest.mark.parametrize("kind", PLANTED)
def test_the_lazr_file_cache_reads_no_file_that_is_not_a_small_regular_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    cache = AtomicFileCache(tmp_path)
    cache.set("http://example.test/1.0/", b"status: 200\r\n\r\n{}")
    (path,) = tmp_path.iterdir()
    make, says = PLANTED[kind]
    path.unlink()
    make(path)
    says = says.replace("a symbolic link", "a character device")  # lazr's cache follows links

    with caplog.at_level(logging.WARNING, logger="wadlclient.cache"):
        found, peak = guarded(lambda: cache.get("http://example.test/1.0/"), [path])

    assert found is None
    assert peak < 1 << 20
    assert [record.getMessage() for record in caplog.records] == [
        f"cache file {path} not read ({says}): treated as a miss"
    ]


def test_a_blob_bigger_than_the_cap_is_not_written_and_the_one_before_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = HTTPCache(tmp_path)
    cache.put_blob("model", b"small")
    assert cache.get_blob("model") == b"small"
    monkeypatch.setattr(HTTPCache, "MAX_ENTRY_BYTES", 1024)

    cache.put_blob("model", b"x" * 2048)

    assert cache.get_blob("model") is None
    assert not (tmp_path / "model").exists()
