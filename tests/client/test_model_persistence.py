"""The compiled WADL model persisted in the cache: a warm start loads it, never a wrong one.

The process keeps the models it built (keyed by URL and WADL digest); each
test empties that memo so the second root has only the cache to go by, and
counts the calls of ``parse_wadl`` made through the object layer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import EXAMPLE_WADL_MEDIA_TYPE, ServiceRoot, schema
from wadlclient.cache import HTTPCache
from wadlclient.wadl import wadl_digest
from wadlclient.wadl.store import dump_model, load_model


@pytest.fixture
def parses(parses: list[str | None], monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The client conftest's count of parses, with small models persisted too.

    The example service's WADL is small, so the size below which models are
    not persisted is lowered to persist it like a big one.
    """
    monkeypatch.setattr(schema, "MODEL_PERSIST_MIN_BYTES", 0)
    return parses


def forget_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process would: no model in memory."""
    monkeypatch.setattr(schema, "SCHEMAS", schema.SchemaMemo())


def model_blobs(directory: Path) -> list[Path]:
    return sorted(directory.glob("wadl-model-*"))


def cached_wadl(cache: HTTPCache, service: RunningService) -> bytes:
    cached = cache.get(service.base_url + "1.0/", EXAMPLE_WADL_MEDIA_TYPE)
    assert cached is not None
    return cached.body


def test_a_first_start_stores_the_model_under_the_wadl_digest(
    cookbook_service: RunningService, tmp_path: Path, parses: list[str | None]
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path):
        pass

    wadl = cached_wadl(HTTPCache(tmp_path), cookbook_service)
    assert parses == [cookbook_service.base_url + "1.0/"]
    assert [p.name for p in model_blobs(tmp_path)] == [f"wadl-model-{wadl_digest(wadl)}"]
    assert load_model(model_blobs(tmp_path)[0].read_bytes()) is not None


def test_a_warm_start_loads_the_model_instead_of_parsing(
    cookbook_service: RunningService,
    tmp_path: Path,
    parses: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path):
        pass
    forget_models(monkeypatch)

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path) as root:
        names = [recipe.id for recipe in root.recipes[:2]]
        operations = root.cookbooks.lp_operations

    assert len(parses) == 1  # the first start only
    assert len(names) == 2
    assert "find_recipes" in operations


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: blob[: len(blob) // 2],
        lambda blob: blob[:-1],
        lambda blob: blob[:40] + bytes([blob[40] ^ 0xFF]) + blob[41:],
        lambda blob: b"not a model at all",
        lambda blob: b"",
    ],
    ids=["truncated", "last-byte-missing", "corrupt-byte", "foreign", "empty"],
)
def test_a_damaged_model_is_ignored_and_rebuilt(
    cookbook_service: RunningService,
    tmp_path: Path,
    parses: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
    damage: object,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path):
        pass
    (blob_path,) = model_blobs(tmp_path)
    assert callable(damage)
    blob_path.write_bytes(damage(blob_path.read_bytes()))
    forget_models(monkeypatch)

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path) as root:
        operations = root.cookbooks.lp_operations

    assert len(parses) == 2  # parsed again
    assert "find_recipes" in operations
    assert load_model(blob_path.read_bytes()) is not None  # and stored whole again


def test_a_changed_wadl_never_uses_the_old_model(
    cookbook_service: RunningService,
    tmp_path: Path,
    parses: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path):
        pass
    cache = HTTPCache(tmp_path)
    url = cookbook_service.base_url + "1.0/"
    stored = cache.get(url, EXAMPLE_WADL_MEDIA_TYPE)
    assert stored is not None
    # The service now describes its operation under another name: a new WADL
    # (fresh in the cache, so no request tells the client anything else).
    changed = stored.body.replace(b"find_recipes", b"find_recipez")
    assert changed != stored.body
    cache.put(url, EXAMPLE_WADL_MEDIA_TYPE, stored, changed)
    forget_models(monkeypatch)

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path) as root:
        operations = root.cookbooks.lp_operations

    assert len(parses) == 2
    assert "find_recipez" in operations and "find_recipes" not in operations
    # issue 11: the old WADL's model is pruned when the new one is stored (was: one per digest).
    assert len(model_blobs(tmp_path)) == 1


def test_a_model_made_for_another_url_is_not_used(
    cookbook_service: RunningService,
    tmp_path: Path,
    parses: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="1.0"):
        pass
    cache = HTTPCache(tmp_path)
    wadl = cached_wadl(cache, cookbook_service)
    (blob_path,) = model_blobs(tmp_path)
    other = schema.parse_wadl(wadl, "http://elsewhere.test/1.0/")
    blob_path.write_bytes(dump_model(other))
    forget_models(monkeypatch)
    parses.clear()

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path) as root:
        assert root.cookbooks.lp_operations

    assert parses == [cookbook_service.base_url + "1.0/"]


def test_a_private_temporary_cache_gets_no_model(
    cookbook_service: RunningService, parses: list[str | None]
) -> None:
    private = HTTPCache()  # what cache=None makes

    with ServiceRoot(None, cookbook_service.base_url, cache=private):
        assert model_blobs(private.directory) == []

    assert parses == [cookbook_service.base_url + "1.0/"]


def test_a_model_known_in_memory_is_stored_in_a_new_cache_directory(
    cookbook_service: RunningService, tmp_path: Path, parses: list[str | None]
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path / "one"):
        pass

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path / "two"):
        pass

    assert len(parses) == 1
    assert len(model_blobs(tmp_path / "two")) == 1


def test_a_small_wadl_is_parsed_at_each_start_and_not_persisted(
    cookbook_service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forget_models(monkeypatch)

    with ServiceRoot(None, cookbook_service.base_url, cache=tmp_path):
        pass

    wadl = cached_wadl(HTTPCache(tmp_path), cookbook_service)
    assert len(wadl) < schema.MODEL_PERSIST_MIN_BYTES
    assert model_blobs(tmp_path) == []
