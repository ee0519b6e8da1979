"""Collections: paging with ws.start/ws.size, links, totals, scoping, privacy."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from cookbook_service.handlers import MAX_PAGE_SIZE
from cookbook_service.testing import (
    COOKBOOK_NAMES,
    DISHES,
    PRIVATE_RECIPE_ID,
    PUBLIC_RECIPE_COUNT,
    PUBLIC_RECIPE_IDS,
    RunningService,
)


def _all_pages(web: httpx.Client, url: str) -> list[dict[str, Any]]:
    pages = [web.get(url).json()]
    while "next_collection_link" in pages[-1]:
        pages.append(web.get(pages[-1]["next_collection_link"]).json())
    return pages


def test_default_page_has_five_entries_and_the_total(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(cookbook_service.url("recipes")).json()

    assert len(page["entries"]) == 5
    assert page["start"] == 0
    assert page["total_size"] == PUBLIC_RECIPE_COUNT
    assert page["resource_type_link"] == cookbook_service.url("#recipe-page-resource")


def test_following_next_links_yields_every_public_recipe_once_in_order(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    pages = _all_pages(web, cookbook_service.url("recipes"))

    ids = [entry["id"] for page in pages for entry in page["entries"]]
    assert ids == list(PUBLIC_RECIPE_IDS)
    assert all(page["total_size"] == len(ids) for page in pages)


def test_ws_start_and_ws_size_select_a_window(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(cookbook_service.url("recipes"), params={"ws.start": 2, "ws.size": 3}).json()

    assert [e["id"] for e in page["entries"]] == list(PUBLIC_RECIPE_IDS[2:5])
    assert page["start"] == 2


def test_prev_link_points_to_the_previous_window(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(cookbook_service.url("recipes"), params={"ws.start": 5}).json()

    previous = web.get(page["prev_collection_link"]).json()
    assert previous["start"] == 0
    assert "prev_collection_link" not in previous


def test_first_page_has_no_prev_and_last_page_has_no_next(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    pages = _all_pages(web, cookbook_service.url("recipes"))

    assert "prev_collection_link" not in pages[0]
    assert "next_collection_link" not in pages[-1]
    assert len(pages) == 2


def test_start_beyond_the_end_gives_an_empty_page(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(cookbook_service.url("recipes"), params={"ws.start": 1000}).json()

    assert page["entries"] == []
    assert page["total_size"] == PUBLIC_RECIPE_COUNT


def test_page_size_is_capped_at_300(cookbook_service_factory: Any, web: httpx.Client) -> None:
    service = cookbook_service_factory(seed_recipes=400)

    page = web.get(service.url("recipes"), params={"ws.size": 1000}).json()

    assert len(page["entries"]) == MAX_PAGE_SIZE == 300
    assert "ws.size=300" in page["next_collection_link"]


def test_page_size_option_sets_the_default_page(
    cookbook_service_factory: Any, web: httpx.Client
) -> None:
    service = cookbook_service_factory(page_size=3)

    page = web.get(service.url("recipes")).json()

    assert len(page["entries"]) == 3


@pytest.mark.parametrize(
    ("name", "value"),
    [("ws.start", "-1"), ("ws.start", "x"), ("ws.size", "0"), ("ws.size", "two"),
     ("ws.start", "\u00b2"), ("ws.size", "\u00b3")],  # "²": str.isdigit() yes, int() no
)  # fmt: skip
def test_bad_paging_parameters_are_400_with_a_reason(
    cookbook_service: RunningService, web: httpx.Client, name: str, value: str
) -> None:
    response = web.get(cookbook_service.url("recipes"), params={name: value})

    assert response.status_code == 400
    assert response.headers["Content-Type"].startswith("text/plain")
    assert name in response.text


def test_private_recipe_is_absent_from_pages_and_total(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    pages = _all_pages(web, cookbook_service.url("recipes"))

    ids = {entry["id"] for page in pages for entry in page["entries"]}
    assert PRIVATE_RECIPE_ID not in ids
    assert pages[0]["total_size"] == len(ids)


def test_private_recipe_is_404_by_its_url(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url(f"recipes/{PRIVATE_RECIPE_ID}"))

    assert response.status_code == 404


def test_dishes_and_cookbooks_collections_list_the_seed(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    dishes = _all_pages(web, cookbook_service.url("dishes"))
    cookbooks = _all_pages(web, cookbook_service.url("cookbooks"))

    assert [e["name"] for p in dishes for e in p["entries"]] == list(DISHES)
    assert [e["name"] for p in cookbooks for e in p["entries"]] == list(COOKBOOK_NAMES)


def test_a_dishs_scoped_collection_holds_only_its_recipes(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    dish = web.get(cookbook_service.url("dishes/1")).json()

    page = web.get(dish["recipes_collection_link"]).json()

    assert page["total_size"] == len(page["entries"]) > 1
    assert {e["dish_link"] for e in page["entries"]} == {dish["self_link"]}


def test_a_cookbooks_scoped_collection_hides_its_private_recipe(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    private_url = cookbook_service.url(f"recipes/{PRIVATE_RECIPE_ID}")
    cookbook = web.get(cookbook_service.url("cookbooks/The%20Joy%20of%20Cooking")).json()

    page = web.get(cookbook["recipes_collection_link"]).json()

    assert {e["cookbook_link"] for e in page["entries"]} == {cookbook["self_link"]}
    assert private_url not in {e["self_link"] for e in page["entries"]}
    assert page["total_size"] == len(page["entries"])


def test_seed_recipes_fills_a_big_collection(
    cookbook_service_factory: Any, web: httpx.Client
) -> None:
    service = cookbook_service_factory(seed_recipes=10_000)

    page = web.get(service.url("recipes")).json()

    assert page["total_size"] == PUBLIC_RECIPE_COUNT + 10_000


def test_next_link_keeps_the_other_query_parameters(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_recipes", "search": '"e"', "ws.size": 2},
    ).json()

    following = web.get(page["next_collection_link"]).json()
    assert following["start"] == 2
    assert following["total_size"] == page["total_size"]


def test_ws_show_total_size_answers_the_bare_size(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url("recipes"), params={"ws.show": "total_size"})

    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == PUBLIC_RECIPE_COUNT


def test_ws_show_total_size_works_on_a_named_operation(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_for_cuisine", "cuisine": "General", "ws.show": "total_size"},
    )

    assert response.json() == 2
