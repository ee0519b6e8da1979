"""Entries written: lp_save, lp_refresh, lp_delete, and values refused before anything is sent."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal

import pytest

from cookbook_service.testing import (
    COOKBOOK_NAMES,
    RunningService,
)
from wadlclient import (
    BadRequest,
    MethodNotAllowed,
    NotFound,
    PreconditionFailed,
    ServiceRoot,
)

from .conftest import clear_journal, journal_entries, wire

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
