"""The service root: WADL or JSON by Accept, ETag, max-age per version, 304."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import httpx
import pytest

from cookbook_service.schema import ENTRY_TYPES, VERSIONS, WADL_MEDIA_TYPES
from cookbook_service.testing import RunningService

WADL_NS = "{http://research.sun.com/wadl/2006/10}"


@pytest.mark.parametrize("media_type", WADL_MEDIA_TYPES)
def test_root_answers_wadl_with_the_media_type_asked_for(
    cookbook_service: RunningService, web: httpx.Client, media_type: str
) -> None:
    response = web.get(cookbook_service.url(), headers={"Accept": media_type})

    assert response.status_code == 200
    assert response.headers["Content-Type"] == media_type
    assert ET.fromstring(response.content).tag == f"{WADL_NS}application"


def test_root_answers_json_when_wadl_is_not_asked_for(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url(), headers={"Accept": "application/json"})

    root = cookbook_service.url()
    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == {
        "recipes_collection_link": f"{root}recipes",
        "dishes_collection_link": f"{root}dishes",
        "cookbooks_collection_link": f"{root}cookbooks",
        "featured_cookbook_link": f"{root}cookbooks/Mastering%20the%20Art%20of%20French%20Cooking",
        "resource_type_link": f"{root}#service-root",
    }


@pytest.mark.parametrize(("version", "max_age"), [("1.0", 6 * 3600), ("devel", 2)])
@pytest.mark.parametrize("accept", ["application/json", WADL_MEDIA_TYPES[0]])
def test_root_cache_control_is_long_for_1_0_and_two_seconds_for_devel(
    cookbook_service: RunningService, web: httpx.Client, version: str, max_age: int, accept: str
) -> None:
    response = web.get(cookbook_service.url(version=version), headers={"Accept": accept})

    assert response.headers["Cache-Control"] == f"max-age={max_age}"
    assert VERSIONS[version] == max_age


@pytest.mark.parametrize("accept", ["application/json", *WADL_MEDIA_TYPES])
def test_root_conditional_get_with_its_etag_answers_304(
    cookbook_service: RunningService, web: httpx.Client, accept: str
) -> None:
    first = web.get(cookbook_service.url(), headers={"Accept": accept})

    second = web.get(
        cookbook_service.url(),
        headers={"Accept": accept, "If-None-Match": first.headers["ETag"]},
    )

    assert second.status_code == 304
    assert second.content == b""
    assert second.headers["ETag"] == first.headers["ETag"]


def test_root_wadl_and_json_have_different_etags(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    wadl = web.get(cookbook_service.url(), headers={"Accept": WADL_MEDIA_TYPES[0]})
    json_root = web.get(cookbook_service.url())

    assert wadl.headers["ETag"] != json_root.headers["ETag"]


def test_links_are_built_from_the_request_host(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    response = web.get(cookbook_service.url(), headers={"Host": "cookbooks.example:8443"})

    assert response.json()["recipes_collection_link"] == "http://cookbooks.example:8443/1.0/recipes"


def test_wadl_resources_base_is_built_from_the_request_host(
    cookbook_service: RunningService,
    web: httpx.Client,
) -> None:
    response = web.get(
        cookbook_service.url(version="devel"),
        headers={"Accept": WADL_MEDIA_TYPES[1], "Host": "elsewhere.test"},
    )

    resources = ET.fromstring(response.content).find(f"{WADL_NS}resources")
    assert resources is not None
    assert resources.get("base") == "http://elsewhere.test/devel/"


def test_version_without_trailing_slash_redirects_to_the_root(
    cookbook_service: RunningService,
    web: httpx.Client,
) -> None:
    response = web.get(cookbook_service.base_url + "1.0")

    assert response.status_code == 301
    assert response.headers["Location"] == cookbook_service.url()


def test_unknown_version_is_404(cookbook_service: RunningService, web: httpx.Client) -> None:
    response = web.get(cookbook_service.base_url + "2.0/")

    assert response.status_code == 404
    assert response.headers["Content-Type"].startswith("text/plain")


def test_every_json_field_of_every_entry_is_a_param_of_its_wadl_representation(
    cookbook_service: RunningService,
    web: httpx.Client,
) -> None:
    wadl = ET.fromstring(
        web.get(cookbook_service.url(), headers={"Accept": WADL_MEDIA_TYPES[0]}).content
    )
    representations = {
        rep.get("id"): {p.get("name") for p in rep.findall(f"{WADL_NS}param")}
        for rep in wadl.iter(f"{WADL_NS}representation")
        if rep.get("id")
    }
    samples = {
        "recipe": "recipes/1",
        "dish": "dishes/1",
        "cookbook": "cookbooks/Everyday%20Greens",
    }

    for entry_type in ENTRY_TYPES:
        document = web.get(cookbook_service.url(samples[entry_type.name])).json()
        assert set(document) == representations[f"{entry_type.name}-full"]
