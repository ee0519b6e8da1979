"""OAuth credentials from $WADLCLIENT_CREDENTIALS: a credentials file's content, or its path."""

from __future__ import annotations

from pathlib import Path

import pytest

from cookbook_service.seed import PRIVATE_RECIPE_ID
from cookbook_service.testing import RunningService
from wadlclient import (
    AccessToken,
    CredentialsFileError,
    CredentialsRefused,
    OAuthAuthorizer,
    ServiceRoot,
)
from wadlclient.auth.environment import credentials_from_environment, credentials_refused
from wadlclient.errors import Unauthorized
from wadlclient.headers import Headers
from wadlclient.http import Response

CONTENT = (
    "[1]\nconsumer_key = kitchen\nconsumer_secret = \n"
    "access_token = tok\naccess_secret = toksecret\n"
)
VALUES = {
    "consumer_key": "kitchen",
    "consumer_secret": "",
    "access_token": "tok",
    "access_secret": "toksecret",
}


def test_the_variable_may_hold_the_file_content() -> None:
    assert credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": CONTENT}) == VALUES


def test_the_variable_may_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "creds").write_text(CONTENT)

    path = str(tmp_path / "creds")

    found = credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": path})

    assert found == VALUES


@pytest.mark.parametrize("value", [None, "", "  \n"], ids=["unset", "empty", "blank"])
def test_no_credentials_when_the_variable_is_unset_or_blank(value: str | None) -> None:
    environ = {} if value is None else {"WADLCLIENT_CREDENTIALS": value}

    assert credentials_from_environment(environ=environ) is None


def test_a_missing_file_is_one_line_naming_the_path_and_the_variable(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"

    with pytest.raises(CredentialsFileError) as caught:
        credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": str(missing)})

    assert str(caught.value) == (
        f"cannot read credentials file {missing} (named by $WADLCLIENT_CREDENTIALS): "
        "No such file or directory"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (CONTENT.replace("access_token = tok\n", ""),
         "malformed credentials file in $WADLCLIENT_CREDENTIALS: no access_token in section [1]"),
        ("consumer_key = kitchen\naccess_secret = toksecret\n",
         "$WADLCLIENT_CREDENTIALS holds neither a credentials file's content (it starts with [1]) "
         "nor a file's path"),
    ],
    ids=["a-key-missing", "no-section"],
)  # fmt: skip
def test_malformed_content_is_one_line_that_never_quotes_a_secret(
    value: str, message: str
) -> None:
    with pytest.raises(CredentialsFileError) as caught:
        credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": value})

    assert str(caught.value) == message
    assert "toksecret" not in str(caught.value)


def test_an_authorizer_from_the_variable_reads_a_private_recipe(
    cookbook_service_factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service: RunningService = cookbook_service_factory(auth="oauth")
    service.add_consumer("kitchen", "")
    service.add_token("kitchen", "tok", "toksecret")
    monkeypatch.setenv("WADLCLIENT_CREDENTIALS", CONTENT)

    authorizer = OAuthAuthorizer.from_environment()
    root = ServiceRoot(authorizer, service.base_url)

    assert root.recipes[str(PRIVATE_RECIPE_ID)].private is True
    assert "toksecret" not in repr(authorizer)


def test_no_authorizer_when_the_variable_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WADLCLIENT_CREDENTIALS", raising=False)

    assert OAuthAuthorizer.from_environment() is None


@pytest.mark.timeout(30)
def test_a_token_the_service_refuses_is_one_error_naming_the_variable_and_what_to_do(
    cookbook_service_factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service: RunningService = cookbook_service_factory(auth="oauth")
    service.add_consumer("pantry", "")  # no token was ever issued to it (or all were revoked)
    service.reset()
    monkeypatch.setenv("WADLCLIENT_CREDENTIALS", CONTENT.replace("kitchen", "pantry"))
    monkeypatch.delenv("HOME", raising=False)  # as in a container: no home, nobody to ask

    with pytest.raises(CredentialsRefused) as caught:
        ServiceRoot(OAuthAuthorizer.from_environment(), service.base_url)

    assert str(caught.value) == (
        f"the service refused the OAuth credentials in $WADLCLIENT_CREDENTIALS "
        f"({service.url()} answered 401: Unauthorized: unknown token for consumer 'pantry'): "
        "the token has expired, was revoked or was never issued there; make new credentials "
        "and put them in $WADLCLIENT_CREDENTIALS (see 'Credentials in CI' in wadlclient's docs)"
    )
    assert {entry.status for entry in service.journal.entries()} == {401}
    assert len(service.journal.entries()) <= 2  # the WADL and the root's JSON, each once


def test_a_server_echoing_a_secret_in_its_refusal_is_not_quoted() -> None:
    # No server at hand echoes a PLAINTEXT signature; the 401 is built here.
    authorizer = OAuthAuthorizer("kitchen", "", AccessToken("tok", "toksecret"))
    answer = Response(401, "Unauthorized", Headers({"content-type": "text/plain"}),
                      b"bad signature &toksecret", url="http://127.0.0.1:9/1.0/")  # fmt: skip

    refusal = Unauthorized(answer, answer.content)

    error = credentials_refused("$WADLCLIENT_CREDENTIALS", authorizer, refusal)

    assert "toksecret" not in str(error)
    assert "(http://127.0.0.1:9/1.0/ answered 401)" in str(error)
