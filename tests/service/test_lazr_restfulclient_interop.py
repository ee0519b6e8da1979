"""lazr.restfulclient, unchanged, uses the running service: the dialect is faithful.

lazr.restfulclient asks for ``application/vnd.sun.wadl+xml`` and goes
through httplib2 with its own cache; nothing here special-cases it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lazr.restfulclient.errors import PreconditionFailed
from lazr.restfulclient.resource import ServiceRoot

from cookbook_service.testing import (
    FEATURED_COOKBOOK,
    PUBLIC_RECIPE_COUNT,
    PUBLIC_RECIPE_IDS,
    RunningService,
)


@pytest.fixture
def lazr_root(cookbook_service: RunningService, tmp_path: Path) -> Iterator[Any]:
    yield ServiceRoot(None, cookbook_service.url(), cache=str(tmp_path))


def test_lazr_loads_the_service_root(lazr_root: Any) -> None:
    assert sorted(lazr_root.lp_collections) == ["cookbooks", "dishes", "recipes"]
    assert lazr_root.lp_entries == ["featured_cookbook"]
    assert lazr_root.featured_cookbook.name == FEATURED_COOKBOOK


def test_lazr_iterates_and_counts_a_collection_across_pages(lazr_root: Any) -> None:
    ids = [recipe.id for recipe in lazr_root.recipes]

    assert ids == list(PUBLIC_RECIPE_IDS)
    assert len(lazr_root.recipes) == PUBLIC_RECIPE_COUNT


def test_lazr_slices_a_collection(lazr_root: Any) -> None:
    assert [r.id for r in lazr_root.recipes[1:8:3]] == list(PUBLIC_RECIPE_IDS[1:8:3])
    assert [r.id for r in lazr_root.recipes[6:100]] == list(PUBLIC_RECIPE_IDS[6:100])


def test_lazr_follows_links_and_scoped_collections(lazr_root: Any) -> None:
    recipe = lazr_root.recipes[0]

    assert recipe.dish.name == "Roast chicken"
    assert len(recipe.cookbook.recipes) == 2


def test_lazr_converts_datetimes_from_the_wadl_types(lazr_root: Any) -> None:
    cookbook = lazr_root.featured_cookbook

    assert cookbook.copyright_date == datetime.datetime(1961, 10, 16, tzinfo=datetime.timezone.utc)
    assert sorted(cookbook.lp_values_for("cuisine")) == [
        "American",
        "Dessert",
        "Française",
        "General",
        "Vegetarian",
    ]


def test_lazr_calls_find_recipes(lazr_root: Any) -> None:
    found = lazr_root.cookbooks.find_recipes(search="greens")

    assert [r.instructions for r in found] == ["Wash the greens twice."]
    assert len(found) == 1


def test_lazr_calls_create_and_gets_the_new_cookbook(lazr_root: Any) -> None:
    date = datetime.datetime(1994, 1, 1)

    cookbook = lazr_root.cookbooks.create(
        name="New cookbook",
        cuisine="General",
        copyright_date=date,
        price=1.23,
        last_printing=date,
    )

    assert cookbook.name == "New cookbook"
    assert cookbook.price == 1.23


def test_lazr_refresh_gets_a_304(lazr_root: Any, cookbook_service: RunningService) -> None:
    recipe = lazr_root.recipes[0]
    cookbook_service.journal.clear()

    recipe.lp_refresh()

    [entry] = cookbook_service.journal.entries()
    assert (entry.path, entry.status) == ("/1.0/recipes/1", 304)


def test_lazr_saves_a_change(lazr_root: Any, cookbook_service: RunningService) -> None:
    recipe = lazr_root.recipes[0]
    recipe.instructions = "Saved by lazr."

    recipe.lp_save()

    assert lazr_root.load(recipe.self_link).instructions == "Saved by lazr."


def test_lazr_save_with_a_stale_copy_is_refused(lazr_root: Any) -> None:
    first = lazr_root.load(lazr_root.featured_cookbook.self_link)
    second = lazr_root.load(first.self_link)
    first.description = "First."
    first.lp_save()
    second.description = "Second."

    with pytest.raises(PreconditionFailed):
        second.lp_save()


def test_lazr_follows_a_rename(lazr_root: Any) -> None:
    cookbook = lazr_root.load(lazr_root.featured_cookbook.self_link)
    cookbook.name = "Renamed by lazr"

    cookbook.lp_save()

    assert cookbook.self_link.endswith("/cookbooks/Renamed%20by%20lazr")


def test_lazr_writes_and_reads_a_hosted_file(lazr_root: Any) -> None:
    cover = lazr_root.load(lazr_root.featured_cookbook.self_link).cover
    handle = cover.open("w", "image/png", "cover.png")
    handle.write(b"\x00\xe2\xe3")
    handle.close()

    reader = cover.open()

    assert reader.read() == b"\x00\xe2\xe3"
    assert reader.content_type == "image/png"


def test_lazr_passes_an_entry_and_binary_data_to_operations(lazr_root: Any) -> None:
    recipe = lazr_root.recipes[0]
    cookbook = recipe.cookbook

    found = cookbook.find_recipe_for(dish=recipe.dish)
    cookbook.replace_cover(cover=b"\x00\xe2\xe3")

    assert found.self_link == recipe.self_link
    assert cookbook.cover.open().read() == b"\x00\xe2\xe3"
