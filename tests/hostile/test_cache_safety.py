"""Finding 7: the cache opens regular files only, cleans up after killed writers, heals models."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

import pytest
from tests.hostile.server import HostileServer

from wadlclient import HTTPCache, ServiceRoot, schema
from wadlclient.cache.files import STALE_TEMP_SECONDS
from wadlclient.errors import WADLError
from wadlclient.schema import Schema
from wadlclient.wadl import store as model_store
from wadlclient.wadl import wadl_digest

URL = "http://example.test/1.0/"


def test_a_fifo_in_place_of_a_cache_file_is_a_miss_without_blocking(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)
    fifo = tmp_path / cache.filename(URL, "application/json")
    os.mkfifo(fifo)
    results: list[object] = []
    reader = threading.Thread(target=lambda: results.append(cache.get(URL, "application/json")))

    reader.start()
    reader.join(2)
    blocked = reader.is_alive()
    if blocked:  # release a reader blocked in open() before failing
        with open(fifo, "wb"):
            pass
        reader.join()

    assert not blocked
    assert results == [None]


def test_stale_temporary_files_are_removed_when_a_cache_opens(tmp_path: Path) -> None:
    stale = tmp_path / ".wadlclient-tmp-killed"
    fresh = tmp_path / ".wadlclient-tmp-writing"
    stale.write_bytes(b"x" * 1024)
    fresh.write_bytes(b"y")
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(stale, (old, old))

    HTTPCache(tmp_path)

    assert not stale.exists()
    assert fresh.exists()  # another process may be writing it right now


def _tamper(blob: bytes) -> list[bytes]:
    """Blobs with one payload byte changed and the digest made to match again."""
    header = model_store._HEADER
    start = len(header) + model_store._DIGEST_SIZE
    payload = blob[start:]
    tampered = []
    for position in range(len(payload) // 3, len(payload), max(1, len(payload) // 300)):
        changed = bytearray(payload)
        changed[position] ^= 0x5A
        tampered.append(header + hashlib.sha256(changed).digest() + bytes(changed))
    return tampered


def _every_type_info(schema: Schema, type_ids: list[str]) -> None:
    for type_id in type_ids:
        schema.type_info(type_id)


def _damaged_at_lookup(original: bytes, type_ids: list[str]) -> bytes:
    """A tampered blob that loads, but fails when a type is looked up."""
    for blob in _tamper(original):
        app = model_store.load_model(blob)
        if app is None:
            continue
        try:
            _every_type_info(Schema(app), type_ids)
        except WADLError:
            return blob
    raise AssertionError("no tampered blob fails at lookup")


def test_a_tampered_persisted_model_is_rebuilt_not_raised(
    hostile: HostileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema, "MODEL_PERSIST_MIN_BYTES", 0)
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())
    root_url = hostile.serve_root()
    with ServiceRoot(None, hostile.url, cache=tmp_path, version="1.0") as root:
        type_ids = sorted(root._session.schema.app.resource_types)
    cache = HTTPCache(tmp_path)
    wadl = cache.get(root_url, "application/vnd.example.wadl+xml")
    assert wadl is not None
    name = f"wadl-model-{wadl_digest(wadl.body)}"
    original = cache.get_blob(name)
    assert original is not None
    cache.put_blob(name, _damaged_at_lookup(original, type_ids))
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())  # as a new process

    with ServiceRoot(None, hostile.url, cache=tmp_path, version="1.0") as root:
        _every_type_info(root._session.schema, type_ids)

    healed = cache.get_blob(name)
    assert healed is not None
    app = model_store.load_model(healed)
    assert app is not None
    _every_type_info(Schema(app), type_ids)
