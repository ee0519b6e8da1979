"""SPEC "Conditional requests and caching", rules 1-7, against the example service.

Every test counts the requests the service saw (its journal, read through
the ``wire`` fixture of this directory's conftest) and their statuses:
nothing sent, a conditional GET answered 304, or a full 200.
"""

from __future__ import annotations

import email.utils
import json
import logging
import os
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from wadlclient import HTTPCache, ServiceRoot

JSON = "application/json"
WADL = "application/vnd.example.wadl+xml"
RECIPE_ID = PUBLIC_RECIPE_IDS[0]


def stored_dates(directory: Path, root_url: str) -> tuple[float, float]:
    """The earliest and latest Date of the root's stored WADL and JSON.

    The two answers can straddle a second boundary, so "fresh until" is
    counted from the earlier and "stale after" from the later.
    """
    cache = HTTPCache(directory)
    dates = []
    for media_type in (WADL, JSON):
        cached = cache.get(root_url, media_type)
        assert cached is not None
        parsed = email.utils.parsedate_tz(cached.headers["date"])
        assert parsed is not None
        dates.append(float(email.utils.mktime_tz(parsed)))
    return min(dates), max(dates)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# Rule 1: a private temporary directory by default, removed at exit.


def test_rule1_default_cache_is_a_temporary_directory_removed_at_exit(
    cookbook_service: RunningService, tmp_path: Path
) -> None:
    script = textwrap.dedent(
        """
        import os, sys
        from wadlclient import ServiceRoot
        ServiceRoot(None, sys.argv[1])
        print(sum(len(files) for _, _, files in os.walk(os.environ["TMPDIR"])))
        """
    )
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": os.pathsep.join(sys.path)}

    result = subprocess.run(
        [sys.executable, "-c", script, cookbook_service.base_url],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )

    assert int(result.stdout) == 2  # the root's WADL and JSON, while it ran
    assert list(tmp_path.iterdir()) == []


# Rule 2: a cache directory given as text or bytes persists.


@pytest.mark.parametrize("kind", [str, os.fsencode], ids=["str", "bytes"])
def test_rule2_cache_directory_argument_persists(
    cookbook_service: RunningService, tmp_path: Path, kind: object
) -> None:
    directory = kind(str(tmp_path / "cache"))  # type: ignore[operator]
    ServiceRoot(None, cookbook_service.base_url, cache=directory)

    root_url = cookbook_service.url()
    cache = HTTPCache(tmp_path / "cache")
    assert cache.get(root_url, WADL) is not None
    # The root's JSON and WADL (the example WADL is too small to get a
    # persisted model: see schema.MODEL_PERSIST_MIN_BYTES).
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == sorted(
        [cache.filename(root_url, JSON), cache.filename(root_url, WADL)]
    )


# Rule 3: a second client on a warm directory does not request the root.


def test_rule3_second_client_on_warm_cache_sends_nothing_for_1_0(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=str(tmp_path))
    assert len(wire.requests(2)) == 2
    wire.clear(2)

    ServiceRoot(None, cookbook_service.base_url, cache=os.fsencode(str(tmp_path)))

    assert wire.requests(0) == []


# Rule 4: a cached entry is revalidated; 304 uses the cache, 200 replaces it.


