"""SPEC "Collections: slicing, indexing, iteration", rules 1-6, and key-based look-ups."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cookbook_service.testing import (
    COOKBOOK_NAMES,
    DISHES,
    PUBLIC_RECIPE_COUNT,
    PUBLIC_RECIPE_IDS,
    RunningService,
)
from cookbook_service.wadl import generate_wadl
from wadlclient import EXAMPLE_WADL_MEDIA_TYPE, Collection, Entry, NotFound, ServiceRoot

from .conftest import clear_journal, serve_app, wire, wire_with_query

START_MESSAGE = "Collection slices must have a nonnegative start point."
STOP_MESSAGE = "Collection slices must have a definite, nonnegative end point."

# -- rule 1: iteration and length ----------------------------------------------


def test_rule_1_iteration_yields_every_entry_of_a_top_level_collection(root: ServiceRoot) -> None:
    ids = [recipe.id for recipe in root.recipes]

    assert ids == list(PUBLIC_RECIPE_IDS)


def test_rule_1_len_is_the_entry_count(root: ServiceRoot) -> None:
    assert len(root.recipes) == PUBLIC_RECIPE_COUNT
    assert len(root.dishes) == len(DISHES)


def test_rule_1_iteration_follows_next_links_page_by_page(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipes = list(root.recipes)

    pages = wire_with_query(service)
    assert len(recipes) == PUBLIC_RECIPE_COUNT
    assert [(m, p) for m, p, _, _ in pages] == [("GET", f"/{version}/recipes")] * 2
    assert "ws.start=5" in pages[1][2]


def test_rule_1_iteration_and_len_agree_on_a_scoped_collection(root: ServiceRoot) -> None:
    dish = root.dishes[0]

    assert len(list(dish.recipes)) == len(dish.recipes) > 1


def test_rule_1_iteration_and_len_agree_on_a_named_operation_result(root: ServiceRoot) -> None:
    found = root.cookbooks.find_recipes(search="e")

    assert len(list(found)) == len(found) > 5


def test_iteration_of_a_big_collection_matches_len(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    service = cookbook_service_factory(seed_recipes=40, page_size=7)
    with ServiceRoot(None, service.base_url) as root:
        ids = [recipe.id for recipe in root.recipes]

        assert len(ids) == len(set(ids)) == len(root.recipes)


# -- rule 2: slices equal slices of the full list ----------------------------------


@pytest.fixture
def big(cookbook_service_factory: Callable[..., RunningService]) -> Iterator[ServiceRoot]:
    """A service with more than 40 recipes in pages of 5."""
    service = cookbook_service_factory(seed_recipes=35, page_size=5)
    with ServiceRoot(None, service.base_url) as root:
        yield root


@pytest.fixture
def everything(big: ServiceRoot) -> list[int]:
    """The ids of a whole walk of ``big``'s recipes: walked once for all a test's examples."""
    return [recipe.id for recipe in big.recipes]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    start=st.integers(min_value=0, max_value=60),
    stop=st.integers(min_value=0, max_value=60),
    step=st.integers(min_value=1, max_value=9) | st.integers(min_value=-9, max_value=-1),
)
def test_rule_2_a_slice_equals_the_same_slice_of_the_full_list(
    big: ServiceRoot, everything: list[int], start: int, stop: int, step: int
) -> None:
    sliced = [recipe.id for recipe in big.recipes[start:stop:step]]

    assert sliced == everything[start:stop:step]


def test_rule_2_stop_beyond_the_size_gives_a_shorter_result(root: ServiceRoot) -> None:
    everything = [recipe.id for recipe in root.recipes]

    assert [r.id for r in root.recipes[2:200]] == everything[2:]


def test_rule_2_start_beyond_the_size_gives_an_empty_result(root: ServiceRoot) -> None:
    assert root.recipes[100:200] == []


def test_rule_2_a_step_greater_than_one(root: ServiceRoot) -> None:
    everything = [recipe.id for recipe in root.recipes]

    assert [r.id for r in root.recipes[1:8:3]] == everything[1:8:3]


def test_a_slice_fetches_only_the_pages_it_needs(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipes = root.recipes

    found = recipes[6:8]

    assert len(found) == 2
    assert wire_with_query(service) == [
        ("GET", f"/{version}/recipes", "ws.start=6&ws.size=2", 200)
    ]


# -- rules 3 and 4: slice bounds -------------------------------------------------


def test_rule_4_a_negative_start_is_a_value_error(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as caught:
        root.recipes[-1:3]

    assert str(caught.value) == START_MESSAGE


def test_rule_4_a_missing_stop_is_a_value_error(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as caught:
        root.recipes[5:]

    assert str(caught.value) == STOP_MESSAGE


def test_rule_4_a_negative_stop_is_a_value_error(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as caught:
        root.recipes[1:-1]

    assert str(caught.value) == STOP_MESSAGE


def test_rule_4_the_whole_list_slice_is_a_value_error(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as caught:
        root.recipes[:]

    assert str(caught.value) == STOP_MESSAGE


def test_rule_4_start_is_checked_first(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as caught:
        root.recipes[-1:]

    assert str(caught.value) == START_MESSAGE


def test_rule_3_an_omitted_start_means_zero(root: ServiceRoot) -> None:
    everything = [recipe.id for recipe in root.recipes]

    assert [r.id for r in root.recipes[:3]] == everything[:3]


def test_rule_4_bad_bounds_send_nothing(root: ServiceRoot, service: RunningService) -> None:
    with pytest.raises(ValueError):
        root.recipes[3:]

    assert wire(service) == []


# -- rule 5: indexing ----------------------------------------------------------------


def test_rule_5_an_index_returns_the_entry_at_that_position(root: ServiceRoot) -> None:
    everything = [recipe.id for recipe in root.recipes]

    assert root.recipes[6].id == everything[6]


def test_rule_5_an_index_beyond_the_end_is_an_index_error(root: ServiceRoot) -> None:
    with pytest.raises(IndexError) as caught:
        root.recipes[PUBLIC_RECIPE_COUNT]

    assert str(caught.value) == "list index out of range"


def test_rule_5_an_index_beyond_a_named_operation_result_is_an_index_error(
    root: ServiceRoot,
) -> None:
    found = root.cookbooks.find_recipes(search="e")

    with pytest.raises(IndexError, match=r"^list index out of range$"):
        found[1000]


def test_a_negative_index_is_refused_and_the_error_says_what_to_do(root: ServiceRoot) -> None:
    with pytest.raises(ValueError) as refused:
        root.recipes[-1]

    assert str(refused.value) == (
        "Collection indices must be nonnegative, not -1: for the last entries, "
        "use coll[len(coll) - 1] (len() may cost a request)."
    )


# -- rule 6: a first page already fetched serves slices --------------------------------


def test_rule_6_after_len_a_slice_within_the_first_page_sends_nothing(
    root: ServiceRoot, service: RunningService
) -> None:
    recipes = root.recipes
    len(recipes)
    clear_journal(service)

    found = recipes[1:4]

    assert [r.id for r in found] == list(PUBLIC_RECIPE_IDS[1:4])
    assert wire(service) == []


def test_rule_6_a_slice_past_the_first_page_reuses_it(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipes = root.recipes
    len(recipes)
    clear_journal(service)

    found = recipes[3:7]

    assert [r.id for r in found] == list(PUBLIC_RECIPE_IDS[3:7])
    assert wire_with_query(service) == [
        ("GET", f"/{version}/recipes", "ws.start=5&ws.size=2", 200)
    ]


def test_named_operation_result_slices_from_its_first_page(
    root: ServiceRoot, service: RunningService
) -> None:
    found = root.cookbooks.find_recipes(search="e")
    clear_journal(service)

    assert len(found[1:3]) == 2
    assert wire(service) == []


# -- entries of pages are entries ------------------------------------------------------


def test_entries_of_a_page_are_entries_with_fields(root: ServiceRoot) -> None:
    first = root.dishes[0]

    assert isinstance(first, Entry)
    assert first.name == DISHES[0]


# -- key-based look-up -------------------------------------------------------------------


def test_lookup_by_key_sends_one_get_of_the_key_url(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbook = root.cookbooks["The Joy of Cooking"]

    assert cookbook.name == "The Joy of Cooking"
    assert wire(service) == [("GET", f"/{version}/cookbooks/The%20Joy%20of%20Cooking", 200)]


def test_lookup_method_accepts_any_key(root: ServiceRoot) -> None:
    assert root.recipes.lookup(1).id == 1


def test_lookup_of_a_missing_key_is_a_key_error(root: ServiceRoot) -> None:
    with pytest.raises(KeyError) as caught:
        root.cookbooks["No Such Book"]

    assert caught.value.args == ("No Such Book",)


def test_lazy_lookup_sends_nothing(root: ServiceRoot, service: RunningService) -> None:
    cookbook = root.cookbooks("No Such Book")

    assert isinstance(cookbook, Entry)
    assert "cuisine" in cookbook.lp_attributes
    assert wire(service) == []


def test_lazy_lookup_of_a_missing_key_fails_when_a_field_is_read(root: ServiceRoot) -> None:
    cookbook = root.cookbooks("No Such Book")

    with pytest.raises(NotFound):
        _ = cookbook.name


def test_key_urls_percent_encode_the_key(root: ServiceRoot, service: RunningService) -> None:
    name = COOKBOOK_NAMES[-1]

    cookbook = root.cookbooks(name)

    assert str(cookbook).endswith("/cookbooks/La%20P%C3%A2tisserie%20Fran%C3%A7aise")
    assert cookbook.name == name


class RecipesById(Collection):
    """A collection whose key URLs are made differently, to show the hook."""

    def key_url(self, key: object) -> str:
        return f"{self._url}/{int(str(key)) + 1}"


def test_a_collection_subclass_can_override_the_key_url(service: RunningService) -> None:
    class Root(ServiceRoot):
        RESOURCE_TYPE_CLASSES = {"recipes": RecipesById}

    with Root(None, service.base_url) as root:
        recipe = root.recipes.lookup(0)

        assert isinstance(root.recipes, RecipesById)
        assert recipe.id == 1


# -- total_size_link: a collection that states its size by a link ----------------------------


def _sized_by_link_app(seen: list[str], size: int) -> Starlette:
    """The cookbook WADL, and a recipes collection whose size is behind a link."""

    async def service_root(request: Request) -> Response:
        seen.append(request.url.path)
        base = f"{request.base_url}1.0/"
        if EXAMPLE_WADL_MEDIA_TYPE in request.headers.get("accept", ""):
            return Response(generate_wadl(base, EXAMPLE_WADL_MEDIA_TYPE),
                            media_type=EXAMPLE_WADL_MEDIA_TYPE)
        document = {"recipes_collection_link": f"{base}recipes",
                    "resource_type_link": f"{base}#service-root"}
        return Response(json.dumps(document), media_type="application/json")

    async def recipes(request: Request) -> Response:
        seen.append(request.url.path)
        base = f"{request.base_url}1.0/"
        page: dict[str, Any] = {
            "start": 0,
            "entries": [],
            "total_size_link": f"{base}recipes/size",
            "resource_type_link": f"{base}#recipe-page-resource",
        }
        return Response(json.dumps(page), media_type="application/json")

    async def recipes_size(request: Request) -> Response:
        seen.append(request.url.path)
        return Response(json.dumps(size), media_type="application/json")

    return Starlette(routes=[
        Route("/1.0/", service_root),
        Route("/1.0/recipes", recipes),
        Route("/1.0/recipes/size", recipes_size),
    ])


def test_len_follows_total_size_link() -> None:
    seen: list[str] = []
    with serve_app(_sized_by_link_app(seen, 1234)) as base_url, ServiceRoot(None, base_url) as root:
        seen.clear()

        size = len(root.recipes)

    assert size == 1234
    assert seen == ["/1.0/recipes", "/1.0/recipes/size"]
