"""A service root built on Launchpad's real WADL (1.5 MB), served from loopback.

A tiny Starlette app plays a lazr.restful service: it serves the Launchpad
WADL only to ``Accept: application/vnd.sun.wadl+xml`` (answering JSON to
anything else, as lazr.restful does), so creating a root with the default
example media type exercises the fallback to the Sun WADL type.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from wadlclient import EXAMPLE_WADL_MEDIA_TYPE, SUN_WADL_MEDIA_TYPE, NamedOperation, ServiceRoot

from .conftest import serve_app

WADL_NS = "{http://research.sun.com/wadl/2006/10}"


def root_json_params(wadl: bytes) -> list[str]:
    """Names of the params of the WADL's ``service-root-json`` representation."""
    tree = ET.fromstring(wadl)
    for rep in tree.iter(f"{WADL_NS}representation"):
        if rep.get("id") == "service-root-json":
            return [param.get("name", "") for param in rep.findall(f"{WADL_NS}param")]
    raise AssertionError("the WADL has no service-root-json representation")


@dataclass
class LaunchpadLike:
    base_url: str
    wadl: bytes
    seen: list[tuple[str, str, str]] = field(default_factory=list)


def build_app(state: LaunchpadLike) -> Starlette:
    params = root_json_params(state.wadl)

    async def root(request: Request) -> Response:
        accept = request.headers.get("accept", "")
        state.seen.append((request.method, request.url.path, accept))
        if SUN_WADL_MEDIA_TYPE in accept:
            return Response(state.wadl, media_type=SUN_WADL_MEDIA_TYPE)
        base = f"{request.base_url}devel/"
        document: dict[str, str] = {}
        for name in params:
            if name == "resource_type_link":
                document[name] = f"{base}#service-root"
            elif name.endswith("_collection_link"):
                document[name] = base + name[: -len("_collection_link")]
            elif name.endswith("_link"):
                document[name] = base + name[: -len("_link")]
        return Response(json.dumps(document), media_type="application/json")

    async def people(request: Request) -> Response:
        state.seen.append((request.method, f"{request.url.path}?{request.url.query}", ""))
        return Response("null", media_type="application/json")

    return Starlette(routes=[Route("/devel/", root), Route("/devel/people", people)])


@pytest.fixture(scope="module")
def launchpad(launchpad_wadl_bytes: bytes) -> Iterator[LaunchpadLike]:
    state = LaunchpadLike(base_url="", wadl=launchpad_wadl_bytes)
    with serve_app(build_app(state)) as base_url:
        state.base_url = base_url
        yield state


@pytest.fixture
def root(launchpad: LaunchpadLike) -> Iterator[ServiceRoot]:
    with ServiceRoot(None, launchpad.base_url, version="devel") as service:
        launchpad.seen.clear()
        yield service


def test_root_falls_back_to_the_sun_wadl_media_type(launchpad: LaunchpadLike) -> None:
    launchpad.seen.clear()

    with ServiceRoot(None, launchpad.base_url, version="devel"):
        pass

    assert [seen for seen in launchpad.seen if "wadl" in seen[2]] == [
        ("GET", "/devel/", EXAMPLE_WADL_MEDIA_TYPE),
        ("GET", "/devel/", SUN_WADL_MEDIA_TYPE),
    ]
    assert launchpad.seen.count(("GET", "/devel/", "application/json")) == 1


def test_root_lists_launchpads_top_level_collections(
    root: ServiceRoot, launchpad: LaunchpadLike
) -> None:
    expected = {
        name[: -len("_collection_link")]
        for name in root_json_params(launchpad.wadl)
        if name.endswith("_collection_link")
    }

    assert set(root.lp_collections) == expected
    assert {"people", "bugs", "projects", "distributions"} <= expected


def test_root_lists_launchpads_top_level_entries(root: ServiceRoot) -> None:
    assert sorted(root.lp_entries) == ["me", "pillars", "services"]


def test_collections_list_their_named_operations_without_a_request(
    root: ServiceRoot, launchpad: LaunchpadLike
) -> None:
    people = root.people

    assert {"getByEmail", "findTeam", "findPerson"} <= set(people.lp_operations)
    assert {"createBug", "searchTasks"} <= set(root.bugs.lp_operations)
    assert {"new_project", "search"} <= set(root.projects.lp_operations)
    assert launchpad.seen == []


def test_entries_list_their_named_operations_without_a_request(
    root: ServiceRoot, launchpad: LaunchpadLike
) -> None:
    person = root.people("salgado")

    assert {"getMembersByStatus", "addMember", "createPPA"} <= set(person.lp_operations)
    assert isinstance(person.getPPAByName, NamedOperation)
    assert launchpad.seen == []


def test_named_operation_checks_required_arguments_before_sending(
    root: ServiceRoot, launchpad: LaunchpadLike
) -> None:
    with pytest.raises(TypeError, match="email"):
        root.people.getByEmail()

    assert launchpad.seen == []


def test_named_operation_sends_json_encoded_arguments_in_the_query(
    root: ServiceRoot, launchpad: LaunchpadLike
) -> None:
    result = root.people.getByEmail(email="ada@example.com")

    assert result is None
    assert launchpad.seen == [
        ("GET", "/devel/people?email=%22ada%40example.com%22&ws.op=getByEmail", "")
    ]
