"""One cache directory, shared both ways with lazr.restfulclient (httplib2 beneath it).

lazr.restfulclient is a test-only dependency here: it writes and reads the
directory exactly as launchpadlib users' machines do.
"""

from __future__ import annotations

from pathlib import Path

import httplib2
import httpx
from lazr.restfulclient._browser import MultipleRepresentationCache
from lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from wadlclient import SUN_WADL_MEDIA_TYPE, HTTPCache, ServiceRoot

JSON = "application/json"


def test_files_written_by_lazr_are_read(cookbook_service: RunningService, tmp_path: Path) -> None:
    root_url = cookbook_service.url()
    LazrServiceRoot(None, root_url, cache=str(tmp_path))
    served = httpx.get(root_url, headers={"Accept": JSON}).content

    cache = HTTPCache(tmp_path)
    json_entry = cache.get(root_url, JSON)
    wadl_entry = cache.get(root_url, SUN_WADL_MEDIA_TYPE)

    assert json_entry is not None and json_entry.body == served
    assert json_entry.is_fresh(cache.clock())
    assert wadl_entry is not None and wadl_entry.body.lstrip().startswith(b"<")


def test_wadlclient_on_a_lazr_warm_cache_sends_nothing(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    LazrServiceRoot(None, cookbook_service.url(), cache=str(tmp_path))
    wire.clear(2)

    ServiceRoot(
        None, cookbook_service.base_url, cache=tmp_path, wadl_media_type=SUN_WADL_MEDIA_TYPE
    )

    assert wire.requests(0) == []


def test_lazr_on_a_wadlclient_warm_cache_sends_nothing(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(
        None, cookbook_service.base_url, cache=tmp_path, wadl_media_type=SUN_WADL_MEDIA_TYPE
    )
    wire.clear(2)

    LazrServiceRoot(None, cookbook_service.url(), cache=str(tmp_path))

    assert wire.requests(0) == []


def test_httplib2_revalidates_our_entry_with_our_etag(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    recipe = root.recipes[str(PUBLIC_RECIPE_IDS[0])]
    url = recipe.self_link
    stored = HTTPCache(tmp_path).get(url, JSON)
    assert stored is not None
    wire.clear(3)
    lazr_cache = MultipleRepresentationCache(str(tmp_path))
    lazr_cache.request_media_type = JSON

    response, content = httplib2.Http(cache=lazr_cache).request(url, headers={"Accept": JSON})

    path = f"/1.0/recipes/{PUBLIC_RECIPE_IDS[0]}"
    assert wire.requests(1) == [("GET", path, stored.headers["etag"], 304)]
    assert (response.status, response.fromcache) == (200, True)
    assert content == stored.body
