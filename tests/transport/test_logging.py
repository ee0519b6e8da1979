"""One log line per exchange on ``wadlclient.http``; never a credential or a body."""

from __future__ import annotations

import logging
import re

import pytest

from wadlclient.errors import NotFound

LOGGER = "wadlclient.http"


_TOOK = re.compile(r" in \d+\.\d{3} s$")


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The log lines, each exchange's time (`` in 0.004 s``) left out."""
    return [_TOOK.sub("", r.getMessage()) for r in caplog.records if r.name == LOGGER]


def test_an_exchange_line_says_how_long_the_call_took(scripted, make_transport, caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    transport = make_transport()
    url = scripted.url + "/slow?seconds=0.2"

    transport.request("GET", url)

    [line] = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    took = re.fullmatch(rf"GET {re.escape(url)} -> 200 \(cache: none\) in (\d+\.\d{{3}}) s", line)
    assert took is not None, line
    assert 0.2 <= float(took.group(1)) < 30


def test_an_exchange_is_logged_with_method_url_status_and_cache(
    scripted, make_transport, caplog
):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    transport = make_transport()
    url = scripted.url + "/echo"

    transport.request("GET", url)

    assert _messages(caplog) == [f"GET {url} -> 200 (cache: none)"]


def test_an_error_exchange_is_logged_before_it_is_raised(scripted, make_transport, caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    transport = make_transport()
    url = scripted.url + "/status/404"

    with pytest.raises(NotFound):
        transport.request("DELETE", url)

    assert _messages(caplog) == [f"DELETE {url} -> 404 (cache: none)"]


def test_retries_are_logged_at_warning(scripted, make_transport, caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    transport = make_transport()
    url = scripted.url + "/flaky/logged?fail=1"

    transport.request("GET", url)

    assert _messages(caplog) == [f"GET {url} -> 503; retry 1 of 6 in 0.0 s"]


def test_redirects_are_logged(scripted, make_transport, caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    transport = make_transport()

    transport.request("GET", scripted.url + "/chain/1")

    assert _messages(caplog) == [
        f"GET {scripted.url}/chain/1 -> 302 redirect to {scripted.url}/echo",
        f"GET {scripted.url}/echo -> 200 (cache: none)",
    ]


def test_no_log_line_holds_the_authorization_value_or_the_body(
    scripted, make_transport, recording_authorizer, caplog
):
    caplog.set_level(logging.DEBUG)
    transport = make_transport(authorizer=recording_authorizer, retry_methods={"POST"})

    transport.request(
        "POST",
        scripted.url + "/flaky/secret?fail=1",
        body=b"password=hunter2",
        content_type="application/x-www-form-urlencoded",
    )
    transport.request("GET", scripted.url + "/chain/2")

    assert caplog.records
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "sekrit" not in text
    assert "hunter2" not in text
