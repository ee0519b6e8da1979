"""The same HTTP rules on every backend: memory and a real Redis server, as on disk.

Each test runs once per backend (the disk cache has these rules' own
tests in test_cache_rules_e2e.py) and counts the requests the example
service saw in its journal.
"""

from __future__ import annotations

import email.utils
from collections.abc import Callable

import pytest

from cookbook_service.testing import PUBLIC_RECIPE_IDS, RunningService
from wadlclient import ServiceRoot
from wadlclient.cache import CacheRules, MemoryStore, RedisStore, StoreCache

JSON = "application/json"
WADL = "application/vnd.example.wadl+xml"
RECIPE_ID = PUBLIC_RECIPE_IDS[0]

#: A backend under test: makes a fresh cache over the same store, with a clock.
Backend = Callable[..., CacheRules]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """Caches over one store of the parameter's kind (a Redis database emptied first)."""
    if request.param == "memory":
        store = MemoryStore()
        return lambda **kw: StoreCache(store, **kw)
    url = request.getfixturevalue("empty_redis")
    return lambda **kw: StoreCache(RedisStore(url), owns_store=True, **kw)


def stored_date(cache: CacheRules, url: str) -> float:
    """The latest Date of the root's stored WADL and JSON."""
    dates = []
    for media_type in (WADL, JSON):
        cached = cache.get(url, media_type)
        assert cached is not None
        parsed = email.utils.parsedate_tz(cached.headers["date"])
        assert parsed is not None
        dates.append(float(email.utils.mktime_tz(parsed)))
    return max(dates)


def test_a_second_root_on_a_warm_store_sends_nothing_for_1_0(
    cookbook_service: RunningService, backend: Backend, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=backend())
    wire.clear(2)

    ServiceRoot(None, cookbook_service.base_url, cache=backend())

    assert wire.requests(0) == []


def test_a_stored_entry_is_revalidated_and_the_304_serves_it(
    cookbook_service: RunningService, backend: Backend, wire
) -> None:
    root = ServiceRoot(None, cookbook_service.base_url, cache=backend())
    first = root.recipes[str(RECIPE_ID)]
    wire.clear(3)

    again = ServiceRoot(None, cookbook_service.base_url, cache=backend()).recipes[str(RECIPE_ID)]

    assert wire.requests(1) == [("GET", f"/1.0/recipes/{RECIPE_ID}", first.http_etag, 304)]
    assert again.instructions == first.instructions


def test_the_devel_root_is_stale_after_two_seconds_and_a_304_refreshes_it(
    cookbook_service: RunningService, backend: Backend, wire
) -> None:
    ServiceRoot(None, cookbook_service.base_url, cache=backend(), version="devel")
    root_url = cookbook_service.url(version="devel")
    latest = stored_date(backend(), root_url)
    wire.clear(2)

    before = backend(clock=Clock(latest + 1.9))
    ServiceRoot(None, cookbook_service.base_url, cache=before, version="devel")
    within = wire.requests(0)
    after = backend(clock=Clock(latest + 2.1))
    ServiceRoot(None, cookbook_service.base_url, cache=after, version="devel")
    revalidated = wire.summary(2)

    assert within == []
    assert revalidated == [("GET", "/devel/", True, 304), ("GET", "/devel/", True, 304)]
    assert stored_date(backend(), root_url) >= latest  # rewritten with the 304's Date


def test_no_credential_header_reaches_the_store(
    cookbook_service: RunningService, backend: Backend
) -> None:
    cache = backend()
    root = ServiceRoot(None, cookbook_service.base_url, cache=cache)
    url = root.recipes[str(RECIPE_ID)].self_link
    headers = {"ETag": '"x"', "Set-Cookie": "session=secret", "Authorization": "OAuth secret"}
    answer = type("Answer", (), {"status": 200, "headers": headers})
    cache.put(url, JSON, answer, b"{}")

    assert isinstance(cache, StoreCache)
    stored = cache.store.load(cache.filename(url, JSON))
    assert stored is not None
    assert b"secret" not in stored
    assert stored.startswith(b"status: 200\r\n")


def test_a_store_entry_is_byte_for_byte_the_disk_file(
    cookbook_service: RunningService, backend: Backend, tmp_path
) -> None:
    from wadlclient import HTTPCache

    clock = Clock(1_700_000_000.0)
    cache, disk = backend(clock=clock), HTTPCache(tmp_path, clock=clock)
    answer = type("Answer", (), {"status": 200, "headers": {"ETag": '"v1"', "Vary": "Accept"}})
    url = cookbook_service.url() + "recipes/1"
    for each in (cache, disk):
        each.put(url, JSON, answer, b'{"id": 1}')

    assert isinstance(cache, StoreCache)
    name = disk.filename(url, JSON)
    assert cache.store.load(name) == (tmp_path / name).read_bytes()


class DictStore:
    """The smallest store the interface allows: a dict (what docs/cache-backends.md shows)."""

    private = False

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def load(self, name: str) -> bytes | None:
        return self.data.get(name)

    def save(self, name: str, data: bytes) -> None:
        self.data[name] = data

    def remove(self, name: str) -> None:
        self.data.pop(name, None)

    def exists(self, name: str) -> bool:
        return name in self.data

    def close(self) -> None:
        pass


def test_a_store_of_your_own_is_a_cache_argument_and_serves_a_second_root(
    cookbook_service: RunningService, wire
) -> None:
    store = DictStore()
    ServiceRoot(None, cookbook_service.base_url, cache=store).close()
    wire.clear(2)

    ServiceRoot(None, cookbook_service.base_url, cache=store)

    assert wire.requests(0) == []
    assert len(store.data) == 2  # the root's WADL and JSON


def test_an_object_that_is_not_a_store_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="a cache store needs load, save, remove, exists, close"):
        StoreCache(object())  # type: ignore[arg-type]


def test_the_memory_store_drops_its_oldest_entries_beyond_its_bound() -> None:
    store = MemoryStore(max_bytes=100)
    for name in "abcde":
        store.save(name, b"x" * 30)

    assert [name for name in "abcde" if store.exists(name)] == ["c", "d", "e"]
    store.save("huge", b"x" * 101)
    assert store.load("huge") is None
    assert len(store) == 3
