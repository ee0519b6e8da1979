"""Finding 5: malformed server input ends in a wadlclient error naming the URL and the problem."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.hostile.server import WADL_TYPE, Exchange, HostileServer, recipe

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.errors import ResponseError, WADLError
from wadlclient.http import Transport


def test_a_wadl_reference_to_a_missing_definition_is_a_wadl_error(
    hostile: HostileServer,
) -> None:
    root_url = hostile.url + "/1.0/"
    wadl = generate_wadl(root_url, WADL_TYPE).replace(
        b'href="#service-root-json"', b'href="#no-such-representation"'
    )
    assert b"#no-such-representation" in wadl

    def serve(exchange: Exchange) -> None:
        if "wadl" in exchange.hit.headers.get("accept", ""):
            exchange.send(200, wadl, content_type=WADL_TYPE)
        else:
            exchange.json({"resource_type_link": root_url + "#service-root"})

    hostile.routes["/1.0/"] = serve

    with pytest.raises(WADLError, match=rf"{root_url}.*no-such-representation"):
        ServiceRoot(None, hostile.url, version="1.0")


@pytest.mark.parametrize("field", ["start", "total_size"])
def test_a_page_with_a_non_number_start_or_size_gives_no_raw_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], field: str
) -> None:
    url = hostile.url + "/1.0/recipes"
    hostile.routes["/1.0/recipes"] = lambda ex: ex.json(
        {"entries": [recipe(url + "/1", 1)], field: "zz"}
    )
    root = make_root()

    with pytest.raises(ResponseError, match=rf"/1.0/recipes.*{field}"):
        list(root.recipes)


@pytest.mark.parametrize(
    "size", [2**70, -1, 1.5, "3", True], ids=["2**70", "negative", "fraction", "text", "bool"]
)
def test_an_absurd_total_size_is_a_response_error_naming_the_url(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], size: object
) -> None:
    url = hostile.url + "/1.0/recipes"
    hostile.routes["/1.0/recipes"] = lambda ex: ex.json(
        {"entries": [recipe(url + "/1", 1)], "total_size": size}
    )
    root = make_root()

    with pytest.raises(ResponseError, match=r"/1.0/recipes.*total_size"):
        len(root.recipes)


@pytest.mark.parametrize("size", [2**70, -1, 1.5], ids=["2**70", "negative", "fraction"])
def test_an_absurd_size_behind_a_total_size_link_is_a_response_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], size: object
) -> None:
    url = hostile.url + "/1.0/recipes"
    hostile.routes["/1.0/recipes"] = lambda ex: ex.json(
        {"entries": [recipe(url + "/1", 1)], "total_size_link": hostile.url + "/size"}
    )
    hostile.routes["/size"] = lambda ex: ex.json(size)
    root = make_root()

    with pytest.raises(ResponseError, match=r"/1.0/recipes.*/size.*whole number"):
        len(root.recipes)


def test_deeply_nested_json_is_a_response_error(hostile: HostileServer) -> None:
    hostile.routes["/deep"] = lambda ex: ex.send(200, b"[" * 100_000)
    with Transport(max_retries=0) as transport:
        response = transport.request("GET", hostile.url + "/deep")
        with pytest.raises(ResponseError, match=r"/deep.*nested"):
            response.json()


def test_a_deeply_nested_page_is_a_response_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    hostile.routes["/1.0/recipes"] = lambda ex: ex.send(200, b'{"entries": ' + b"[" * 100_000)
    root = make_root()

    with pytest.raises(ResponseError, match=r"/1.0/recipes.*nested"):
        list(root.recipes)


def test_a_page_that_is_not_utf8_is_a_response_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    hostile.routes["/1.0/recipes"] = lambda ex: ex.send(200, b'{"entries": ["\xff"]}')
    root = make_root()

    with pytest.raises(ResponseError, match=r"/1.0/recipes.*not UTF-8"):
        list(root.recipes)
