"""lazr.restfulclient's errors, authorizers, JSON encoder and file cache, from the compat layer."""

from __future__ import annotations

import datetime
import json
import os
import socket
from pathlib import Path

import pytest

import wadlclient.errors
from wadlclient.cache import HTTPCache
from wadlclient.lazr.restfulclient import errors
from wadlclient.lazr.restfulclient._browser import AtomicFileCache, MultipleRepresentationCache
from wadlclient.lazr.restfulclient._json import DatetimeJSONEncoder
from wadlclient.lazr.restfulclient.authorize import BasicHttpAuthorizer, HttpAuthorizer
from wadlclient.lazr.restfulclient.authorize.oauth import (
    AccessToken,
    OAuthAuthorizer,
    SystemWideConsumer,
)


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (400, errors.BadRequest),
        (401, errors.Unauthorized),
        (404, errors.NotFound),
        (405, errors.MethodNotAllowed),
        (409, errors.Conflict),
        (412, errors.PreconditionFailed),
        (410, errors.ClientError),
        (418, errors.ClientError),
        (500, errors.ServerError),
        (503, errors.ServerError),
    ],
)
def test_error_for_picks_lazrs_class_for_each_status(
    status: int, expected: type[errors.HTTPError]
) -> None:
    error = errors.error_for(errors.LazrResponse(status), b"body")
    assert type(error) is expected
    assert isinstance(error, errors.ResponseError)
    assert isinstance(error, wadlclient.errors.HTTPError)


@pytest.mark.parametrize("status", [200, 201, 301, 304])
def test_error_for_is_none_below_400(status: int) -> None:
    assert errors.error_for(errors.LazrResponse(status), b"") is None


def test_http_error_str_shows_status_headers_and_body_as_lazr_does() -> None:
    response = errors.LazrResponse(404, "Not Found", {"Content-Type": "text/plain", "X-A": "1"})
    error = errors.NotFound(response, b"no such bug")
    assert str(error) == (
        "HTTP Error 404: Not Found\n"
        "Response headers:\n---\ncontent-type: text/plain\nx-a: 1\n---\n"
        "Response body:\n---\nb'no such bug'\n---\n"
    )
    assert (error.response.status, error.content) == (404, b"no such bug")


def test_unexpected_response_error_is_a_response_error_not_an_http_error() -> None:
    error = errors.UnexpectedResponseError(errors.LazrResponse(302, "Found"), b"")
    assert str(error) == "302: Found"
    assert isinstance(error, errors.ResponseError)
    assert not isinstance(error, errors.HTTPError)


def test_credentials_errors_keep_lazrs_hierarchy() -> None:
    assert issubclass(errors.CredentialsFileError, errors.CredentialsError)
    assert issubclass(errors.CredentialsError, errors.RestfulError)
    assert issubclass(errors.CredentialsFileError, wadlclient.errors.CredentialsFileError)


def test_datetime_json_encoder_writes_iso_8601() -> None:
    moment = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    assert json.dumps({"at": moment}, cls=DatetimeJSONEncoder) == (
        '{"at": "2026-01-02T03:04:05+00:00"}'
    )
    with pytest.raises(TypeError):
        json.dumps({"x": object()}, cls=DatetimeJSONEncoder)


def test_system_wide_consumer_key_names_the_platform_and_the_host() -> None:
    consumer = SystemWideConsumer("my app")
    assert SystemWideConsumer.KEY_FORMAT == "System-wide: %s (%s)"
    assert consumer.key.startswith("System-wide: ")
    assert consumer.key.endswith(f" ({socket.gethostname()})")
    assert consumer.key == consumer.consumer_key
    assert consumer.application_name == "my app"


def test_oauth_authorizer_signs_with_plaintext() -> None:
    authorizer = OAuthAuthorizer("consumer", access_token=AccessToken("key", "secret"))
    headers: dict[str, str] = {}
    authorizer.authorizeRequest("http://127.0.0.1/1.0/", "GET", None, headers)
    value = headers["Authorization"]
    assert value.startswith('OAuth realm="OAuth"')
    assert 'oauth_token="key"' in value
    assert 'oauth_signature="%26secret"' in value
    assert authorizer.user_agent_params == {"oauth_consumer": "consumer"}


def test_access_token_str_is_its_wire_form_and_parsing_needs_both_parts() -> None:
    token = AccessToken("key", "secret")
    assert str(token) == "oauth_token_secret=secret&oauth_token=key"
    assert AccessToken.from_string(str(token)) == token
    with pytest.raises(KeyError):
        AccessToken.from_string("oauth_token=key")


def test_basic_and_null_authorizers() -> None:
    headers: dict[str, str] = {}
    BasicHttpAuthorizer("ada", "pw").authorizeRequest("http://h/", "GET", None, headers)
    # lazr writes the key in lower case; programs read it back that way.
    assert headers == {"authorization": "Basic YWRhOnB3"}
    untouched: dict[str, str] = {}
    HttpAuthorizer().authorizeRequest("http://h/", "GET", None, untouched)
    assert untouched == {}


def test_atomic_file_cache_round_trips_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    cache = AtomicFileCache(str(tmp_path / "cache"))
    assert cache.get("http://h/x") is None
    cache.set("http://h/x", b"value")
    assert cache.get("http://h/x") == b"value"
    cache.delete("http://h/x")
    cache.delete("http://h/x")
    assert cache.get("http://h/x") is None
    assert os.listdir(tmp_path / "cache") == []


def test_atomic_file_cache_uses_wadlclients_file_names(tmp_path: Path) -> None:
    url, media_type = "http://127.0.0.1:8080/1.0/", "application/vnd.sun.wadl+xml"
    cache = MultipleRepresentationCache(str(tmp_path))
    cache.request_media_type = media_type
    cache.set(url, b"stored")
    assert os.listdir(tmp_path) == [HTTPCache(tmp_path).filename(url, media_type)]
