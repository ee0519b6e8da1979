"""$WADLCLIENT_CACHE: a Redis URL or a directory, checked before anything is connected or made."""

from __future__ import annotations

from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import CacheError, ServiceRoot
from wadlclient.cache import cache_from_environment

EXPECTED = "(give redis://host:port/db, rediss://..., unix:///path or a directory path)"


@pytest.mark.parametrize(
    "value",
    ["redis://cache.internal:6379/0", "rediss://:secret@cache.internal/2",
     "redis://cache.internal", "unix:///run/redis/redis.sock"],
)  # fmt: skip
def test_a_redis_url_is_given_back_as_it_is(value: str) -> None:
    assert cache_from_environment(environ={"WADLCLIENT_CACHE": value}) == value


def test_a_path_is_given_back_with_home_and_variables_expanded(tmp_path: Path) -> None:
    environ = {"WADLCLIENT_CACHE": "~/$JOB/cache"}

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(tmp_path))
        patch.setenv("JOB", "build-7")
        found = cache_from_environment(environ=environ)

    assert found == f"{tmp_path}/build-7/cache"


@pytest.mark.parametrize("value", [None, "", "   "], ids=["unset", "empty", "blank"])
def test_unset_or_blank_names_no_cache(value: str | None) -> None:
    environ = {} if value is None else {"WADLCLIENT_CACHE": value}

    assert cache_from_environment(environ=environ) is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("memcached://:pw@cache:11211/?password=pw",
         "$WADLCLIENT_CACHE is 'memcached://cache:11211/': not a Redis URL"),
        ("redis://:pw@cache:63790000/0",
         "$WADLCLIENT_CACHE is 'redis://cache:63790000/0': "
         "the port is not a number from 0 to 65535"),
        ("redis://cache:6379/zero",
         "$WADLCLIENT_CACHE is 'redis://cache:6379/zero': the database 'zero' is not a number"),
        ("redis://cache:6379/\u00b2",  # "²": str.isdigit() yes, int() no
         "$WADLCLIENT_CACHE is 'redis://cache:6379/\u00b2': the database '\u00b2' is not a number"),
        ("redis:///0", "$WADLCLIENT_CACHE is 'redis:///0': no host"),
        ("unix://", "$WADLCLIENT_CACHE is 'unix://': no socket path"),
    ],
    ids=["other-scheme", "bad-port", "bad-database", "superscript-database", "no-host",
         "no-socket"],
)  # fmt: skip
def test_a_bad_url_is_one_line_naming_the_variable_without_its_password(
    value: str, message: str
) -> None:
    with pytest.raises(CacheError) as caught:
        cache_from_environment(environ={"WADLCLIENT_CACHE": value})

    assert str(caught.value) == f"{message} {EXPECTED}"
    assert "pw" not in str(caught.value)


def test_a_file_where_a_directory_is_named_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("not a directory")

    with pytest.raises(CacheError) as caught:
        cache_from_environment(environ={"WADLCLIENT_CACHE": str(tmp_path / "cache")})

    assert str(caught.value) == (
        f"$WADLCLIENT_CACHE names {tmp_path / 'cache'}, which is not a directory {EXPECTED}"
    )


def test_a_native_root_given_no_cache_keeps_a_private_one_whatever_the_variable_says(
    cookbook_service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cache=None promises a private cache; native code opts in, as below.
    shared = tmp_path / "shared"
    monkeypatch.setenv("WADLCLIENT_CACHE", str(shared))

    ServiceRoot(None, cookbook_service.base_url).close()
    assert not shared.exists()

    ServiceRoot(None, cookbook_service.base_url, cache=cache_from_environment()).close()
    assert len(list(shared.iterdir())) >= 2  # the root's WADL and JSON
