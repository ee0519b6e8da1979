"""Entries: typed fields, links, meta-attributes, save/refresh/delete, equality, redaction."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from cookbook_service.testing import (
    COOKBOOK_NAMES,
    FEATURED_COOKBOOK,
    RunningService,
)
from wadlclient import (
    AccessToken,
    BadRequest,
    Collection,
    Entry,
    HostedFile,
    MethodNotAllowed,
    NotFound,
    OAuthAuthorizer,
    PreconditionFailed,
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


# -- lp_save ---------------------------------------------------------------------------


def test_lp_save_patches_only_changed_fields_with_if_match(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes[0]
    etag = recipe.http_etag
    clear_journal(service)

    recipe.instructions = "Modified instructions"
    recipe.lp_save()

    entries = journal_entries(service)
    assert [(e.method, e.path, e.if_match, e.status) for e in entries] == [
        ("PATCH", f"/{version}/recipes/1", etag, 209)
    ]
    assert recipe.instructions == "Modified instructions"
    assert recipe.http_etag != etag


def test_lp_save_is_seen_by_a_fresh_lookup(root: ServiceRoot) -> None:
    recipe = root.recipes[0]
    recipe.instructions = "Saved for good."

    recipe.lp_save()

    assert root.recipes.lookup(1).instructions == "Saved for good."


def test_lp_save_sends_linked_entries_as_links(root: ServiceRoot) -> None:
    recipe = root.recipes[0]
    other = root.cookbooks["Everyday Greens"]

    recipe.cookbook = other
    recipe.lp_save()

    assert recipe.cookbook.name == "Everyday Greens"


def test_lp_save_sends_datetimes_and_decimals(root: ServiceRoot) -> None:
    cookbook = root.cookbooks["Everyday Greens"]
    when = datetime(2009, 1, 1, tzinfo=timezone.utc)

    cookbook.last_printing = when
    cookbook.price = Decimal("12.50")
    cookbook.lp_save()

    fresh = root.cookbooks.lookup("Everyday Greens")
    assert (fresh.last_printing, fresh.price) == (when, Decimal("12.50"))


def test_lp_save_with_a_stale_etag_raises_precondition_failed_and_keeps_changes(
    root: ServiceRoot,
) -> None:
    first = root.cookbooks["The Joy of Cooking"]
    second = root.cookbooks["The Joy of Cooking"]
    first.description = "A description."
    first.lp_save()

    second.description = "A conflicting description."
    with pytest.raises(PreconditionFailed, match="HTTP Error 412: Precondition Failed"):
        second.lp_save()

    assert second.description == "A conflicting description."


def test_after_412_refresh_then_save_succeeds(root: ServiceRoot) -> None:
    first = root.cookbooks["The Joy of Cooking"]
    second = root.cookbooks["The Joy of Cooking"]
    first.description = "One."
    first.lp_save()
    second.description = "Two."
    with pytest.raises(PreconditionFailed):
        second.lp_save()

    second.lp_refresh()
    second.description = "Two."
    second.lp_save()

    assert root.cookbooks.lookup("The Joy of Cooking").description == "Two."


def test_a_refused_save_names_the_changes_it_kept_and_saves_once_they_are_set_right(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks[0]
    cookbook.description = "Revised."
    cookbook.price = Decimal("-1")

    with pytest.raises(BadRequest) as refused:
        cookbook.lp_save()

    assert "A price may not be negative" in str(refused.value)
    assert "unsaved changes kept (description, price)" in str(refused.value)
    assert "lp_refresh() to drop them" in str(refused.value)
    cookbook.price = Decimal("12.50")
    cookbook.lp_save()
    assert (cookbook.description, cookbook.price) == ("Revised.", Decimal("12.50"))


def test_lp_refresh_drops_the_changes_a_refused_save_kept(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks[0]
    cookbook.price = Decimal("-1")
    with pytest.raises(BadRequest):
        cookbook.lp_save()

    cookbook.lp_refresh()
    cookbook.description = "Only this."
    clear_journal(service)
    cookbook.lp_save()

    assert [entry.method for entry in journal_entries(service)] == ["PATCH"]
    assert cookbook.description == "Only this."


def test_renaming_moves_the_entry_and_lp_save_follows_it(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cookbook = root.cookbooks["The Joy of Cooking"]
    clear_journal(service)

    cookbook.name = "Another Name"
    cookbook.lp_save()

    assert cookbook.self_link == f"{root.service_root}cookbooks/Another%20Name"
    assert cookbook.name == "Another Name"
    assert wire(service)[0][::2] == ("PATCH", 301)
    with pytest.raises(NotFound):
        root.load(f"{root.service_root}cookbooks/The%20Joy%20of%20Cooking")


def test_a_moved_entry_can_be_saved_again(root: ServiceRoot) -> None:
    cookbook = root.cookbooks["The Joy of Cooking"]
    cookbook.name = "Another Name"
    cookbook.lp_save()

    cookbook.description = "This cookbook was renamed"
    cookbook.lp_save()

    assert root.cookbooks.lookup("Another Name").description == "This cookbook was renamed"


# -- lp_refresh --------------------------------------------------------------------------


def test_lp_refresh_of_an_unchanged_entry_is_a_conditional_get_answered_304(
    root: ServiceRoot, service: RunningService
) -> None:
    recipe = root.recipes[0]
    etag = recipe.http_etag
    clear_journal(service)

    recipe.lp_refresh()

    entries = journal_entries(service)
    assert [(e.method, e.if_none_match, e.status) for e in entries] == [("GET", etag, 304)]
    assert recipe.instructions


def test_lp_refresh_of_a_changed_entry_gets_the_new_data(root: ServiceRoot) -> None:
    stale = root.recipes[0]
    writer = root.recipes.lookup(1)
    writer.instructions = "Even newer instructions"
    writer.lp_save()

    stale.lp_refresh()

    assert stale.instructions == "Even newer instructions"
    assert stale == writer


def test_lp_refresh_drops_unsaved_changes(root: ServiceRoot) -> None:
    recipe = root.recipes[0]
    original = recipe.instructions
    recipe.instructions = "Not saved."

    recipe.lp_refresh()

    assert recipe.instructions == original


# -- lp_delete ---------------------------------------------------------------------------


def test_lp_delete_removes_the_entry(root: ServiceRoot, service: RunningService) -> None:
    recipe = root.recipes.lookup(6)
    clear_journal(service)

    recipe.lp_delete()

    assert [(m, s) for m, _, s in wire(service)] == [("DELETE", 200)]
    with pytest.raises(NotFound):
        recipe.lp_refresh()


def test_lp_delete_of_an_undeletable_entry_is_method_not_allowed(root: ServiceRoot) -> None:
    with pytest.raises(MethodNotAllowed):
        root.cookbooks[COOKBOOK_NAMES[0]].lp_delete()


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


def test_a_value_outside_the_wadls_options_is_refused_before_anything_is_sent(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks[0]
    clear_journal(service)

    refused = r"cuisine .* may only be one of .*'Française'.*not 'Klingon'"
    with pytest.raises(ValueError, match=refused):
        cookbook.cuisine = "Klingon"

    cookbook.lp_save()
    assert wire(service) == []


def test_a_field_the_wadl_does_not_let_change_is_refused_before_anything_is_sent(
    root: ServiceRoot, service: RunningService
) -> None:
    cookbook = root.cookbooks[0]
    clear_journal(service)

    with pytest.raises(AttributeError, match=r"copyright_date of cookbook at .* is read-only"):
        cookbook.copyright_date = None

    cookbook.description = "Still writable."
    cookbook.lp_save()
    assert [entry.method for entry in journal_entries(service)] == ["PATCH"]
    assert cookbook.description == "Still writable."


def test_a_read_only_field_of_the_launchpad_wadl_is_told_apart(
    launchpad_wadl_bytes: bytes,
) -> None:
    from wadlclient.schema import Schema
    from wadlclient.wadl import parse_wadl

    bug = Schema(parse_wadl(launchpad_wadl_bytes)).type_info("bug")

    assert bug.writable is not None
    assert {"title", "description", "tags"} <= bug.writable
    assert "date_created" not in bug.writable and "id" not in bug.writable
