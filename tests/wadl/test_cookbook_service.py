"""The example service's own WADL, fetched over HTTP, reads as the specification says."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import httpx
import pytest

from cookbook_service.testing import RunningService
from wadlclient.wadl import WADL_NS, Application, parse_wadl

WADL_MEDIA_TYPE = "application/vnd.example.wadl+xml"
W = "{" + WADL_NS + "}"


@pytest.fixture
def wadl_bytes(cookbook_service: RunningService) -> tuple[str, bytes]:
    url = cookbook_service.base_url + "1.0/"
    response = httpx.get(url, headers={"Accept": WADL_MEDIA_TYPE})
    response.raise_for_status()
    return url, response.content


@pytest.fixture
def app(wadl_bytes: tuple[str, bytes]) -> Application:
    url, data = wadl_bytes
    return parse_wadl(data, url=url)


def test_root_is_the_service_root_at_the_versioned_url(
    app: Application, wadl_bytes: tuple[str, bytes]
) -> None:
    assert app.base == wadl_bytes[0]
    assert app.root_resource_type == "service-root"


def test_top_level_collections_and_their_entries_have_resource_types(app: Application) -> None:
    root = app.json_representation("#service-root")

    assert root is not None
    for name in ("recipes", "dishes", "cookbooks"):
        link = root.param(f"{name}_collection_link")
        assert link is not None and link.link is not None
        assert app.resource_type(link.link.resource_type or "").id == name
    assert {"recipe", "dish", "cookbook"} <= set(app.resource_types)


def test_cookbooks_find_recipes_takes_search_and_modified_since(app: Application) -> None:
    method = app.resource_type("cookbooks").named_operations["find_recipes"]

    assert method.name == "GET"
    assert [p.name for p in method.params] == ["search", "modified_since"]
    assert method.params[1].type == "dateTime"


def test_cookbooks_create_takes_the_cookbook_fields(app: Application) -> None:
    method = app.resource_type("cookbooks").named_operations["create"]

    assert method.name == "POST"
    params = {p.name: p for p in method.params}
    assert set(params) == {"name", "cuisine", "copyright_date", "price", "last_printing"}
    assert params["copyright_date"].type == "dateTime"
    assert params["price"].type == "decimal"


def test_cookbook_fields_are_typed(app: Application) -> None:
    cookbook = app.json_representation("#cookbook")

    assert cookbook is not None
    types = {p.name: p.type for p in cookbook.params}
    assert types["copyright_date"] == "dateTime"
    assert types["last_printing"] == "dateTime"
    assert types["price"] == "decimal"


def test_named_operations_match_an_elementtree_reading(
    app: Application, wadl_bytes: tuple[str, bytes]
) -> None:
    tree = ET.fromstring(wadl_bytes[1])
    expected = {}
    for rtype in tree.iter(W + "resource_type"):
        ops = {
            param.attrib["fixed"]
            for param in rtype.iter(W + "param")
            if param.attrib.get("name") == "ws.op"
        }
        expected[rtype.attrib["id"]] = ops

    found = {key: set(rtype.named_operations) for key, rtype in app.resource_types.items()}
    assert found == expected
