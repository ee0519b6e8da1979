"""The WADL follows lazr.restful's conventions, generated from the schema."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import httpx
import pytest

from cookbook_service.schema import WADL_MEDIA_TYPES
from cookbook_service.testing import RunningService

W = "{http://research.sun.com/wadl/2006/10}"


@pytest.fixture
def wadl(cookbook_service: RunningService, web: httpx.Client) -> ET.Element:
    response = web.get(cookbook_service.url(), headers={"Accept": WADL_MEDIA_TYPES[0]})
    return ET.fromstring(response.content)


def _by_id(wadl: ET.Element, tag: str) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in wadl.iter(f"{W}{tag}") if e.get("id")}


def test_resource_types_follow_the_naming_convention(wadl: ET.Element) -> None:
    assert set(_by_id(wadl, "resource_type")) == {
        "service-root",
        "recipes",
        "dishes",
        "cookbooks",
        "recipe",
        "dish",
        "cookbook",
        "recipe-page-resource",
        "dish-page-resource",
        "cookbook-page-resource",
        "HostedFile",
        "ScalarValue",
    }


def test_each_entry_has_full_diff_and_page_representations(wadl: ET.Element) -> None:
    representations = _by_id(wadl, "representation")

    for name in ("recipe", "dish", "cookbook"):
        assert {f"{name}-full", f"{name}-diff", f"{name}-page"} <= set(representations)


def test_params_carry_a_jsonpath_and_links_carry_a_resource_type(wadl: ET.Element) -> None:
    full = _by_id(wadl, "representation")["recipe-full"]
    dish = next(p for p in full.findall(f"{W}param") if p.get("name") == "dish_link")

    assert dish.get("path") == "$['dish_link']"
    link = dish.find(f"{W}link")
    assert link is not None
    assert link.get("resource_type", "").endswith("/1.0/#dish")


def test_typed_fields_use_xsd_types_and_options(wadl: ET.Element) -> None:
    full = _by_id(wadl, "representation")["cookbook-full"]
    params = {p.get("name"): p for p in full.findall(f"{W}param")}

    assert params["copyright_date"].get("type") == "xsd:dateTime"
    assert params["price"].get("type") == "xsd:decimal"
    assert params["cover_link"].get("type") == "binary"
    assert "Française" in [o.get("value") for o in params["cuisine"].findall(f"{W}option")]


def test_read_only_fields_are_absent_from_the_diff_representation(wadl: ET.Element) -> None:
    diff = _by_id(wadl, "representation")["cookbook-diff"]

    names = {p.get("name") for p in diff.findall(f"{W}param")}
    assert "copyright_date" not in names
    assert {"name", "cuisine", "price", "description"} <= names


def test_named_get_operation_has_a_fixed_ws_op_and_answers_a_page(wadl: ET.Element) -> None:
    method = _by_id(wadl, "method")["cookbooks-find_recipes"]

    assert method.get("name") == "GET"
    fixed = [p.get("fixed") for p in method.iter(f"{W}param") if p.get("name") == "ws.op"]
    assert fixed == ["find_recipes"]
    response = method.find(f"{W}response/{W}representation")
    assert response is not None
    assert response.get("href", "").endswith("#recipe-page")


def test_factory_operation_posts_a_form_and_answers_a_location(wadl: ET.Element) -> None:
    method = _by_id(wadl, "method")["cookbooks-create"]

    form = method.find(f"{W}request/{W}representation")
    assert form is not None
    assert form.get("mediaType") == "application/x-www-form-urlencoded"
    location = method.find(f"{W}response/{W}param")
    assert location is not None
    assert (location.get("name"), location.get("style")) == ("Location", "header")


def test_only_the_recipe_entry_declares_delete(wadl: ET.Element) -> None:
    methods = _by_id(wadl, "method")

    assert "recipe-delete" in methods
    assert "cookbook-delete" not in methods
