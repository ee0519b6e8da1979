"""Named operations: arguments, encoding, GET/POST, 201 Created, results."""

from __future__ import annotations

import urllib.parse
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from cookbook_service.testing import FEATURED_COOKBOOK, RunningService
from wadlclient import BadRequest, Collection, Entry, NamedOperation, ServiceRoot

from .conftest import clear_journal, journal_entries, wire, wire_with_query

WHEN = datetime(1994, 1, 1, tzinfo=timezone.utc)


def create_args(name: str) -> dict[str, object]:
    return {
        "name": name,
        "cuisine": "General",
        "copyright_date": WHEN,
        "price": Decimal("1.23"),
        "last_printing": WHEN,
    }


def test_named_operations_are_attributes(root: ServiceRoot) -> None:
    assert isinstance(root.cookbooks.find_recipes, NamedOperation)
    assert {"find_recipes", "find_for_cuisine", "create"} <= set(root.cookbooks.lp_operations)


def test_a_read_only_operation_is_a_get_with_json_encoded_query_arguments(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    root.cookbooks.find_recipes(search="1.234")

    (method, path, query, status), = wire_with_query(service)
    assert (method, path, status) == ("GET", f"/{version}/cookbooks", 200)
    assert urllib.parse.parse_qs(query) == {"search": ['"1.234"'], "ws.op": ["find_recipes"]}


def test_an_option_value_is_sent_as_it_is(
    root: ServiceRoot, service: RunningService
) -> None:
    found = root.cookbooks.find_for_cuisine(cuisine="General")

    (_, _, query, _), = wire_with_query(service)
    assert urllib.parse.parse_qs(query)["cuisine"] == ["General"]
    assert {cookbook.cuisine for cookbook in found} == {"General"}


def test_a_collection_result_supports_len_slices_and_iteration(root: ServiceRoot) -> None:
    found = root.cookbooks.find_recipes(search="e")

    everything = [recipe.id for recipe in found]
    assert [recipe.id for recipe in found[1:3]] == everything[1:3]
    assert len(found) == len(everything)


def test_an_empty_result_is_an_empty_collection(root: ServiceRoot) -> None:
    found = root.cookbooks.find_recipes(search="no such text anywhere")

    assert isinstance(found, Collection)
    assert list(found) == []
    assert len(found) == 0


def test_an_entry_operation_uses_the_entry_url(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbook = root.cookbooks(FEATURED_COOKBOOK)

    found = cookbook.find_recipes(search="")

    assert [path for _, path, _ in wire(service)] == [
        f"/{version}/cookbooks/Mastering%20the%20Art%20of%20French%20Cooking"
    ]
    assert {recipe.cookbook.name for recipe in found} == {FEATURED_COOKBOOK}


def test_positional_arguments_are_a_type_error(
    root: ServiceRoot, service: RunningService
) -> None:
    with pytest.raises(TypeError, match="keyword arguments only"):
        root.cookbooks.find_recipes("e")

    assert wire(service) == []


def test_an_unknown_argument_is_a_type_error_before_any_request(
    root: ServiceRoot, service: RunningService
) -> None:
    with pytest.raises(TypeError, match="colour"):
        root.cookbooks.find_recipes(search="e", colour="red")

    assert wire(service) == []


def test_a_missing_required_argument_is_a_type_error_before_any_request(
    root: ServiceRoot, service: RunningService
) -> None:
    arguments = create_args("Incomplete")
    del arguments["price"]

    with pytest.raises(TypeError, match="price"):
        root.cookbooks.create(**arguments)

    assert wire(service) == []


def test_a_value_outside_the_options_is_a_value_error_before_any_request(
    root: ServiceRoot, service: RunningService
) -> None:
    with pytest.raises(ValueError, match="Klingon"):
        root.cookbooks.find_for_cuisine(cuisine="Klingon")

    assert wire(service) == []


def test_create_answers_201_and_the_client_fetches_the_new_entry(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbook = root.cookbooks.create(**create_args("New cookbook"))

    assert isinstance(cookbook, Entry)
    assert (cookbook.name, cookbook.price, cookbook.copyright_date) == (
        "New cookbook",
        Decimal("1.23"),
        WHEN,
    )
    assert wire(service) == [
        ("POST", f"/{version}/cookbooks", 201),
        ("GET", f"/{version}/cookbooks/New%20cookbook", 200),
    ]


@pytest.mark.parametrize("name", ["null", "4.56", '"foo"', "[]"])
def test_string_arguments_that_look_like_json_stay_strings(root: ServiceRoot, name: str) -> None:
    cookbook = root.cookbooks.create(**create_args(name))

    assert cookbook.name == name


def test_a_string_where_a_number_is_expected_is_refused_by_the_server(root: ServiceRoot) -> None:
    arguments = {**create_args("Price as text"), "price": "1.23"}

    with pytest.raises(BadRequest):
        root.cookbooks.create(**arguments)


def test_an_entry_argument_is_sent_as_its_link(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks(FEATURED_COOKBOOK)

    root.cookbooks.find_recipes(search=cookbook)

    (_, _, query, _), = wire_with_query(service)
    assert urllib.parse.parse_qs(query)["search"] == [f'"{cookbook}"']


def test_a_post_operation_that_moves_the_entry_is_followed(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbook = root.cookbooks["Everyday Greens"]
    clear_journal(service)

    cookbook.make_more_interesting()

    assert wire(service)[0] == ("POST", f"/{version}/cookbooks/Everyday%20Greens", 301)
    assert cookbook.name == "The New Everyday Greens"
    assert str(cookbook) == f"{root.service_root}cookbooks/The%20New%20Everyday%20Greens"


def test_a_value_json_cannot_carry_is_a_type_error_before_any_request(
    root: ServiceRoot, service: RunningService
) -> None:
    with pytest.raises(TypeError, match="cannot send"):
        root.cookbooks.find_recipes(search=object())

    assert wire(service) == []


def test_the_created_entry_is_cached_so_loading_it_again_is_conditional(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks.create(**create_args("Cached cookbook"))
    clear_journal(service)

    again = root.load(cookbook.self_link)

    (entry,) = journal_entries(service)
    assert (entry.method, entry.if_none_match, entry.status) == ("GET", cookbook.http_etag, 304)
    assert again == cookbook


def test_an_operation_shows_its_wadl_parameters_and_doc_to_help_and_inspect(
    root: ServiceRoot,
) -> None:
    import inspect
    import pydoc

    create = root.cookbooks.create

    assert isinstance(create, NamedOperation)
    assert str(inspect.signature(create)) == (
        "(*, name, cuisine, copyright_date, price, last_printing=None)"
    )
    shown = pydoc.render_doc(create, renderer=pydoc.plaintext)
    assert "class create(NamedOperation)" in shown
    assert "cuisine (required; one of 'American', 'Dessert'" in shown
    assert "name (required): The new cookbook's name." in shown
    assert type(root.cookbooks.create) is type(create)  # one class per operation, made once
