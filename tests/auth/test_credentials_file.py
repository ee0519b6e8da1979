"""Credentials files: lazr.restfulclient's INI layout, written safely, read strictly."""

from __future__ import annotations

import io
import os
import stat
import threading
from pathlib import Path

import pytest
from lazr.restfulclient.authorize.oauth import AccessToken as LazrAccessToken
from lazr.restfulclient.authorize.oauth import OAuthAuthorizer as LazrOAuthAuthorizer

from wadlclient.auth import AccessToken, OAuthAuthorizer
from wadlclient.errors import CredentialsFileError


def authorizer(secret: str = "t-secret") -> OAuthAuthorizer:
    return OAuthAuthorizer("consumer", "c-secret", AccessToken("token", secret))


def test_save_to_path_then_load_from_path_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "credentials"

    authorizer("50% off & more").save_to_path(path)
    loaded = OAuthAuthorizer.load_from_path(path)

    assert loaded.consumer is not None and loaded.access_token is not None
    assert (loaded.consumer.key, loaded.consumer.secret) == ("consumer", "c-secret")
    assert (loaded.access_token.key, loaded.access_token.secret) == ("token", "50% off & more")


def test_saved_file_has_lazr_section_and_keys(tmp_path: Path) -> None:
    path = tmp_path / "credentials"

    authorizer().save_to_path(path)

    lines = path.read_text().split("\n")
    assert lines[0] == "[1]"
    assert {line.split(" = ")[0] for line in lines[1:] if line} == {
        "consumer_key",
        "consumer_secret",
        "access_token",
        "access_secret",
    }


def test_saved_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "credentials"

    authorizer().save_to_path(path)

    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_overwriting_tightens_a_world_readable_file_to_0600(tmp_path: Path) -> None:
    path = tmp_path / "credentials"
    path.write_text("old")
    path.chmod(0o644)

    authorizer().save_to_path(path)

    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert "old" not in path.read_text()


def test_save_to_path_is_atomic_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "credentials"
    path.write_text("[1]\n")
    inode_before = os.stat(path).st_ino

    authorizer().save_to_path(path)

    assert os.stat(path).st_ino != inode_before  # a new file renamed over the old one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["credentials"]


def test_save_into_a_missing_directory_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "credentials"

    with pytest.raises(CredentialsFileError, match=str(path)):
        authorizer().save_to_path(path)


def test_save_without_a_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CredentialsFileError, match="no access token"):
        OAuthAuthorizer("consumer").save_to_path(tmp_path / "credentials")


def test_a_secret_the_format_would_mangle_is_refused_not_truncated(tmp_path: Path) -> None:
    path = tmp_path / "credentials"

    with pytest.raises(CredentialsFileError, match="access_secret") as caught:
        authorizer("line\nbreak").save_to_path(path)

    assert "line" not in str(caught.value).replace("line break", "")
    assert not path.exists()


def test_save_and_load_on_open_files_round_trip() -> None:
    buffer = io.StringIO()
    authorizer().save(buffer)
    buffer.seek(0)
    loaded = OAuthAuthorizer("placeholder", application_name="Recipe Tool")

    loaded.load(buffer)

    assert loaded.access_token == AccessToken("token", "t-secret")
    assert loaded.user_agent_params == {"oauth_consumer": "consumer", "application": "Recipe Tool"}


def test_lazr_restfulclient_reads_a_file_we_write(tmp_path: Path) -> None:
    path = tmp_path / "credentials"
    authorizer("100%").save_to_path(path)

    theirs = LazrOAuthAuthorizer.load_from_path(str(path))

    assert theirs.consumer.key == "consumer"
    assert theirs.consumer.secret == "c-secret"
    assert theirs.access_token.key == "token"
    assert theirs.access_token.secret == "100%"


def test_we_read_a_file_lazr_restfulclient_writes(tmp_path: Path) -> None:
    path = tmp_path / "credentials"
    LazrOAuthAuthorizer("consumer", "c-secret", LazrAccessToken("token", "t-secret")).save_to_path(
        str(path)
    )

    ours = OAuthAuthorizer.load_from_path(path)

    assert ours.consumer is not None
    assert (ours.consumer.key, ours.consumer.secret) == ("consumer", "c-secret")
    assert ours.access_token == AccessToken("token", "t-secret")


def test_missing_file_raises_naming_path_and_reason(tmp_path: Path) -> None:
    path = tmp_path / "nowhere"

    with pytest.raises(CredentialsFileError) as caught:
        OAuthAuthorizer.load_from_path(path)

    assert str(path) in str(caught.value)
    assert "No such file or directory" in str(caught.value)


@pytest.mark.timeout(20)
def test_a_fifo_given_as_the_path_is_refused_naming_it(tmp_path: Path) -> None:
    fifo = tmp_path / "credentials"
    os.mkfifo(fifo)
    # Whatever happens, a writer comes in 10 s: a reader blocked on the FIFO is freed, and fails.
    writer = threading.Timer(10, lambda: fifo.write_text("[1]\n"))
    writer.start()
    try:
        with pytest.raises(CredentialsFileError) as caught:
            OAuthAuthorizer.load_from_path(fifo)
    finally:
        writer.cancel()

    assert str(caught.value) == (
        f"cannot read credentials file {fifo}: it is a FIFO, not a regular file"
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("consumer_key = c\naccess_secret = SECRET\n", "no section header"),
        ("[2]\nconsumer_key = c\n", "no [1] section"),
        ("[1]\nconsumer_key = c\nconsumer_secret = SECRET\naccess_token = t\n", "no access_secret"),
        ("[1]\nthis line is SECRET garbage\n", "cannot parse line 2"),
        (
            "[1]\nconsumer_key = c\nconsumer_secret =\naccess_token = t\n"
            "access_secret = 5%SECRET\n",
            "access_secret has a stray '%'",
        ),
    ],
    ids=["no-header", "wrong-section", "missing-key", "garbage-line", "bad-percent"],
)
def test_malformed_file_raises_with_path_and_reason_but_no_content(
    tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "credentials"
    path.write_text(content)

    with pytest.raises(CredentialsFileError) as caught:
        OAuthAuthorizer.load_from_path(path)

    message = str(caught.value)
    assert str(path) in message
    assert reason in message
    assert "SECRET" not in message


def test_a_failed_load_keeps_the_credentials_already_held() -> None:
    held = authorizer()

    with pytest.raises(CredentialsFileError):
        held.load(io.StringIO("[1]\nconsumer_key = other\n"))

    assert held.consumer is not None and held.consumer.key == "consumer"
    assert held.access_token == AccessToken("token", "t-secret")
