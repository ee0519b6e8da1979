"""Entries: typed fields, links, meta-attributes, equality, redaction, entries from pages.

Saving, refreshing and deleting them: test_entry_writes.py.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from cookbook_service.testing import (
    FEATURED_COOKBOOK,
    RunningService,
)
from wadlclient import (
    AccessToken,
    Collection,
    Entry,
    HostedFile,
    OAuthAuthorizer,
    Redacted,
    ServiceRoot,
)

from .conftest import clear_journal, journal_entries, wire

# -- typed fields ------------------------------------------------------------------


def test_datetime_fields_are_aware_datetimes(root: ServiceRoot) -> None:
    cookbook = root.cookbooks[FEATURED_COOKBOOK]

    assert cookbook.copyright_date == datetime(1961, 10, 16, tzinfo=timezone.utc)


def test_decimal_fields_are_decimals(root: ServiceRoot) -> None:
    cookbook = root.cookbooks[FEATURED_COOKBOOK]

    assert cookbook.price == Decimal("18.95")
    assert isinstance(cookbook.price, Decimal)


def test_integer_and_boolean_fields_keep_their_types(root: ServiceRoot) -> None:
    recipe = root.recipes[0]

    assert recipe.id == 1
    assert recipe.private is False


def test_null_fields_are_none(root: ServiceRoot) -> None:
    cookbook = root.cookbooks["Everyday Greens"]

    assert cookbook.last_printing is None


def test_linked_entries_are_entries(root: ServiceRoot) -> None:
    recipe = root.recipes[0]

    assert isinstance(recipe.dish, Entry)
    assert recipe.cookbook.name == FEATURED_COOKBOOK


def test_scoped_collections_are_collections(root: ServiceRoot) -> None:
    assert isinstance(root.dishes[0].recipes, Collection)


def test_hosted_file_links_are_hosted_files(root: ServiceRoot) -> None:
    assert isinstance(root.cookbooks[FEATURED_COOKBOOK].cover, HostedFile)


# -- meta-attributes ----------------------------------------------------------------


def test_lp_attributes_lists_plain_fields(root: ServiceRoot) -> None:
    cookbook = root.cookbooks(FEATURED_COOKBOOK)

    assert {"name", "cuisine", "copyright_date", "price", "self_link", "http_etag"} <= set(
        cookbook.lp_attributes
    )
    assert "recipes" not in cookbook.lp_attributes


def test_lp_entries_lp_collections_and_lp_operations(root: ServiceRoot) -> None:
    cookbook = root.cookbooks(FEATURED_COOKBOOK)

    assert cookbook.lp_entries == ["cover"]
    assert cookbook.lp_collections == ["recipes"]
    assert sorted(cookbook.lp_operations) == [
        "find_recipe_for",
        "find_recipes",
        "make_more_interesting",
        "replace_cover",
    ]
    assert sorted(root.recipes(1).lp_entries) == ["cookbook", "dish"]


def test_lp_values_for_lists_the_options_of_a_field(root: ServiceRoot) -> None:
    cookbook = root.cookbooks(FEATURED_COOKBOOK)

    assert "Française" in (cookbook.lp_values_for("cuisine") or [])
    assert cookbook.lp_values_for("copyright_date") is None


def test_self_link_resource_type_link_and_http_etag(root: ServiceRoot, version: str) -> None:
    recipe = root.recipes[0]

    assert recipe.self_link == f"{root.service_root}recipes/1"
    assert recipe.resource_type_link.endswith("#recipe")
    assert recipe.http_etag


def test_dir_includes_fields_and_operations(root: ServiceRoot) -> None:
    names = dir(root.cookbooks(FEATURED_COOKBOOK))

    assert {"cuisine", "recipes", "cover", "find_recipes", "lp_save"} <= set(names)


def test_unknown_field_raises_attribute_error_naming_the_url(
    root: ServiceRoot, service: RunningService
) -> None:
    recipe = root.recipes(1)

    with pytest.raises(AttributeError) as caught:
        _ = recipe.is_great

    assert str(recipe) in str(caught.value)
    assert "is_great" in str(caught.value)
    assert wire(service) == []


def test_setting_an_unknown_field_raises_attribute_error(root: ServiceRoot) -> None:
    recipe = root.recipes(1)

    with pytest.raises(AttributeError, match="is_great"):
        recipe.is_great = True


# -- equality -------------------------------------------------------------------------


def test_two_objects_for_the_same_entry_are_equal(root: ServiceRoot) -> None:
    recipe = root.recipes[0]

    assert recipe == root.load(recipe.self_link)
    assert recipe is not root.load(recipe.self_link)


def test_different_entries_are_not_equal(root: ServiceRoot) -> None:
    assert root.recipes[0] != root.recipes[1]


def test_an_entry_is_never_equal_to_none(root: ServiceRoot) -> None:
    assert root.recipes[0] != None  # noqa: E711


def test_local_changes_make_entries_unequal(root: ServiceRoot) -> None:
    recipe, same = root.recipes[0], root.recipes[0]

    recipe.instructions = "Changed."

    assert recipe != same


# -- redacted values ----------------------------------------------------------------------


def test_redacted_link_raises_a_clear_error_when_followed(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    service = cookbook_service_factory(auth="oauth")
    anonymous = OAuthAuthorizer("any-consumer", access_token=AccessToken("", ""))
    with ServiceRoot(anonymous, service.base_url) as root:
        recipe = root.recipes[0]

        with pytest.raises(ValueError, match="server-side permission"):
            _ = recipe.cookbook


def test_a_redacted_link_does_not_stop_tab_completion(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    import rlcompleter

    service = cookbook_service_factory(auth="oauth")
    anonymous = OAuthAuthorizer("any-consumer", access_token=AccessToken("", ""))
    with ServiceRoot(anonymous, service.base_url) as root:
        recipe = root.recipes[0]
        completer = rlcompleter.Completer({"recipe": recipe})

        offered = completer.attr_matches("recipe.")

        assert "recipe.cookbook" in offered and "recipe.dish" in offered
        assert getattr(recipe, "cookbook", None) is None
        with pytest.raises(Redacted):
            _ = recipe.cookbook


# -- entries from pages and the cache (SPEC caching rules 5 and 6) ------------------------


def test_an_entry_from_a_page_refreshes_with_a_conditional_get_answered_304(
    root: ServiceRoot, service: RunningService
) -> None:
    recipe = root.recipes[0]
    clear_journal(service)

    recipe.lp_refresh()

    (entry,) = journal_entries(service)
    assert (entry.if_none_match, entry.status) == (recipe.http_etag, 304)


def test_an_entry_from_a_page_looked_up_by_id_is_fetched_in_full(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes[0]
    clear_journal(service)

    again = root.recipes.lookup(recipe.id)

    (entry,) = journal_entries(service)
    assert (entry.path, entry.if_none_match, entry.status) == (
        f"/{version}/recipes/{recipe.id}",
        None,
        200,
    )
    assert again == recipe
