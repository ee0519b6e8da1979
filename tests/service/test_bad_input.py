"""Bad input gets a clear plain-text 4xx and changes nothing."""

from __future__ import annotations

import httpx
import pytest

from cookbook_service.app import MAX_BODY_BYTES
from cookbook_service.testing import RunningService

JOY = "cookbooks/The%20Joy%20of%20Cooking"


def _patch_raw(web: httpx.Client, url: str, body: bytes) -> httpx.Response:
    return web.request("PATCH", url, content=body, headers={"Content-Type": "application/json"})


def _assert_plain(response: httpx.Response, status: int, text: str) -> None:
    assert response.status_code == status
    assert response.headers["Content-Type"].startswith("text/plain")
    assert text in response.text


def test_unknown_ws_op_names_the_operation(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url("cookbooks"), params={"ws.op": "bake"})

    _assert_plain(response, 400, "No such operation: bake")


def test_malformed_json_in_a_patch_is_400_and_changes_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url(JOY)
    before = web.get(url).json()

    response = _patch_raw(web, url, b'{"description": ')

    _assert_plain(response, 400, "not valid JSON")
    assert web.get(url).json() == before


def test_unknown_field_in_a_patch_is_400_and_changes_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url(JOY)
    before = web.get(url).json()

    response = _patch_raw(web, url, b'{"description": "new", "colour": "red"}')

    _assert_plain(response, 400, "colour: You tried to modify a nonexistent attribute.")
    assert web.get(url).json() == before


def test_value_outside_a_fields_options_is_400(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch_raw(web, cookbook_service.url(JOY), b'{"cuisine": "Martian"}')

    _assert_plain(response, 400, 'cuisine: Invalid value "Martian". Acceptable values are:')


def test_read_only_field_in_a_patch_is_400(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch_raw(
        web, cookbook_service.url(JOY), b'{"copyright_date": "2000-01-01T00:00:00+00:00"}'
    )

    _assert_plain(response, 400, "copyright_date: You tried to modify a read-only attribute.")


def test_every_problem_of_a_patch_is_listed(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = _patch_raw(
        web, cookbook_service.url(JOY), b'{"cuisine": "Martian", "price": "cheap"}'
    )

    assert response.status_code == 400
    assert [line.split(":")[0] for line in response.text.splitlines()] == ["cuisine", "price"]


def test_patch_without_json_content_type_is_415(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.request(
        "PATCH",
        cookbook_service.url(JOY),
        content=b"description=x",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )

    _assert_plain(response, 415, "JSON")


def test_missing_required_operation_parameter_is_400(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url("cookbooks"), params={"ws.op": "find_recipes"})

    _assert_plain(response, 400, "search: Required input is missing.")


@pytest.mark.parametrize("path", ["nowhere", "recipes/1/extra", "recipes/abc", "cookbooks/Nope"])
def test_unknown_path_is_404(
    cookbook_service: RunningService, web: httpx.Client, path: str
) -> None:
    _assert_plain(web.get(cookbook_service.url(path)), 404, "No such")


def test_wrong_method_is_405_with_allow(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.delete(cookbook_service.url("recipes"))

    _assert_plain(response, 405, "DELETE")
    assert "GET" in response.headers["Allow"]


def test_oversized_body_is_413_and_changes_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = cookbook_service.url(JOY)
    before = web.get(url).json()

    response = _patch_raw(web, url, b" " * (MAX_BODY_BYTES + 1))

    _assert_plain(response, 413, "larger than")
    assert web.get(url).json() == before
