"""The model of each shipped WADL is kept beside the kit's bytecode: later processes load it.

Each test starts "a new process" as the client's tests do: an empty
in-process memo of models (`wadlclient.schema.SCHEMAS`), the parses
counted through `wadlclient.schema.parse_wadl`; the models are kept in a
directory of the test's own (`models.model_directory`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from wadlclient import schema
from wadlclient.testing import FakeService, launchpad_wadl, models
from wadlclient.testing.record import recorded_root, replayed_root
from wadlclient.wadl import store

from .wire import get_json

PUBLISHED = "https://api.launchpad.net/devel/"
BETA = "https://api.launchpad.net/beta/"


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The directory the kit keeps its models in, for this test; bytecode written."""
    monkeypatch.setattr(models, "model_directory", lambda: tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = schema.parse_wadl

    def counted(content: bytes, url: str, **options: Any) -> Any:
        calls.append(url)
        return real(content, url, **options)

    monkeypatch.setattr(schema, "parse_wadl", counted)
    return calls


@pytest.fixture(scope="module")
def devel_model(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, bytes]:
    """The name and bytes of the devel model a first process keeps (made once here)."""
    directory = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(models, "model_directory", lambda: directory)
        patch.setattr(sys, "dont_write_bytecode", False)
        new_process(patch)
        assert serves_the_root(launchpad_wadl())
    [model] = directory.iterdir()
    return model.name, model.read_bytes()


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the models this process built, as a new process has none."""
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())


def serves_the_root(wadl: bytes) -> bool:
    with FakeService(wadl) as fake:
        return bool(get_json(fake, "")["people_collection_link"] == fake.base + "people")


def test_a_process_after_the_first_loads_the_model_without_parsing(
    kept: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    new_process(monkeypatch)
    assert serves_the_root(launchpad_wadl())
    assert parses == [PUBLISHED]
    [model] = kept.iterdir()
    assert model.name.startswith("launchpad-devel.") and model.name.endswith(".wadl-model")

    new_process(monkeypatch)
    with FakeService(launchpad_wadl()) as fake:
        fake.add("people", name="ada", display_name="Ada Lovelace")
        assert get_json(fake, "~ada")["display_name"] == "Ada Lovelace"

    assert parses == [PUBLISHED]  # the second process parsed nothing


def test_a_damaged_model_is_parsed_over(
    kept: Path,
    devel_model: tuple[str, bytes],
    parses: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, good = devel_model
    model = kept / name
    model.write_bytes(good[: len(good) // 2])

    new_process(monkeypatch)
    assert serves_the_root(launchpad_wadl())

    assert parses == [PUBLISHED]
    assert model.read_bytes() == good


def test_a_model_kept_by_another_parser_or_version_is_never_loaded_and_is_replaced(
    kept: Path,
    devel_model: tuple[str, bytes],
    parses: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, good = devel_model
    # What an older parser's key named (the name is all that differs).
    (kept / "launchpad-devel.0123456789abcdef01234567.wadl-model").write_bytes(good)

    new_process(monkeypatch)
    assert serves_the_root(launchpad_wadl())

    assert parses == [PUBLISHED]
    assert [path.name for path in kept.iterdir()] == [name]


def test_nothing_is_kept_when_python_writes_no_bytecode(
    kept: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    new_process(monkeypatch)
    assert serves_the_root(launchpad_wadl("beta"))

    assert parses == [BETA]
    assert list(kept.iterdir()) == []


def test_a_wadl_the_kit_does_not_ship_is_never_kept(
    kept: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = launchpad_wadl("beta")
    changed = shipped.replace(b"</wadl:application>", b"<!-- mine --></wadl:application>")
    assert changed != shipped
    new_process(monkeypatch)
    assert serves_the_root(changed)

    assert parses == [BETA]
    assert list(kept.iterdir()) == []


def test_a_directory_that_cannot_be_written_leaves_the_fake_as_it_was(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the directory would be")
    monkeypatch.setattr(models, "model_directory", lambda: blocked / "__pycache__")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    new_process(monkeypatch)

    assert serves_the_root(launchpad_wadl("beta"))
    assert parses == [BETA]


def test_the_models_are_kept_where_python_keeps_the_kits_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = Path(os.path.abspath(models.__file__)).parent
    monkeypatch.setattr(sys, "pycache_prefix", None)
    assert models.model_directory() == kit / "__pycache__"

    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    assert models.model_directory() == tmp_path.joinpath(*kit.parts[1:])


def test_a_replay_of_a_launchpad_session_reads_the_kept_model_and_pickles_nothing(
    kept: Path,
    devel_model: tuple[str, bytes],
    parses: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, good = devel_model
    (kept / name).write_bytes(good)
    recording = tmp_path / "session.json"
    with FakeService(launchpad_wadl()) as fake:
        fake.add("people", name="ada", display_name="Ada Lovelace")
        with recorded_root(recording, None, fake.service_root, version="devel") as root:
            assert root.people["ada"].display_name == "Ada Lovelace"
        address = fake.service_root
    pickled: list[int] = []
    real_dump = store._dump_parts
    monkeypatch.setattr(store, "_dump_parts", lambda app: pickled.append(1) or real_dump(app))
    new_process(monkeypatch)
    parses.clear()

    # A cache that keeps models: the one the replay reads is stored there too.
    cache = tmp_path / "cache"
    with replayed_root(recording, None, address, cache, version="devel") as root:
        assert root.people["ada"].display_name == "Ada Lovelace"

    assert parses == []  # the fake's WADL has the shipped one's shape: the kept model, rebased
    assert pickled == []  # stored from the bytes it was loaded from
