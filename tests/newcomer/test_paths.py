"""Cache and credentials paths expand ``~`` and environment variables, as a shell would."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from wadlclient import AccessToken, OAuthAuthorizer, ServiceRoot
from wadlclient.cache import HTTPCache


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home directory of the test's own; the working directory elsewhere."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return home


def test_a_cache_path_under_tilde_is_made_in_the_home_directory(
    home: Path, cookbook_service: Any
) -> None:
    with ServiceRoot(None, cookbook_service.base_url, cache="~/.cache/cookbook") as root:
        len(root.recipes)

    assert (home / ".cache" / "cookbook").is_dir()
    assert any((home / ".cache" / "cookbook").iterdir())
    assert not Path("~").exists()


def test_a_cache_path_expands_environment_variables(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_CACHE_ROOT", str(home / "caches"))

    cache = HTTPCache("$MY_CACHE_ROOT/cookbook")
    cache.close()

    assert (home / "caches" / "cookbook").is_dir()
    assert not Path("$MY_CACHE_ROOT").exists()


def test_credentials_paths_expand_tilde_and_variables(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDS_NAME", "creds.ini")
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("key", "secret"))

    authorizer.save_to_path("~/${CREDS_NAME}")
    loaded = OAuthAuthorizer.load_from_path("~/$CREDS_NAME")

    assert (home / "creds.ini").is_file()
    assert oct((home / "creds.ini").stat().st_mode & 0o777) == oct(0o600)
    assert loaded.access_token == AccessToken("key", "secret")
    assert os.listdir(".") == []
