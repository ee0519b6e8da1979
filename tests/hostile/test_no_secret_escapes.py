"""No secret in a log line at DEBUG, a repr, an error or a file written, whatever the session.

Real sessions against the cookbook service, with OAuth (PLAINTEXT and
HMAC-SHA1) and Basic credentials, a cache directory, a recording, a
password-protected Redis, a proxy with a user and password, and the
errors a wrong credential, an unreachable proxy and a wrong Redis password
give. Every secret is a distinct string: each is searched for in every log
record (with its traceback), every repr and error text gathered, and every
file under the test's directory.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.server import HostileServer

from cookbook_service.seed import PRIVATE_RECIPE_ID
from cookbook_service.testing import RunningService
from wadlclient import (
    AccessToken,
    BasicHttpAuthorizer,
    OAuthAuthorizer,
    RestfulError,
    ServiceRoot,
)
from wadlclient.auth import SIGNATURE_HMAC_SHA1
from wadlclient.cache import HTTPCache
from wadlclient.http import Transport
from wadlclient.objects import session_of
from wadlclient.testing.record import recorded_root

CONSUMER_SECRET = "CONSUMER-s3cret-1"
TOKEN_KEY = "TOKEN-key-0001"
TOKEN_SECRET = "TOKEN-s3cret-2"
BASIC_PASSWORD = "BASIC-pa55word-3"
REDIS_PASSWORD = "REDIS-pa55-4"
PROXY_PASSWORD = "PROXY-pa55-5"
SECRETS = (CONSUMER_SECRET, TOKEN_SECRET, BASIC_PASSWORD, REDIS_PASSWORD, PROXY_PASSWORD)


class Seen:
    """Everything a session showed: reprs, errors (with their whole tracebacks)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def repr(self, *objects: Any) -> None:
        self.texts += [repr(thing) for thing in objects] + [str(thing) for thing in objects]

    def error(self, error: BaseException) -> None:
        self.texts.append("".join(traceback.format_exception(error)))
        self.repr(error)

    def escaped(self, caplog: pytest.LogCaptureFixture, directory: Path) -> list[str]:
        """The secrets found anywhere: logs, texts, files (by name and content)."""
        files = [path for path in directory.rglob("*") if path.is_file()]
        places = [*self.texts, caplog.text, *(r.getMessage() for r in caplog.records)]
        places += [str(path) for path in files]
        places += [path.read_bytes().decode("latin-1") for path in files]
        return [secret for secret in SECRETS if any(secret in place for place in places)]


@pytest.fixture
def seen(caplog: pytest.LogCaptureFixture) -> Iterator[Seen]:
    caplog.set_level(logging.DEBUG)
    yield Seen()


def walk(root: ServiceRoot, seen: Seen) -> None:
    """Read the private recipe and a page, write one, and show every object's repr."""
    recipe = root.recipes[str(PRIVATE_RECIPE_ID)]
    page = root.recipes[:3]
    recipe.instructions = recipe.instructions + " Serve."
    recipe.lp_save()
    session = session_of(root)
    seen.repr(root, root.recipes, recipe, page[0], recipe.dish, session, session.transport)
    seen.repr(*_parts(session), *_parts(session.transport))


def _parts(thing: object) -> list[Any]:
    """The attributes of ``thing`` (a named tuple's fields, or an object's ``__dict__``)."""
    if isinstance(thing, tuple):
        return list(thing)
    return list(getattr(thing, "__dict__", {}).values())


def test_oauth_and_basic_sessions_with_a_cache_and_a_recording_show_no_secret(
    cookbook_service_factory: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, seen: Seen
) -> None:
    oauth: RunningService = cookbook_service_factory(auth="oauth")
    oauth.add_consumer("kitchen", CONSUMER_SECRET)
    oauth.add_token("kitchen", TOKEN_KEY, TOKEN_SECRET)
    basic: RunningService = cookbook_service_factory(auth="basic")
    basic.add_user("alice", BASIC_PASSWORD)
    plaintext = OAuthAuthorizer("kitchen", CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET))
    hmac = OAuthAuthorizer("kitchen", CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET),
                           signature_method=SIGNATURE_HMAC_SHA1)  # fmt: skip
    with_user = basic.base_url.replace("http://", f"http://alice:{BASIC_PASSWORD}@")
    sessions = [
        (plaintext, oauth.base_url), (hmac, oauth.base_url),
        (BasicHttpAuthorizer("alice", BASIC_PASSWORD), basic.base_url), (None, with_user),
    ]  # fmt: skip

    for number, (authorizer, url) in enumerate(sessions):
        with ServiceRoot(authorizer, url, cache=tmp_path / f"cache-{number}") as root:
            walk(root, seen)
        seen.repr(authorizer)
    with recorded_root(tmp_path / "recorded" / "session.json", plaintext, oauth.base_url) as root:
        walk(root, seen)

    assert seen.escaped(caplog, tmp_path) == []
    assert len(list(tmp_path.rglob("*"))) > 10  # caches and a recording were written


def test_refused_credentials_show_no_secret(
    cookbook_service_factory: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, seen: Seen
) -> None:
    oauth: RunningService = cookbook_service_factory(auth="oauth")
    oauth.add_consumer("kitchen", "")
    basic: RunningService = cookbook_service_factory(auth="basic")
    basic.add_user("alice", "another")
    wrong = [
        (OAuthAuthorizer("kitchen", CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET)),
         oauth.base_url),
        (BasicHttpAuthorizer("alice", BASIC_PASSWORD), basic.base_url),
    ]  # fmt: skip

    for authorizer, url in wrong:
        with pytest.raises(RestfulError) as refused:
            ServiceRoot(authorizer, url, cache=tmp_path / "cache")
        seen.error(refused.value)

    assert seen.escaped(caplog, tmp_path) == []


