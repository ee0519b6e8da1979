"""OAuth credentials from $WADLCLIENT_CREDENTIALS: a credentials file's content, or its path."""

from __future__ import annotations

import logging
import os
import threading
import tracemalloc
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


def test_a_missing_file_is_one_line_naming_the_variable_but_not_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"

    with pytest.raises(CredentialsFileError) as caught:
        credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": str(missing)})

    assert str(caught.value) == (
        "cannot read credentials file named by $WADLCLIENT_CREDENTIALS: No such file or directory"
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
    # The line is dropped; or, once the client has sent that secret, shown with it hidden.
    assert "(http://127.0.0.1:9/1.0/ answered 401" in str(error)


# -- content whatever its line breaks, and never quoted ----------------------------------

SECRETS = ("S3CRET-consumer", "T0KSECRET-token")
FULL = (
    "[1]\nconsumer_key = kitchen\nconsumer_secret = S3CRET-consumer\n"
    "access_token = tok\naccess_secret = T0KSECRET-token\n"
)
FULL_VALUES = {
    "consumer_key": "kitchen",
    "consumer_secret": "S3CRET-consumer",
    "access_token": "tok",
    "access_secret": "T0KSECRET-token",
}


@pytest.mark.parametrize(
    "value",
    [
        FULL,
        FULL.replace("\n", "\r\n"),
        FULL.replace("\n", " "),  # a CI secret store, or an unquoted $(cat file)
        FULL.replace("\n", "\\n"),  # the line breaks written as escapes
        "  " + FULL.replace("\n", "  ").replace(" = ", "="),
    ],
    ids=["lines", "crlf", "one-line", "escaped", "one-line-tight"],
)
def test_the_content_is_read_whatever_became_of_its_line_breaks(value: str) -> None:
    assert credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": value}) == FULL_VALUES


def test_an_empty_consumer_secret_survives_the_one_line_form() -> None:
    one_line = CONTENT.replace("\n", " ")

    assert credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": one_line}) == VALUES


@pytest.mark.parametrize(
    "value",
    [
        FULL.replace("[1]", "[2]"),
        FULL.replace("[1]\n", ""),
        FULL.replace("[1]\n", "").replace("\n", " "),
        FULL.replace("access_token = tok\n", "").replace("\n", " "),
        "[1] S3CRET-consumer T0KSECRET-token",
        "S3CRET-consumer\nT0KSECRET-token",
        "T0KSECRET-token",  # a bare secret, in the variable by mistake
        "consumer_secret=S3CRET-consumer access_secret=T0KSECRET-token",
    ],
    ids=[
        "wrong-section", "no-section", "no-section-one-line", "a-key-missing-one-line",
        "no-keys", "two-lines", "a-bare-secret", "pairs-only",
    ],
)  # fmt: skip
def test_what_is_not_credentials_is_refused_in_one_line_quoting_none_of_it(value: str) -> None:
    with pytest.raises(CredentialsFileError) as caught:
        credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": value})

    message = str(caught.value)
    assert "$WADLCLIENT_CREDENTIALS" in message and "\n" not in message
    assert not any(secret in message for secret in SECRETS)
    error = caught.value  # nor does a traceback show an error it came from
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)


def test_variables_in_a_path_are_not_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "creds").write_text(FULL)
    (tmp_path / "creds").chmod(0o600)
    monkeypatch.setenv("CREDS_DIR", str(tmp_path))

    with pytest.raises(CredentialsFileError) as caught:
        credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": "$CREDS_DIR/creds"})

    assert str(caught.value).endswith("No such file or directory")
    assert str(tmp_path) not in str(caught.value) and "CREDS_DIR" not in str(caught.value)


def test_a_home_relative_path_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "creds").write_text(FULL)
    (tmp_path / "creds").chmod(0o600)
    monkeypatch.setenv("HOME", str(tmp_path))

    found = credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": "~/creds"})

    assert found == FULL_VALUES


def test_an_authorizer_from_one_line_content_reads_a_private_recipe(
    cookbook_service_factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service: RunningService = cookbook_service_factory(auth="oauth")
    service.add_consumer("kitchen", "S3CRET-consumer")
    service.add_token("kitchen", "tok", "T0KSECRET-token")
    monkeypatch.setenv("WADLCLIENT_CREDENTIALS", FULL.replace("\n", " "))

    root = ServiceRoot(OAuthAuthorizer.from_environment(), service.base_url)

    assert root.recipes[str(PRIVATE_RECIPE_ID)].private is True
    assert {entry.status for entry in service.journal.entries()} == {200}


# -- a path that is not a small regular file -------------------------------------------


def read_with_a_guard(path: str, fifo: Path | None = None) -> BaseException | None:
    """The error reading ``path`` from the variable raises, in a thread given 10 s.

    A read that blocks (a FIFO opened for reading waits for a writer) fails
    the test instead of hanging it; the writer end is then opened to free it.
    """
    caught: list[BaseException] = []

    def read() -> None:
        try:
            credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": path})
        except BaseException as error:  # handed to the test, whatever it is
            caught.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():
        if fifo is not None:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"reading {path} blocked for 10 s")
    return caught[0] if caught else None


def test_a_fifo_is_refused_at_once_in_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "creds"
    os.mkfifo(fifo)

    error = read_with_a_guard(str(fifo), fifo)

    assert isinstance(error, CredentialsFileError)
    assert str(error) == (
        "cannot read credentials file named by $WADLCLIENT_CREDENTIALS: "
        "it is a FIFO, not a regular file"
    )


@pytest.mark.parametrize(
    ("path", "kind"), [("/dev/zero", "a character device"), ("/", "a directory")]
)
def test_a_device_or_a_directory_is_refused_without_reading_it(path: str, kind: str) -> None:
    error = read_with_a_guard(path)

    assert isinstance(error, CredentialsFileError)
    assert str(error).endswith(f": it is {kind}, not a regular file")


@pytest.mark.usefixtures("python_gc_thresholds")
def test_a_huge_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    huge = tmp_path / "creds"
    with huge.open("wb") as out:
        out.truncate(8 << 30)  # 8 GiB, sparse: reading it whole would exhaust memory
    tracemalloc.start()
    try:
        error = read_with_a_guard(str(huge))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert isinstance(error, CredentialsFileError)
    assert str(error).endswith(f"it holds {8 << 30} bytes, more than any credentials file")
    assert peak < 1 << 20


def test_a_file_others_may_read_is_read_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    creds = tmp_path / "creds"
    creds.write_text(FULL)
    creds.chmod(0o644)

    with caplog.at_level(logging.WARNING, logger="wadlclient.auth"):
        found = credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": str(creds)})

    assert found == FULL_VALUES
    assert [record.getMessage() for record in caplog.records] == [
        "credentials file named by $WADLCLIENT_CREDENTIALS may be read by other users "
        "(mode 644): make it private (chmod 600)"
    ]


def test_a_private_file_is_read_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    creds = tmp_path / "creds"
    creds.write_text(FULL)
    creds.chmod(0o600)

    with caplog.at_level(logging.WARNING, logger="wadlclient.auth"):
        found = credentials_from_environment(environ={"WADLCLIENT_CREDENTIALS": str(creds)})

    assert found == FULL_VALUES
    assert caplog.records == []
