"""Finding 4: retries for idempotent methods only (by default), full jitter, within the deadline."""

from __future__ import annotations

import logging
import time

import pytest
from tests.hostile.server import HostileServer

from wadlclient.errors import ServerError
from wadlclient.http import Transport


def _always_503(hostile: HostileServer, retry_after: str | None = None) -> None:
    headers = [("Retry-After", retry_after)] if retry_after is not None else []
    hostile.routes["/busy"] = lambda ex: ex.send(503, b"busy", headers)


class _Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.mark.parametrize("method", ["POST", "PATCH"])
def test_a_post_or_patch_answered_503_is_sent_once_by_default(
    hostile: HostileServer, method: str
) -> None:
    _always_503(hostile)
    with Transport(sleep=_Sleeps()) as transport, pytest.raises(ServerError):
        transport.request(method, hostile.url + "/busy", body=b"{}")

    assert hostile.count("/busy") == 1


def test_post_is_retried_when_the_caller_opts_in(hostile: HostileServer) -> None:
    _always_503(hostile)
    transport = Transport(sleep=_Sleeps(), max_retries=2, retry_methods={"POST"})
    with transport, pytest.raises(ServerError):
        transport.request("POST", hostile.url + "/busy", body=b"{}")

    assert hostile.count("/busy") == 3


def test_the_backoff_is_exponential_with_full_jitter(hostile: HostileServer) -> None:
    _always_503(hostile)
    sleeps = _Sleeps()
    with Transport(sleep=sleeps, max_retries=6) as transport, pytest.raises(ServerError):
        transport.request("GET", hostile.url + "/busy")

    ceilings = [0, 1, 2, 4, 8, 16]
    assert len(sleeps) == 6
    assert all(0 <= slept <= ceiling for slept, ceiling in zip(sleeps, ceilings, strict=True))
    assert sleeps != ceilings  # drawn below each ceiling, not the ceiling itself


def test_a_retry_after_beyond_the_deadline_is_not_waited_for(hostile: HostileServer) -> None:
    _always_503(hostile, retry_after="100000")
    sleeps = _Sleeps()

    started = time.monotonic()
    with Transport(sleep=sleeps, max_retry_after=1e9) as transport, pytest.raises(ServerError):
        transport.request("GET", hostile.url + "/busy")

    assert sleeps == []
    assert hostile.count("/busy") == 1
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("retry_after", ["\u00b2", "1\u00b3", "\u00b9 0", "-1", "1.5", "soon"])
def test_a_malformed_retry_after_counts_as_absent(hostile: HostileServer, retry_after: str) -> None:
    _always_503(hostile, retry_after=retry_after)  # "²": str.isdigit() says yes, float() no
    sleeps = _Sleeps()
    with Transport(sleep=sleeps, max_retries=2) as transport, pytest.raises(ServerError):
        transport.request("GET", hostile.url + "/busy")

    assert hostile.count("/busy") == 3
    assert len(sleeps) == 2 and all(0 <= slept <= 1 for slept in sleeps)  # the backoff's


def test_each_retry_is_logged_at_warning_with_status_wait_and_attempt(
    hostile: HostileServer, caplog: pytest.LogCaptureFixture
) -> None:
    _always_503(hostile, retry_after="2")
    caplog.set_level(logging.WARNING, logger="wadlclient.http")
    with Transport(sleep=_Sleeps(), max_retries=2) as transport, pytest.raises(ServerError):
        transport.request("GET", hostile.url + "/busy")

    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert lines == [
        f"GET {hostile.url}/busy -> 503; retry 1 of 2 in 2.0 s",
        f"GET {hostile.url}/busy -> 503; retry 2 of 2 in 2.0 s",
    ]
