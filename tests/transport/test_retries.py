"""429, 502, 503 and 504 are retried with exponential backoff, honouring Retry-After."""

from __future__ import annotations

import email.utils
import time

import pytest

from wadlclient.errors import ServerError
from wadlclient.http import Retry


@pytest.mark.parametrize("code", [429, 502, 503, 504])
def test_a_busy_server_is_retried_until_it_answers(scripted, make_transport, code):
    transport = make_transport()

    response = transport.request("GET", scripted.url + f"/flaky/busy{code}?fail=3&code={code}")

    assert response.json() == {"tries": 4}
    assert len(scripted.requests()) == 4


def test_backoff_sleeps_0_1_2_4_seconds_like_lazr(scripted, make_transport, sleeps):
    transport = make_transport()

    transport.request("GET", scripted.url + "/flaky/backoff?fail=4")

    assert sleeps.delays == [0, 1, 2, 4]


def test_retries_stop_after_max_retries_and_the_error_is_raised(
    scripted, make_transport, sleeps
):
    transport = make_transport(max_retries=2)

    with pytest.raises(ServerError, match="HTTP Error 503: Service Unavailable"):
        transport.request("GET", scripted.url + "/flaky/giveup?fail=10")

    assert len(scripted.requests()) == 3
    assert sleeps.delays == [0, 1]


def test_the_error_after_the_last_retry_says_how_many_attempts_over_how_long(
    scripted, make_transport
):
    transport = make_transport(max_retries=2)

    with pytest.raises(ServerError) as caught:
        transport.request("GET", scripted.url + "/flaky/count?fail=10")

    assert caught.value.attempts == 3
    assert caught.value.elapsed >= 0
    assert str(caught.value).startswith("HTTP Error 503: Service Unavailable (GET ")
    assert str(caught.value).endswith(" s; no retry left of 2]")
    assert "[3 attempts over " in str(caught.value)


def test_max_retries_zero_sends_once(scripted, make_transport):
    transport = make_transport(max_retries=0)

    with pytest.raises(ServerError):
        transport.request("GET", scripted.url + "/flaky/once?fail=1")

    assert len(scripted.requests()) == 1


def test_backoff_is_capped(scripted, make_transport, sleeps):
    transport = make_transport(max_backoff=3.0)

    transport.request("GET", scripted.url + "/flaky/capped?fail=5")

    assert sleeps.delays == [0, 1, 2, 3, 3]


def test_retry_after_in_seconds_replaces_the_backoff(scripted, make_transport, sleeps):
    transport = make_transport()

    transport.request("GET", scripted.url + "/flaky/after?fail=2&retry_after=7")

    assert sleeps.delays == [7, 7]


def test_retry_after_as_an_http_date_is_honoured(scripted, make_transport, sleeps):
    when = email.utils.formatdate(time.time() + 20, usegmt=True)
    transport = make_transport()

    transport.request("GET", scripted.url + "/flaky/date?fail=1&retry_after=" + when)

    (delay,) = sleeps.delays
    assert 17 <= delay <= 20


def test_retry_after_is_capped(scripted, make_transport, sleeps):
    transport = make_transport(max_retry_after=5.0)

    transport.request("GET", scripted.url + "/flaky/long?fail=1&retry_after=3600")

    assert sleeps.delays == [5.0]


def test_an_unreadable_retry_after_falls_back_to_backoff(scripted, make_transport, sleeps):
    transport = make_transport()

    transport.request("GET", scripted.url + "/flaky/junk?fail=2&retry_after=soon")

    assert sleeps.delays == [0, 1]


def test_a_post_answered_503_is_retried_when_the_caller_opts_in(scripted, make_transport):
    transport = make_transport(retry_methods={"GET", "POST"})

    transport.request("POST", scripted.url + "/flaky/post?fail=1", body=b"x=1")

    assert [s.method for s in scripted.requests()] == ["POST", "POST"]
    assert [s.body for s in scripted.requests()] == [b"x=1", b"x=1"]


def test_a_negative_max_retries_is_refused(make_transport):
    with pytest.raises(ValueError, match="max_retries must be zero or more"):
        make_transport(max_retries=-1)


def test_a_smaller_backoff_base_scales_every_wait(scripted, make_transport, sleeps):
    transport = make_transport(retry=Retry(backoff_base=0.1, jitter=lambda backoff: backoff))

    transport.request("GET", scripted.url + "/flaky/base?fail=4")

    assert sleeps.delays == pytest.approx([0, 0.1, 0.2, 0.4])
