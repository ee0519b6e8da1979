"""The service root: creation (SPEC "What the service does" 1-2), versions, load(), repr."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cookbook_service.testing import FEATURED_COOKBOOK, RunningService
from wadlclient import (
    EXAMPLE_WADL_MEDIA_TYPE,
    SUN_WADL_MEDIA_TYPE,
    BasicHttpAuthorizer,
    Collection,
    Entry,
    HTTPCache,
    NotFound,
    Retry,
    ServerError,
    ServiceRoot,
    WADLError,
)

from .conftest import clear_journal, journal_entries, serve_app, wire


def test_creating_the_root_gets_the_wadl_and_the_json(
    service: RunningService, version: str
) -> None:
    clear_journal(service)

    with ServiceRoot(None, service.base_url, version=version):
        pass

    entries = journal_entries(service)
    assert sorted((e.method, e.path, e.accept, e.status) for e in entries) == [
        ("GET", f"/{version}/", "application/json", 200),
        ("GET", f"/{version}/", EXAMPLE_WADL_MEDIA_TYPE, 200),
    ]


def test_default_version_is_1_0(service: RunningService) -> None:
    clear_journal(service)

    with ServiceRoot(None, service.base_url) as root:
        url = root.service_root

    assert url == f"{service.base_url}1.0/"
    assert {path for _, path, _ in wire(service)} == {"/1.0/"}


def test_version_none_uses_the_url_as_given(service: RunningService) -> None:
    clear_journal(service)

    with ServiceRoot(None, f"{service.base_url}devel/", version=None) as root:
        link = root.recipes[0].self_link

    assert link.startswith(f"{service.base_url}devel/recipes/")
    assert wire(service)[0][1] == "/devel/"


def test_root_exposes_top_level_collections_and_entries(root: ServiceRoot) -> None:
    assert sorted(root.lp_collections) == ["cookbooks", "dishes", "recipes"]
    assert root.lp_entries == ["featured_cookbook"]


def test_top_level_entry_is_an_entry(root: ServiceRoot) -> None:
    assert root.featured_cookbook.name == FEATURED_COOKBOOK


def test_credentials_is_the_authorizer_given(service: RunningService) -> None:
    authorizer = BasicHttpAuthorizer("ada", "not-checked-by-this-service")

    with ServiceRoot(authorizer, service.base_url) as root:
        assert root.credentials is authorizer


def test_credentials_is_none_without_an_authorizer(root: ServiceRoot) -> None:
    assert root.credentials is None


def test_repr_names_type_and_url_and_sends_nothing(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    recipe = root.recipes(1)
    texts = [repr(root), repr(root.recipes), repr(recipe), repr(root.cookbooks.find_recipes)]

    assert texts[0] == f"<ServiceRoot at {service.base_url}{version}/>"
    assert texts[1] == f"<recipes collection at {service.base_url}{version}/recipes>"
    assert texts[2] == f"<recipe at {service.base_url}{version}/recipes/1>"
    assert "find_recipes" in texts[3]
    assert wire(service) == []


def test_load_relative_url_returns_an_entry(root: ServiceRoot, service: RunningService) -> None:
    recipe = root.load("/recipes/1")

    assert isinstance(recipe, Entry)
    assert recipe.id == 1
    assert len(wire(service)) == 1


def test_load_absolute_self_link_returns_the_same_entry(root: ServiceRoot) -> None:
    recipe = root.recipes[0]

    assert root.load(recipe.self_link) == recipe


def test_load_collection_url_returns_a_collection(root: ServiceRoot) -> None:
    dishes = root.load("dishes")

    assert isinstance(dishes, Collection)
    assert len(dishes) == len(root.dishes)


def test_load_of_a_missing_url_raises_not_found(root: ServiceRoot) -> None:
    with pytest.raises(NotFound, match="HTTP Error 404: Not Found"):
        root.load("/no-such-thing")


def test_load_of_the_redacted_value_raises_a_clear_error(
    root: ServiceRoot, service: RunningService
) -> None:
    with pytest.raises(ValueError, match="server-side permission"):
        root.load("tag:launchpad.net:2008:redacted")

    assert wire(service) == []


def test_closed_root_refuses_nothing_it_already_holds(root: ServiceRoot) -> None:
    root.close()

    assert sorted(root.lp_collections) == ["cookbooks", "dishes", "recipes"]


def _not_wadl_app(seen: list[str]) -> Starlette:
    async def root(request: Request) -> Response:
        seen.append(request.headers.get("accept", ""))
        return Response(json.dumps({"resource_type_link": "x"}), media_type="application/json")

    return Starlette(routes=[Route("/1.0/", root)])


def test_a_server_without_wadl_gives_a_clear_wadl_error_after_one_retry() -> None:
    seen: list[str] = []

    with serve_app(_not_wadl_app(seen)) as base_url, pytest.raises(WADLError) as caught:
        ServiceRoot(None, base_url)

    assert [accept for accept in seen if "wadl" in accept] == [
        EXAMPLE_WADL_MEDIA_TYPE,
        SUN_WADL_MEDIA_TYPE,
    ]
    # The root's JSON went out with the first WADL request (the server may not have
    # read it yet when the error is raised); never again.
    assert seen.count("application/json") <= 1
    assert "application/json" in str(caught.value)
    assert base_url in str(caught.value)


def _busy_app(seen: list[str]) -> Starlette:
    async def root(request: Request) -> Response:
        seen.append(request.headers.get("accept", ""))
        return Response(b"busy", status_code=503, media_type="text/plain")

    return Starlette(routes=[Route("/1.0/", root)])


def test_a_busy_service_root_spends_its_retries_once_not_once_per_media_type() -> None:
    seen: list[str] = []
    no_wait = Retry(total=2, jitter=lambda backoff: 0.0)

    with serve_app(_busy_app(seen)) as base_url, pytest.raises(ServerError) as caught:
        ServiceRoot(None, base_url, retry=no_wait)

    assert [accept for accept in seen if "wadl" in accept] == [EXAMPLE_WADL_MEDIA_TYPE] * 3
    assert seen.count("application/json") <= 1  # sent with the first, dropped unread
    assert caught.value.attempts == 3


def _bad_wadl_app(seen: list[str]) -> Starlette:
    async def root(request: Request) -> Response:
        accept = request.headers.get("accept", "")
        seen.append(accept)
        return Response(b"<application>not closed", media_type=accept)

    return Starlette(routes=[Route("/1.0/", root)])


def test_a_wadl_that_does_not_parse_is_retried_with_the_other_type() -> None:
    seen: list[str] = []

    with serve_app(_bad_wadl_app(seen)) as base_url, pytest.raises(WADLError):
        ServiceRoot(None, base_url, wadl_media_type=SUN_WADL_MEDIA_TYPE)

    assert [accept for accept in seen if "wadl" in accept] == [
        SUN_WADL_MEDIA_TYPE,
        EXAMPLE_WADL_MEDIA_TYPE,
    ]


def _wadl_broken_after_its_root_app(seen: list[str]) -> Starlette:
    async def root(request: Request) -> Response:
        accept = request.headers.get("accept", "")
        seen.append(accept)
        if "wadl" not in accept:
            return Response(json.dumps({"resource_type_link": "x"}), media_type=accept)
        wadl = b'<application xmlns="http://research.sun.com/wadl/2006/10"><resources></application>'
        return Response(wadl, media_type=accept)

    return Starlette(routes=[Route("/1.0/", root)])


def test_the_root_json_is_asked_for_with_the_wadl_and_dropped_if_it_fails() -> None:
    seen: list[str] = []

    with serve_app(_wadl_broken_after_its_root_app(seen)) as base_url, pytest.raises(WADLError):
        ServiceRoot(None, base_url, wadl_media_type=SUN_WADL_MEDIA_TYPE)

    # Asked for at most once (with the first WADL; the server may not have read it
    # when the error is raised), not again for the second.
    assert [accept for accept in seen if "wadl" in accept] == [
        SUN_WADL_MEDIA_TYPE,
        EXAMPLE_WADL_MEDIA_TYPE,
    ]
    assert seen.count("application/json") <= 1


def test_a_cache_directory_given_as_a_path_persists_the_root(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url, cache=tmp_path):
        pass
    clear_journal(service)

    with ServiceRoot(None, service.base_url, cache=str(tmp_path).encode()) as again:
        collections = again.lp_collections

    assert sorted(collections) == ["cookbooks", "dishes", "recipes"]
    assert wire(service) == []
    assert any(tmp_path.iterdir())


def test_a_cache_instance_is_used_as_it_is(service: RunningService, tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    with ServiceRoot(None, service.base_url, cache=cache) as root:
        root.recipes[0]

    assert len(list(tmp_path.iterdir())) >= 2


def test_a_cold_start_has_its_two_requests_in_flight_together(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    slow = cookbook_service_factory(latency_ms=300)

    with ServiceRoot(None, slow.base_url):
        pass

    entries = slow.journal.entries()
    assert sorted(e.accept or "" for e in entries) == ["application/json", EXAMPLE_WADL_MEDIA_TYPE]
    assert slow.journal.most_concurrent() == 2
