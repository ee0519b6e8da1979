"""Entries: ETag and 304, PATCH with If-Match (412/209), rename (301), DELETE."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService

JOY = "cookbooks/The%20Joy%20of%20Cooking"


def _patch(web: httpx.Client, url: str, changes: object, etag: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if etag is not None:
        headers["If-Match"] = etag
    return web.request("PATCH", url, json=changes, headers=headers)


def test_entry_answers_an_etag_equal_to_its_http_etag(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url("recipes/1"))

    assert response.headers["ETag"] == response.json()["http_etag"]


def test_entry_conditional_get_with_current_etag_is_304(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    etag = web.get(cookbook_service.url("recipes/1")).headers["ETag"]

    response = web.get(cookbook_service.url("recipes/1"), headers={"If-None-Match": etag})

    assert response.status_code == 304


def test_entry_in_a_page_has_the_same_etag_as_the_entry_itself(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    listed = web.get(cookbook_service.url("recipes")).json()["entries"][0]

    response = web.get(listed["self_link"], headers={"If-None-Match": listed["http_etag"]})

    assert response.status_code == 304


def test_recipe_fields_and_links(cookbook_service: RunningService, web: httpx.Client) -> None:
    recipe = web.get(cookbook_service.url("recipes/1")).json()

    assert recipe["id"] == 1
    assert recipe["private"] is False
    assert recipe["resource_type_link"] == cookbook_service.url("#recipe")
    assert web.get(recipe["dish_link"]).json()["name"] == "Roast chicken"
    assert web.get(recipe["cookbook_link"]).json()["cuisine"] == "Française"


def test_cookbook_fields_are_typed_for_the_wadl(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    cookbook = web.get(cookbook_service.url(JOY)).json()

    assert cookbook["copyright_date"] == "1995-01-01T00:00:00+00:00"
    assert cookbook["price"] == 20.0
    assert cookbook["cover_link"] == cookbook_service.url(f"{JOY}/cover")


def test_patch_with_current_etag_answers_209_with_the_new_representation(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("recipes/1")
    etag = web.get(url).headers["ETag"]

    response = _patch(web, url, {"instructions": "Stir."}, etag)

    assert response.status_code == 209
    assert response.json()["instructions"] == "Stir."
    assert response.headers["ETag"] == response.json()["http_etag"] != etag
    assert web.get(url).json()["instructions"] == "Stir."


def test_patch_with_stale_etag_is_412_and_changes_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url("recipes/1")
    stale = web.get(url).headers["ETag"]
    _patch(web, url, {"instructions": "First."}, stale)

    response = _patch(web, url, {"instructions": "Second."}, stale)

    assert response.status_code == 412
    assert web.get(url).json()["instructions"] == "First."


def test_patch_can_change_a_link(cookbook_service: RunningService, web: httpx.Client) -> None:
    url = cookbook_service.url("recipes/1")
    greens = cookbook_service.url("cookbooks/Everyday%20Greens")

    response = _patch(web, url, {"cookbook_link": greens})

    assert response.json()["cookbook_link"] == greens


def test_renaming_a_cookbook_moves_it_with_301(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    old_url = cookbook_service.url(JOY)

    response = _patch(web, old_url, {"name": "Joy, Revised"})

    new_url = cookbook_service.url("cookbooks/" + quote("Joy, Revised", safe=""))
    assert response.status_code == 301
    assert response.headers["Location"] == new_url
    assert web.get(new_url).json()["name"] == "Joy, Revised"
    assert web.get(old_url).status_code == 404


@pytest.mark.parametrize(
    "name", ["Grandma's Kitchen", "La Cuisine Française", "a/b?c#d %", "x" * 1000]
)
def test_cookbook_names_round_trip_through_their_url(
    cookbook_service: RunningService, web: httpx.Client, name: str
) -> None:
    _patch(web, cookbook_service.url(JOY), {"name": name})

    response = web.get(cookbook_service.url("cookbooks/" + quote(name, safe="")))

    assert response.status_code == 200
    assert response.json()["name"] == name
    assert response.json()["self_link"] == str(response.url)


def test_a_name_longer_than_1000_characters_is_refused(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch(web, cookbook_service.url(JOY), {"name": "x" * 1001})

    assert response.status_code == 400
    assert "1000" in response.text


def test_delete_removes_a_recipe(cookbook_service: RunningService, web: httpx.Client) -> None:
    url = cookbook_service.url("recipes/1")

    response = web.delete(url)

    assert response.status_code == 200
    assert web.get(url).status_code == 404
    total = web.get(cookbook_service.url("recipes")).json()["total_size"]
    assert total == len(PUBLIC_RECIPE_IDS) - 1


def test_delete_on_a_cookbook_is_405(cookbook_service: RunningService, web: httpx.Client) -> None:
    response = web.delete(cookbook_service.url(JOY))

    assert response.status_code == 405
    assert "DELETE" not in response.headers["Allow"]


def test_unknown_recipe_is_404(cookbook_service: RunningService, web: httpx.Client) -> None:
    assert web.get(cookbook_service.url("recipes/999")).status_code == 404


def test_a_superscript_digit_for_an_id_is_404(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    assert web.get(cookbook_service.url("recipes/%C2%B2")).status_code == 404  # "²"


def test_featured_cookbook_is_a_top_level_entry(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    link = web.get(cookbook_service.url()).json()["featured_cookbook_link"]

    cookbook = web.get(link).json()

    assert cookbook["resource_type_link"] == cookbook_service.url("#cookbook")
    assert cookbook["self_link"] == link


def test_every_seeded_cookbook_is_reachable_by_its_self_link(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    page = web.get(cookbook_service.url("cookbooks"), params={"ws.size": 50}).json()

    for listed in page["entries"]:
        response = web.get(listed["self_link"])
        assert response.json()["name"] == listed["name"]
