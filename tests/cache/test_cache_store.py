"""HTTPCache storage: freshness, revalidation, refreshes after a 304, deletion.

Its robustness (bad files, permissions, full disks, secrets, threads):
test_cache_store_robustness.py.
"""

from __future__ import annotations

import httpx
import pytest
from tests.cache.entries import JSON, T0, URL, Clock, http_date, response, stored_file

from wadlclient.cache import CachedResponse, HTTPCache


def test_max_age_fresh_just_before_expiry() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response({"Cache-Control": "max-age=2"}), b"{}")

    cached = cache.get(URL, JSON)

    assert cached is not None
    assert cached.is_fresh(T0 + 1.9)


def test_max_age_stale_just_after_expiry() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response({"Cache-Control": "max-age=2"}), b"{}")

    cached = cache.get(URL, JSON)

    assert cached is not None
    assert not cached.is_fresh(T0 + 2.1)


def test_expires_relative_to_date_gives_the_lifetime() -> None:
    cached = CachedResponse(
        200, httpx.Headers({"Date": http_date(T0), "Expires": http_date(T0 + 10)}), b""
    )

    assert cached.is_fresh(T0 + 9.9)
    assert not cached.is_fresh(T0 + 10.1)


def test_max_age_wins_over_expires() -> None:
    headers = {
        "Date": http_date(T0),
        "Expires": http_date(T0 + 100),
        "Cache-Control": "max-age=5",
    }
    cached = CachedResponse(200, httpx.Headers(headers), b"")

    assert not cached.is_fresh(T0 + 6)


def test_age_header_counts_towards_current_age() -> None:
    headers = {"Date": http_date(T0), "Cache-Control": "max-age=10", "Age": "8"}
    cached = CachedResponse(200, httpx.Headers(headers), b"")

    assert cached.is_fresh(T0 + 1.9)
    assert not cached.is_fresh(T0 + 2.1)


def test_no_lifetime_means_stale() -> None:
    cached = CachedResponse(200, httpx.Headers({"Date": http_date(T0)}), b"")

    assert not cached.is_fresh(T0)


def test_no_cache_always_revalidates() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response({"Cache-Control": "no-cache, max-age=3600"}), b"{}")

    cached = cache.get(URL, JSON)

    assert cached is not None
    assert not cached.is_fresh(T0)
    assert cached.validators() == {"If-None-Match": '"v1"'}


def test_no_store_is_never_stored() -> None:
    cache = HTTPCache(clock=Clock())

    cache.put(URL, JSON, response({"Cache-Control": "no-store"}), b"{}")

    assert cache.get(URL, JSON) is None
    assert list(cache.directory.iterdir()) == []


def test_no_store_removes_an_earlier_entry() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"{}")

    cache.put(URL, JSON, response({"Cache-Control": "no-store"}), b"{}")

    assert cache.get(URL, JSON) is None


def test_validators_carry_etag_and_last_modified() -> None:
    headers = {"ETag": '"abc"', "Last-Modified": http_date(T0 - 60)}
    cached = CachedResponse(200, httpx.Headers(headers), b"")

    assert cached.validators() == {
        "If-None-Match": '"abc"',
        "If-Modified-Since": http_date(T0 - 60),
    }


def test_missing_date_is_added_from_the_clock() -> None:
    clock = Clock()
    cache = HTTPCache(clock=clock)
    plain = httpx.Response(200, headers={"Cache-Control": "max-age=2"}, content=b"{}")
    cache.put(URL, JSON, plain, b"{}")

    cached = cache.get(URL, JSON)

    assert cached is not None
    assert cached.is_fresh(T0 + 1.9)
    assert not cached.is_fresh(T0 + 2.1)


# Round trip and refresh


def test_put_then_get_returns_status_headers_and_body() -> None:
    cache = HTTPCache(clock=Clock())

    cache.put(URL, JSON, response(body=b'{"id": 1}'), b'{"id": 1}')
    cached = cache.get(URL, JSON)

    assert cached is not None
    assert (cached.status, cached.body) == (200, b'{"id": 1}')
    assert cached.headers["etag"] == '"v1"'
    assert cached.headers["content-type"] == JSON