@pytest.fixture
def redis_with_password() -> Iterator[str]:
    """A redis-server of this test's own that asks for a password; its URL with the password."""
    import redis
    from benchmarks.redis_server import RedisUnavailable, redis_server

    try:
        server = redis_server()
        running = server.__enter__()
    except RedisUnavailable as error:
        pytest.skip(f"no Redis server for the Redis password test: {error}")
    try:
        with redis.Redis.from_url(running.url) as client:
            client.config_set("requirepass", REDIS_PASSWORD)
        yield running.url.replace("redis://", f"redis://:{REDIS_PASSWORD}@")
    finally:
        server.__exit__(None, None, None)


def test_a_redis_cache_with_a_password_shows_no_secret(
    cookbook_service_factory: Any,
    redis_with_password: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    seen: Seen,
) -> None:
    basic: RunningService = cookbook_service_factory(auth="basic")
    basic.add_user("alice", BASIC_PASSWORD)
    authorizer = BasicHttpAuthorizer("alice", BASIC_PASSWORD)
    wrong_password = redis_with_password.replace(REDIS_PASSWORD, REDIS_PASSWORD[::-1] + "x")
    bad_port = redis_with_password.replace(redis_with_password.rsplit(":", 1)[1], "99999/0")

    for cache in (redis_with_password, redis_with_password, wrong_password):
        with ServiceRoot(authorizer, basic.base_url, cache=cache) as root:
            walk(root, seen)
    with pytest.raises(ValueError) as refused:
        ServiceRoot(authorizer, basic.base_url, cache=bad_port)
    seen.error(refused.value)

    assert seen.escaped(caplog, tmp_path) == []
    assert any("unavailable" in record.getMessage() for record in caplog.records)  # the wrong one
    import redis

    with redis.Redis.from_url(redis_with_password) as client:
        assert client.dbsize() > 0  # the sessions did cache there


def test_a_proxy_with_a_password_shows_no_secret(
    cookbook_service_factory: Any,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    seen: Seen,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service: RunningService = cookbook_service_factory()
    for name in ("HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://bob:{PROXY_PASSWORD}@127.0.0.1:9")  # nobody there

    with pytest.raises(RestfulError) as failed:
        ServiceRoot(None, service.base_url, cache=tmp_path / "cache", max_retries=0)
    seen.error(failed.value)

    assert seen.escaped(caplog, tmp_path) == []
    assert "Connection refused" in str(failed.value)  # the service is up: the proxy refused


QUERY_SECRET = "QUERY-s3cret-6"


def test_a_secret_in_a_url_is_hidden_in_debug_lines_errors_and_reprs(
    hostile: HostileServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, seen: Seen
) -> None:
    blob = f"{hostile.url}/blob?ws.op=fetch&token={QUERY_SECRET}"
    hostile.routes["/blob"] = lambda exchange: exchange.json({"ok": True})
    hostile.routes["/go"] = lambda exchange: exchange.send(302, b"", [("Location", blob)])
    hostile.routes["/busy"] = lambda exchange: exchange.send(503, b"busy")
    with Transport(max_retries=1, sleep=lambda seconds: None) as transport:
        seen.repr(transport.request("GET", f"{hostile.url}/go?access_token={QUERY_SECRET}"))
        refused = f"http://ada:{QUERY_SECRET}@127.0.0.1:9/x?Password={QUERY_SECRET}"  # nobody there
        for url in (f"{hostile.url}/missing?api_key={QUERY_SECRET}&page=2", refused,
                    f"{hostile.url}/busy?x-api-key={QUERY_SECRET}"):  # fmt: skip
            with pytest.raises(RestfulError) as failed:
                transport.request("GET", url)
            seen.error(failed.value)

    assert [s for s in (*SECRETS, QUERY_SECRET) if s in "\n".join(seen.texts) + caplog.text] == []
    lines = "\n".join(record.getMessage() for record in caplog.records)
    for shown in (
        f"GET {hostile.url}/go?access_token=<hidden> -> 302 redirect to "
        f"{hostile.url}/blob?ws.op=fetch&token=<hidden>",
        f"GET {hostile.url}/blob?ws.op=fetch&token=<hidden> -> 200 (cache: none)",
        f"GET {hostile.url}/busy?x-api-key=<hidden> -> 503; retry 1 of 1",
    ):
        assert shown in lines
    errors = "\n".join(seen.texts)
    assert f"(GET {hostile.url}/missing?api_key=<hidden>&page=2)" in errors
    assert "GET http://ada:<hidden>@127.0.0.1:9/x?Password=<hidden>: could not connect" in errors


def test_a_secret_in_a_url_is_in_no_cache_file_name_or_cache_debug_line(
    hostile: HostileServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, seen: Seen
) -> None:
    hostile.routes["/blob"] = lambda exchange: exchange.send(
        200, b"{}", [("Content-Type", "application/json"), ("Cache-Control", "max-age=60")]
    )
    url = f"{hostile.url}/blob?ws.op=fetch&token={QUERY_SECRET}"
    with Transport(cache=HTTPCache(tmp_path / "cache")) as transport:
        transport.request("GET", url)
        transport.request("GET", url)  # from the cache

    files = [path for path in (tmp_path / "cache").rglob("*") if path.is_file()]
    lines = "\n".join(record.getMessage() for record in caplog.records)
    assert "cache hit" in lines and len(files) == 1
    assert QUERY_SECRET not in lines + "\n".join(path.name for path in files)
