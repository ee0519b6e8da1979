"""HTTPCache blobs: derived data (a compiled WADL model) kept beside the responses."""

from __future__ import annotations

import errno
import logging
import os

import httpx
import pytest

from wadlclient.cache import HTTPCache

URL = "http://127.0.0.1:8080/1.0/"
JSON = "application/json"


def test_a_blob_reads_back_as_written() -> None:
    cache = HTTPCache()

    cache.put_blob("wadl-model-abc123", b"\x00model bytes\xff")

    assert cache.get_blob("wadl-model-abc123") == b"\x00model bytes\xff"


def test_a_missing_blob_is_none() -> None:
    assert HTTPCache().get_blob("wadl-model-nothing") is None


def test_a_blob_is_replaced_whole() -> None:
    cache = HTTPCache()
    cache.put_blob("model", b"a" * 10_000)

    cache.put_blob("model", b"b")

    assert cache.get_blob("model") == b"b"
    assert [p.name for p in cache.directory.iterdir()] == ["model"]  # no temporary file left


@pytest.mark.parametrize(
    "name", ["", ".hidden", "a,b", "a/b", "../up", "a\nb", "x" * 101, "caf\u00e9"]
)
def test_a_blob_name_that_could_clash_or_escape_is_refused(name: str) -> None:
    cache = HTTPCache()

    with pytest.raises(ValueError, match="invalid cache blob name"):
        cache.put_blob(name, b"data")
    with pytest.raises(ValueError, match="invalid cache blob name"):
        cache.get_blob(name)


def test_blob_names_never_meet_response_file_names() -> None:
    """Every response file name has a comma before its digest; a blob name never has one."""
    cache = HTTPCache()
    cache.put(URL, JSON, httpx.Response(200, headers={"ETag": '"1"'}), b"{}")
    cache.put_blob("wadl-model-1", b"blob")

    names = sorted(p.name for p in cache.directory.iterdir())

    assert names == sorted([cache.filename(URL, JSON), "wadl-model-1"])
    assert "," in cache.filename(URL, JSON)
    assert cache.get(URL, JSON) is not None and cache.get_blob("wadl-model-1") == b"blob"


def test_a_failed_blob_write_is_one_warning_and_no_exception(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A full disk cannot be produced on demand: os.write fails as the kernel does.
    cache = HTTPCache()
    cache.put_blob("model", b"old")

    def no_space(descriptor: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", no_space)
    caplog.set_level(logging.WARNING, logger="wadlclient.cache")
    for _ in range(3):
        cache.put_blob("model", b"new")
    monkeypatch.undo()

    assert [r.levelname for r in caplog.records if r.name == "wadlclient.cache"] == ["WARNING"]
    assert cache.get_blob("model") is None  # the old blob went too
    assert list(cache.directory.iterdir()) == []


def test_a_closed_private_cache_has_no_blobs() -> None:
    cache = HTTPCache()
    cache.put_blob("model", b"data")

    cache.close()
    cache.put_blob("model", b"data")

    assert cache.get_blob("model") is None


def test_has_blob_tells_without_reading() -> None:
    cache = HTTPCache()
    cache.put_blob("model", b"data")

    assert cache.has_blob("model")
    assert not cache.has_blob("other")