def test_209_after_patch_is_stored_as_the_200_a_get_would_give() -> None:
    cache = HTTPCache(clock=Clock())
    patched = httpx.Response(209, headers={"ETag": '"v2"', "Date": http_date(T0)}, content=b"{}")

    cache.put(URL, JSON, patched, b"{}")

    cached = cache.get(URL, JSON)
    assert cached is not None
    assert (cached.status, cached.headers["etag"]) == (200, '"v2"')


def test_refresh_after_304_makes_entry_fresh_again() -> None:
    clock = Clock()
    cache = HTTPCache(clock=clock)
    cache.put(URL, JSON, response({"Cache-Control": "max-age=2"}), b"body")
    clock.now = T0 + 5
    not_modified = httpx.Response(
        304, headers={"Date": http_date(T0 + 5), "Cache-Control": "max-age=2", "ETag": '"v1"'}
    )

    refreshed = cache.refresh(URL, JSON, not_modified)

    assert refreshed is not None and refreshed.is_fresh(T0 + 6.9)
    reread = cache.get(URL, JSON)
    assert reread is not None
    assert reread.body == b"body"
    assert reread.is_fresh(T0 + 6.9)
    assert not reread.is_fresh(T0 + 7.1)


def test_refresh_takes_new_etag_expires_and_keeps_body_headers() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"body")
    not_modified = httpx.Response(
        304,
        headers={
            "Date": http_date(T0 + 1),
            "ETag": '"v9"',
            "Expires": http_date(T0 + 60),
            "Content-Length": "0",
        },
    )

    cache.refresh(URL, JSON, not_modified)

    reread = cache.get(URL, JSON)
    assert reread is not None
    assert reread.headers["etag"] == '"v9"'
    assert reread.headers["expires"] == http_date(T0 + 60)
    assert reread.headers["content-type"] == JSON
    assert reread.body == b"body"


def test_refresh_without_date_counts_from_now() -> None:
    clock = Clock()
    cache = HTTPCache(clock=clock)
    cache.put(URL, JSON, response({"Cache-Control": "max-age=2"}), b"body")
    clock.now = T0 + 10

    refreshed = cache.refresh(URL, JSON, httpx.Response(304))

    assert refreshed is not None
    assert refreshed.is_fresh(T0 + 11.9)


def test_a_304_for_an_entry_that_can_never_be_fresh_and_keeps_its_etag_writes_no_file() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"body")  # no Cache-Control, no Expires: lifetime 0
    before = stored_file(cache).stat()
    not_modified = httpx.Response(304, headers={"Date": http_date(T0 + 60), "ETag": '"v1"'})

    refreshed = cache.refresh(URL, JSON, not_modified)

    assert refreshed is not None and refreshed.headers["date"] == http_date(T0 + 60)
    after = stored_file(cache).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    reread = cache.get(URL, JSON)
    assert reread is not None and reread.validators() == {"If-None-Match": '"v1"'}


@pytest.mark.parametrize(
    "news", [{"ETag": '"v2"'}, {"Cache-Control": "max-age=60"}, {"Expires": http_date(T0 + 90)}]
)
def test_a_304_that_changes_validators_or_lifetime_rewrites_the_entry(news: dict[str, str]) -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"body")
    before = stored_file(cache).stat()

    cache.refresh(URL, JSON, httpx.Response(304, headers={"Date": http_date(T0 + 60), **news}))

    assert stored_file(cache).stat().st_ino != before.st_ino  # replaced by a new file
    reread = cache.get(URL, JSON)
    assert reread is not None and reread.headers["date"] == http_date(T0 + 60)


def test_refresh_of_missing_entry_returns_none() -> None:
    cache = HTTPCache(clock=Clock())

    assert cache.refresh(URL, JSON, httpx.Response(304)) is None


def test_delete_one_media_type_keeps_the_other() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"{}")
    cache.put(URL, "application/xhtml+xml", response(), b"<p/>")

    cache.delete(URL, JSON)

    assert cache.get(URL, JSON) is None
    assert cache.get(URL, "application/xhtml+xml") is not None


def test_delete_without_media_type_removes_every_known_one() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"{}")
    cache.put(URL, "text/x-custom", response(), b"x")

    cache.delete(URL)

    assert list(cache.directory.iterdir()) == []


# Robustness
