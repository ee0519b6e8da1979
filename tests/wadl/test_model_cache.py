"""The persisted model: a round trip gives the same model; anything else gives None."""

from __future__ import annotations

import hashlib
import pickle
import subprocess
import sys

import pytest

from wadlclient.wadl import Application, parse_wadl, wadl_digest
from wadlclient.wadl.store import dump_model, load_model


@pytest.fixture(scope="module")
def app(launchpad_wadl_bytes: bytes) -> Application:
    return parse_wadl(launchpad_wadl_bytes, url="https://api.launchpad.test/1.0/")


@pytest.fixture(scope="module")
def blob(app: Application) -> bytes:
    return dump_model(app)


def test_round_trip_gives_an_equal_model(app: Application, blob: bytes) -> None:
    loaded = load_model(blob)

    assert loaded == app
    assert loaded is not app


def test_round_trip_keeps_shared_objects_shared(blob: bytes) -> None:
    loaded = load_model(blob)

    assert loaded is not None
    bugs = loaded.resource_type("bugs")
    assert bugs.named_operations["createBug"] is loaded.methods["bugs-createBug"]


def test_round_trip_keeps_lookups_working(blob: bytes) -> None:
    loaded = load_model(blob)

    assert loaded is not None
    rep = loaded.json_representation("#bug")
    assert rep is not None and rep.id == "bug-full"


def test_truncated_blob_gives_none(blob: bytes) -> None:
    assert load_model(blob[:-1]) is None
    assert load_model(blob[: len(blob) // 2]) is None
    assert load_model(blob[:10]) is None
    assert load_model(b"") is None


def test_corrupt_byte_gives_none(blob: bytes) -> None:
    corrupt = bytearray(blob)
    corrupt[len(corrupt) // 2] ^= 0xFF

    assert load_model(bytes(corrupt)) is None


def test_other_format_version_gives_none(blob: bytes) -> None:
    header = len(b"WADLCLIENT-MODEL")
    older = blob[:header] + b"\x00\x00" + blob[header + 2 :]

    assert load_model(older) is None


def test_foreign_pickle_with_a_valid_digest_gives_none(blob: bytes) -> None:
    """Even a well-formed blob may only build model classes."""
    payload = pickle.dumps(print, protocol=5)
    header = blob[: len(b"WADLCLIENT-MODEL") + 2 + 16]
    forged = header + hashlib.sha256(payload).digest() + payload

    assert load_model(forged) is None


def test_pickle_of_something_else_with_a_valid_digest_gives_none(blob: bytes) -> None:
    payload = pickle.dumps({"not": "a model"}, protocol=5)
    header = blob[: len(b"WADLCLIENT-MODEL") + 2 + 16]
    forged = header + hashlib.sha256(payload).digest() + payload

    assert load_model(forged) is None


def test_random_file_contents_give_none(launchpad_wadl_bytes: bytes) -> None:
    assert load_model(launchpad_wadl_bytes) is None


def test_the_blob_is_much_smaller_than_the_wadl(blob: bytes, launchpad_wadl_bytes: bytes) -> None:
    assert len(blob) < len(launchpad_wadl_bytes) / 2


def test_wadl_digest_is_the_sha256_hex_of_the_document(launchpad_wadl_bytes: bytes) -> None:
    digest = wadl_digest(launchpad_wadl_bytes)

    assert digest == hashlib.sha256(launchpad_wadl_bytes).hexdigest()
    assert digest != wadl_digest(launchpad_wadl_bytes + b"\n")


def test_importing_the_package_does_not_import_the_model_store() -> None:
    # A fresh interpreter: this one has imported everything already.
    code = (
        "import sys, wadlclient; "
        "print('pickle' in sys.modules, 'wadlclient.wadl.store' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )

    assert result.stdout.split() == ["False", "False"]


def test_a_twin_at_another_address_dumps_as_its_own_parse_would(
    app: Application, launchpad_wadl_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same WADL at a new address (a fake on a fresh port) pickles its objects once.

    Its dump loads as the model a parse of the document at that address
    builds: nothing of the old address is left in it.
    """
    from wadlclient.wadl import store
    from wadlclient.wadl.rebase import shape_of

    shape = shape_of(launchpad_wadl_bytes)
    assert shape is not None
    moved = launchpad_wadl_bytes.replace(shape.base.encode(), b"http://127.0.0.1:8080/1.0/")
    dump_model(app)
    made: list[Application] = []
    monkeypatch.setattr(store, "_dump_parts", lambda model: made.append(model) or ())
    twin = app._replace(url="http://127.0.0.1:8080/1.0/", base="http://127.0.0.1:8080/1.0/")
    twin_blob = dump_model(twin)
    assert made == []
    monkeypatch.undo()

    parsed = parse_wadl(moved, url="http://127.0.0.1:8080/1.0/")
    assert twin == parsed
    assert load_model(twin_blob) == parsed == load_model(dump_model(parsed))
    assert shape.base.encode() not in twin_blob
