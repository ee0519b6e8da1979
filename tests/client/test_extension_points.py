"""The hooks a subclass (the lazr.restfulclient layer) builds on, and what `close` closes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, Entry, HTTPCache, ServiceRoot
from wadlclient.http import Transport
from wadlclient.objects import session_of

from .conftest import wire


class RecipesByKey(Collection):
    """``recipes[n]`` looks recipe ``n`` up by key, as launchpadlib's ``bugs[n]`` does."""

    def get_item(self, key: object) -> Any:
        return self.lookup(key)


class Recipe(Entry):
    """An entry class chosen by resource type id."""


def test_a_registered_collection_class_can_make_indexing_a_key_look_up(
    service: RunningService,
) -> None:
    class Root(ServiceRoot):
        RESOURCE_TYPE_CLASSES = {"recipes": RecipesByKey, "recipe": Recipe}

    with Root(None, service.base_url) as root:
        recipe = root.recipes[3]

        assert isinstance(recipe, Recipe)
        assert recipe.id == 3
        assert root.recipes[0:2] == list(root.recipes)[0:2]  # slices stay slices
        with pytest.raises(KeyError):
            root.recipes[99999]


def test_a_subclass_builds_the_transport_every_request_goes_through(
    service: RunningService,
) -> None:
    made: list[Transport] = []

    class Root(ServiceRoot):
        def make_transport(self, authorizer: Any, cache: HTTPCache, **options: Any) -> Transport:
            transport = super().make_transport(authorizer, cache, **options)
            made.append(transport)
            return transport

    with Root(None, service.base_url, base_client_name="hooked") as root:
        assert made == [session_of(root).transport]
        assert all("hooked" in (e.user_agent or "") for e in service.journal.entries())


def test_a_subclass_decides_the_root_url(service: RunningService) -> None:
    class Root(ServiceRoot):
        def root_url_for(self, service_root: str, version: str | None) -> str:
            return service_root + "devel/"

    with Root(None, service.base_url, version="1.0") as root:
        assert root.service_root == service.base_url + "devel/"
    assert [path for _, path, _ in wire(service)] == ["/devel/", "/devel/"]


def test_close_removes_the_private_cache_the_root_made(service: RunningService) -> None:
    root = ServiceRoot(None, service.base_url)
    directory = session_of(root).cache.directory
    assert directory.is_dir()

    root.close()

    assert not directory.exists()


def test_close_leaves_a_cache_the_caller_passed_open(
    service: RunningService,
) -> None:
    cache = HTTPCache()
    with ServiceRoot(None, service.base_url, cache=cache):
        pass

    assert cache.directory.is_dir()
    with ServiceRoot(None, service.base_url, cache=cache) as again:
        assert again.featured_cookbook.name
    cache.close()


def test_close_keeps_a_cache_directory_given_as_a_path(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url, cache=tmp_path / "cache"):
        pass

    assert any((tmp_path / "cache").iterdir())