def test_rule4_cached_entry_is_revalidated_and_304_uses_the_cache(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    first = root.recipes[str(RECIPE_ID)]
    wire.clear(3)

    again = root.recipes[str(RECIPE_ID)]

    path = f"/1.0/recipes/{RECIPE_ID}"
    assert wire.requests(1) == [("GET", path, first.http_etag, 304)]
    assert again.instructions == first.instructions


def test_rule4_changed_entry_answers_200_which_replaces_the_cache(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    old = root.recipes[str(RECIPE_ID)]
    url = old.self_link
    httpx.patch(url, json={"instructions": "Changed elsewhere."}).raise_for_status()
    wire.clear(4)

    new = root.recipes[str(RECIPE_ID)]

    path = f"/1.0/recipes/{RECIPE_ID}"
    assert wire.requests(1) == [("GET", path, old.http_etag, 200)]
    assert new.instructions == "Changed elsewhere."
    stored = HTTPCache(tmp_path).get(url, JSON)
    assert stored is not None
    assert stored.headers["etag"] == new.http_etag != old.http_etag


# Rules 5 and 6: entries first seen in a collection page.


def test_rule5_entry_from_collection_page_refreshes_with_conditional_get_304(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    recipe = root.recipes[0]
    etag, path = recipe.http_etag, f"/1.0/recipes/{recipe.id}"
    wire.clear(3)

    recipe.lp_refresh()

    assert wire.requests(1) == [("GET", path, etag, 304)]


def test_rule6_entry_from_collection_page_fetched_by_key_is_a_full_200(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    recipe = root.recipes[0]
    path = f"/1.0/recipes/{recipe.id}"
    wire.clear(3)

    root.recipes[str(recipe.id)]

    assert wire.requests(1) == [("GET", path, None, 200)]


# Rule 7: expiry of the devel root (2 seconds), with a clock and in real time.


def test_rule7_devel_root_fresh_just_before_two_seconds(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    root_url = cookbook_service.url(version="devel")
    earliest, _ = stored_dates(tmp_path, root_url)
    wire.clear(2)

    clock = Clock(earliest + 1.9)
    ServiceRoot(
        None, cookbook_service.base_url, cache=HTTPCache(tmp_path, clock=clock), version="devel"
    )

    assert wire.requests(0) == []


def test_rule7_devel_root_stale_just_after_two_seconds_revalidates_with_304(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    root_url = cookbook_service.url(version="devel")
    _, latest = stored_dates(tmp_path, root_url)
    wire.clear(2)

    clock = Clock(latest + 2.1)
    ServiceRoot(
        None, cookbook_service.base_url, cache=HTTPCache(tmp_path, clock=clock), version="devel"
    )

    assert wire.summary(2) == [
        ("GET", "/devel/", True, 304),
        ("GET", "/devel/", True, 304),
    ]


def test_rule7_1_0_root_is_still_fresh_when_devel_has_expired(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    _, latest = stored_dates(tmp_path, cookbook_service.url())
    wire.clear(2)

    clock = Clock(latest + 3600)
    ServiceRoot(None, cookbook_service.base_url, cache=HTTPCache(tmp_path, clock=clock))

    assert wire.requests(0) == []


def test_rule7_devel_expiry_in_real_time(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    _, latest = stored_dates(tmp_path, cookbook_service.url(version="devel"))
    wire.clear(2)

    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    within = wire.requests(0)
    time.sleep(max(0.0, latest + 2.2 - time.time()))
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    after = wire.summary(2)
    wire.clear(2)
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    after_refresh = wire.requests(0)

    assert within == []
    assert after == [("GET", "/devel/", True, 304), ("GET", "/devel/", True, 304)]
    assert after_refresh == []  # the 304s refreshed the entries as if resent


# What the cache holds after writes.


def test_cache_holds_the_209_representation_after_lp_save(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    recipe = root.recipes[str(RECIPE_ID)]
    old_etag = recipe.http_etag
    recipe.instructions = "Saved through the client."
    wire.clear(3)

    recipe.lp_save()

    assert [(m, s) for m, _, _, s in wire.requests(1)] == [("PATCH", 209)]
    stored = HTTPCache(tmp_path).get(recipe.self_link, JSON)
    assert stored is not None
    assert stored.headers["etag"] == recipe.http_etag != old_etag
    assert json.loads(stored.body)["instructions"] == "Saved through the client."


def test_cache_entry_gone_after_lp_delete(cookbook_service: RunningService, tmp_path: Path) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    recipe = root.recipes[str(RECIPE_ID)]
    url = recipe.self_link
    assert HTTPCache(tmp_path).get(url, JSON) is not None

    recipe.lp_delete()

    assert HTTPCache(tmp_path).get(url, JSON) is None
    assert not (tmp_path / HTTPCache(tmp_path).filename(url, JSON)).exists()


def test_created_cookbook_json_is_cached(
    cookbook_service: RunningService, tmp_path: Path, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=tmp_path)
    wire.clear(2)

    book = root.cookbooks.create(
        name="Cached Cookery",
        cuisine="General",
        copyright_date=datetime(2024, 1, 2, tzinfo=timezone.utc),
        price=Decimal("12.50"),
    )

    stored = HTTPCache(tmp_path).get(book.self_link, JSON)
    assert stored is not None
    assert json.loads(stored.body)["name"] == "Cached Cookery"
    assert [(m, s) for m, _, _, s in wire.requests(2)] == [("POST", 201), ("GET", 200)]


# The request log names the cache's part in each exchange.


def test_request_log_says_stored_fresh_and_revalidated(
    cookbook_service: RunningService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="wadlclient.http")
    ServiceRoot(None, cookbook_service.base_url, cache=tmp_path, version="devel")
    earliest, latest = stored_dates(tmp_path, cookbook_service.url(version="devel"))
    ServiceRoot(
        None,
        cookbook_service.base_url,
        cache=HTTPCache(tmp_path, clock=Clock(earliest + 1)),
        version="devel",
    )
    ServiceRoot(
        None,
        cookbook_service.base_url,
        cache=HTTPCache(tmp_path, clock=Clock(latest + 3)),
        version="devel",
    )

    lines = [r.getMessage() for r in caplog.records if r.name == "wadlclient.http"]
    dispositions = [line.rsplit("(cache: ", 1)[1].split(")")[0] for line in lines]
    assert dispositions == ["stored"] * 2 + ["fresh"] * 2 + ["revalidated"] * 2
    assert all("/devel/" in line for line in lines)
