"""Named operations: GET ones answer pages, create answers 201, a POST op moves."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx

from cookbook_service.testing import COOKBOOK_NAMES, PRIVATE_RECIPE_ID, RunningService

NEW_BOOK = {
    "ws.op": "create",
    "name": json.dumps("Nouvelle Cuisine"),
    "cuisine": "Française",
    "copyright_date": json.dumps("1994-01-01T00:00:00"),
    "price": json.dumps(1.23),
    "last_printing": json.dumps("2001-02-03T04:05:06+00:00"),
}


def test_find_recipes_answers_a_page_of_matching_recipes(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_recipes", "search": json.dumps("greens")},
    ).json()

    assert page["total_size"] == 1
    assert "greens" in page["entries"][0]["instructions"]


def test_find_recipes_accepts_a_string_that_looks_like_a_number(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_recipes", "search": json.dumps("1.234")},
    )

    assert response.status_code == 200
    assert response.json()["total_size"] == 0


def test_find_recipes_never_finds_a_private_recipe(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_recipes", "search": json.dumps("secret family")},
    ).json()

    assert page["total_size"] == 0
    assert cookbook_service.url(f"recipes/{PRIVATE_RECIPE_ID}") not in json.dumps(page)


def test_find_for_cuisine_answers_the_cookbooks_of_that_cuisine(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_for_cuisine", "cuisine": "General"},
    ).json()

    assert {e["cuisine"] for e in page["entries"]} == {"General"}
    assert page["total_size"] == 2


def test_find_for_cuisine_rejects_an_unknown_cuisine(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(
        cookbook_service.url("cookbooks"),
        params={"ws.op": "find_for_cuisine", "cuisine": "Martian"},
    )

    assert response.status_code == 400
    assert 'cuisine: Invalid value "Martian"' in response.text


def test_create_answers_201_with_the_location_of_the_new_cookbook(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.post(cookbook_service.url("cookbooks"), data=NEW_BOOK)

    assert response.status_code == 201
    location = response.headers["Location"]
    assert location == cookbook_service.url("cookbooks/" + quote("Nouvelle Cuisine", safe=""))
    created = web.get(location).json()
    assert created["price"] == 1.23
    assert created["copyright_date"] == "1994-01-01T00:00:00+00:00"


def test_create_refuses_a_price_sent_as_a_json_string(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.post(
        cookbook_service.url("cookbooks"), data={**NEW_BOOK, "price": json.dumps("1.23")}
    )

    assert response.status_code == 400
    assert response.text.startswith("price:")


def test_create_with_a_missing_field_is_400_and_creates_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    data = {k: v for k, v in NEW_BOOK.items() if k != "cuisine"}

    response = web.post(cookbook_service.url("cookbooks"), data=data)

    assert response.status_code == 400
    assert "cuisine: Required input is missing." in response.text
    assert web.get(cookbook_service.url("cookbooks")).json()["total_size"] == len(COOKBOOK_NAMES)


def test_create_with_a_taken_name_is_409(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    data = {**NEW_BOOK, "name": json.dumps(COOKBOOK_NAMES[0])}

    response = web.post(cookbook_service.url("cookbooks"), data=data)

    assert response.status_code == 409


def test_a_get_operation_called_with_post_is_405(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.post(
        cookbook_service.url("cookbooks"),
        data={"ws.op": "find_recipes", "search": json.dumps("a")},
    )

    assert response.status_code == 405


def test_a_cookbooks_find_recipes_searches_only_that_cookbook(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Mastering%20the%20Art%20of%20French%20Cooking")

    page = web.get(url, params={"ws.op": "find_recipes", "search": json.dumps("")}).json()

    assert page["total_size"] == 2
    assert {e["cookbook_link"] for e in page["entries"]} == {url}


def test_make_more_interesting_renames_the_cookbook_and_answers_301(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Everyday%20Greens")

    response = web.post(url, data={"ws.op": "make_more_interesting"})

    assert response.status_code == 301
    assert response.headers["Location"] == cookbook_service.url(
        "cookbooks/The%20New%20Everyday%20Greens"
    )
    assert web.get(response.headers["Location"]).json()["name"] == "The New Everyday Greens"


def test_find_recipe_for_takes_a_link_and_answers_the_recipe(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Mastering%20the%20Art%20of%20French%20Cooking")
    dish = json.dumps(cookbook_service.url("dishes/3"))

    recipe = web.get(url, params={"ws.op": "find_recipe_for", "dish": dish}).json()

    assert recipe["dish_link"] == cookbook_service.url("dishes/3")
    assert recipe["cookbook_link"] == url


def test_find_recipe_for_answers_null_when_there_is_none(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Everyday%20Greens")
    dish = json.dumps(cookbook_service.url("dishes/1"))

    response = web.get(url, params={"ws.op": "find_recipe_for", "dish": dish})

    assert response.status_code == 200
    assert response.json() is None


def test_find_recipe_for_refuses_a_link_to_something_else(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Everyday%20Greens")
    not_a_dish = json.dumps(cookbook_service.url("recipes/1"))

    response = web.get(url, params={"ws.op": "find_recipe_for", "dish": not_a_dish})

    assert response.status_code == 400
    assert response.text.startswith("dish:")


def test_replace_cover_takes_binary_multipart_data(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("cookbooks/Everyday%20Greens")

    response = web.post(
        url,
        data={"ws.op": "replace_cover"},
        files={"cover": ("cover", b"\x00\xe2\xe3\r\n--", "application/octet-stream")},
    )

    assert response.status_code == 200
    cover = web.get(web.get(url + "/cover").headers["Location"])
    assert cover.content == b"\x00\xe2\xe3\r\n--"


def test_multipart_without_a_boundary_is_400(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.post(
        cookbook_service.url("cookbooks/Everyday%20Greens"),
        content=b"ws.op=replace_cover",
        headers={"Content-Type": "multipart/form-data"},
    )

    assert response.status_code == 400
    assert "boundary" in response.text
