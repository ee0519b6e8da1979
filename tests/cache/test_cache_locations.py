"""``cache=`` strings: a Redis URL or a directory; a URL of another kind is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from wadlclient import CacheError, HTTPCache, ServiceRoot
from wadlclient.cache import cache_from_environment

NOT_CACHES = [
    "memcached://x:11211",
    "redis:/x",
    "redis:x",
    "http://example.com/cache",
    "MEMCACHED://cache.internal:11211",
    "file:///var/cache/wadlclient",
]


@pytest.mark.parametrize("value", [*NOT_CACHES, b"memcached://x:11211"])
def test_a_url_of_another_kind_is_an_error_naming_the_urls_that_work(
    value: str | bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    with pytest.raises(CacheError) as raised:
        ServiceRoot(None, "http://127.0.0.1:1/", cache=value)

    message = str(raised.value)
    assert "neither a Redis URL nor a directory" in message
    assert "redis://host:port/db, rediss://host:port/db (TLS) or unix:///" in message
    assert list(tmp_path.iterdir()) == []  # no directory named like the URL


@pytest.mark.parametrize("value", NOT_CACHES)
def test_the_disk_cache_refuses_a_url_for_a_directory(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    with pytest.raises(CacheError, match="neither a Redis URL nor a directory"):
        HTTPCache(value)

    assert list(tmp_path.iterdir()) == []


def test_the_error_shows_no_password() -> None:
    with pytest.raises(CacheError) as raised:
        ServiceRoot(None, "http://127.0.0.1:1/", cache="memcached://:hunter2@x:11211/?key=k2")

    assert "hunter2" not in str(raised.value) and "k2" not in str(raised.value)
    assert "'memcached://x:11211/'" in str(raised.value)


@pytest.mark.parametrize("value", ["plain-dir", "nested/dir", "C:/cache", "odd:name"])
def test_a_plain_path_still_means_a_directory(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    cache = HTTPCache(value)

    assert cache.directory.resolve() == (tmp_path / value).resolve()
    assert cache.directory.is_dir()


def test_the_environment_variable_refuses_a_mistyped_redis_url_too() -> None:
    with pytest.raises(CacheError, match=r"\$WADLCLIENT_CACHE is 'redis:/x': not a Redis URL"):
        cache_from_environment(environ={"WADLCLIENT_CACHE": "redis:/x"})
