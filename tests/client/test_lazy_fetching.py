"""SPEC "Request behaviour of the client - Lazy fetching", rules 1-5, counted on the wire."""

from __future__ import annotations

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot

from .conftest import clear_journal, wire, wire_with_query


def test_rule_1_creating_the_root_gets_the_root_as_wadl_and_json(
    service: RunningService, version: str
) -> None:
    clear_journal(service)

    with ServiceRoot(None, service.base_url, version=version):
        pass

    assert wire(service) == [("GET", f"/{version}/", 200), ("GET", f"/{version}/", 200)]


def test_rule_2_reading_top_level_collection_attributes_sends_nothing(
    root: ServiceRoot, service: RunningService
) -> None:
    collections = (root.recipes, root.dishes, root.cookbooks)

    assert len(collections) == 3
    assert wire(service) == []


def test_rule_3_len_sends_one_get_for_the_collection_path(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipes = root.recipes

    len(recipes)

    assert wire(service) == [("GET", f"/{version}/recipes", 200)]


def test_rule_3_any_entry_sends_one_get_for_the_collection_path(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    dishes = root.dishes

    dishes[1]

    assert wire(service) == [("GET", f"/{version}/dishes", 200)]


def test_rule_4_a_named_operation_sends_one_request(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbooks = root.cookbooks

    cookbooks.find_recipes(search="foo")

    assert wire_with_query(service) == [
        ("GET", f"/{version}/cookbooks", "search=%22foo%22&ws.op=find_recipes", 200)
    ]


def test_rule_5_reading_a_scoped_collection_attribute_sends_nothing(
    root: ServiceRoot, service: RunningService
) -> None:
    dish = root.dishes[0]
    clear_journal(service)

    recipes = dish.recipes

    assert repr(recipes) == f"<recipe collection at {dish.self_link}/recipes>"
    assert wire(service) == []


def test_rule_5_len_of_a_scoped_collection_gets_its_path(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    dish = root.dishes[0]
    recipes = dish.recipes
    clear_journal(service)

    len(recipes)

    assert wire(service) == [("GET", f"/{version}/dishes/{dish.id}/recipes", 200)]


def test_rule_5_an_entry_of_a_scoped_collection_gets_its_path(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipes = root.dishes[0].recipes
    clear_journal(service)

    recipes[0]

    assert [(m, p) for m, p, _ in wire(service)] == [("GET", f"/{version}/dishes/1/recipes")]


def test_lazy_lookup_sends_nothing_until_a_field_is_read(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes(1)
    attributes = recipe.lp_attributes
    assert wire(service) == []

    instructions = recipe.instructions

    assert instructions
    assert "instructions" in attributes
    assert wire(service) == [("GET", f"/{version}/recipes/1", 200)]


def test_following_a_link_fetches_only_the_entry_holding_it(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes(1)

    dish = recipe.dish

    assert wire(service) == [("GET", f"/{version}/recipes/1", 200)]
    clear_journal(service)
    assert dish.name
    assert [path for _, path, _ in wire(service)] == [f"/{version}/dishes/{dish.id}"]


def test_named_operation_on_a_linked_entry_sends_only_the_operation(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes[0]
    clear_journal(service)

    recipe.cookbook.find_recipes(search="e")

    assert [(m, q.split("&")[-1]) for m, _, q, _ in wire_with_query(service)] == [
        ("GET", "ws.op=find_recipes")
    ]
