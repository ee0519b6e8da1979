"""Transport.begin: a request put on the wire now, its answer read later, as request() gives it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from wadlclient.cache import HTTPCache
from wadlclient.errors import NotFound
from wadlclient.http import Transport

from .conftest import ScriptedServer


def _seen_within(scripted: ScriptedServer, count: int, seconds: float = 5.0) -> bool:
    """Whether the server has received ``count`` requests (waiting up to ``seconds``)."""
    end = time.monotonic() + seconds
    while len(scripted.requests()) < count:
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


def test_begin_sends_at_once_and_result_gives_what_request_gives(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    transport = make_transport()

    pending = transport.begin("GET", scripted.url + "/echo")
    assert _seen_within(scripted, 1)  # on the wire before its answer is asked for

    response = pending.result()
    assert (response.status, response.json()["method"]) == (200, "GET")
    assert [seen.path for seen in scripted.requests()] == ["/echo"]


def test_an_error_status_is_raised_when_the_answer_is_read(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    pending = make_transport().begin("GET", scripted.url + "/status/404")

    with pytest.raises(NotFound):
        pending.result()


def test_a_first_attempt_answered_503_is_retried_when_read(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    pending = make_transport().begin("GET", scripted.url + "/flaky/begin?fail=2")

    assert pending.result().json() == {"tries": 3}
    assert len(scripted.requests()) == 3


def test_a_redirect_is_followed_when_the_answer_is_read(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    response = make_transport().begin("GET", scripted.url + "/chain/2").result()

    assert response.url == scripted.url + "/echo"


def test_a_fresh_cached_answer_sends_nothing(
    scripted: ScriptedServer, make_transport: Callable[..., Transport], tmp_path: Path
) -> None:
    transport = make_transport(cache=HTTPCache(tmp_path))
    url = scripted.url + "/etag/fresh?max_age=600"
    transport.request("GET", url)
    scripted.clear()

    response = transport.begin("GET", url).result()

    assert response.from_cache
    assert scripted.requests() == []


def test_a_discarded_answer_closes_its_connection_and_the_next_request_opens_another(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    transport = make_transport()
    transport.request("GET", scripted.url + "/echo")

    transport.begin("GET", scripted.url + "/echo").discard()
    transport.request("GET", scripted.url + "/echo")

    ports = [seen.client_port for seen in scripted.requests()]
    assert ports[0] == ports[1] != ports[2]


def test_an_answer_is_taken_once(
    scripted: ScriptedServer, make_transport: Callable[..., Transport]
) -> None:
    pending = make_transport().begin("GET", scripted.url + "/echo")
    pending.result()

    with pytest.raises(RuntimeError, match="already taken"):
        pending.result()
    pending.discard()  # harmless once taken
