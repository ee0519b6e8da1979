"""What lazr.restfulclient's own suite reads of its client, on wadlclient's compatibility layer.

Each rule here is one that lazr.restfulclient 4.1's tests and doctests
depend on (`tests.lazr.restfulclient_suite` runs them whole): the
``httplib2.debuglevel`` trace, ``_browser.sleep``, ``_wadl_resource``,
``HostedFileBuffer.write`` returning None, lazr's value types, its class
names and reprs, values checked by the server, the WADL fetched before
the root. The native API keeps its own behaviour, checked alongside.
"""

from __future__ import annotations

import datetime
import http.server
import json
import re
import threading
from collections.abc import Iterator
from decimal import Decimal

import httplib2
import pytest
from tests.client.conftest import settle
from tests.realservice.lazr_example import LazrExample

import wadlclient
from cookbook_service.testing import RunningService
from wadlclient.lazr.restfulclient import _browser, errors
from wadlclient.lazr.restfulclient.authorize import BasicHttpAuthorizer
from wadlclient.lazr.restfulclient.authorize.oauth import OAuthAuthorizer
from wadlclient.lazr.restfulclient.resource import ServiceRoot
from wadlclient.objects import session_of

SUN_WADL = "application/vnd.sun.wadl+xml"


def _root(service: RunningService) -> ServiceRoot:
    return ServiceRoot(None, service.base_url, version="1.0")


# -- httplib2.debuglevel ------------------------------------------------------


def test_httplib2_debuglevel_prints_each_exchange_as_httplib2_does(
    cookbook_service: RunningService,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(httplib2, "debuglevel", 1)

    root = _root(cookbook_service)

    lines = capsys.readouterr().out.splitlines()
    sends = [line for line in lines if line.startswith("send: ")]
    assert sends[0].startswith("send: b'GET /1.0/ HTTP/1.1\\r\\n")
    assert "Accept: application/vnd.sun.wadl+xml" in sends[0]
    assert [line for line in lines if line.startswith("reply: ")] == [
        "reply: 'HTTP/1.1 200 OK\\r\\n'"
    ] * 2
    # Header names as the server sent them (uvicorn: lower case).
    headers = [line.lower() for line in lines if line.startswith("header: ")]
    assert f"header: content-type: {SUN_WADL}" in headers
    assert "header: content-type: application/json" in headers

    assert root.cookbooks[0].name
    again = capsys.readouterr().out.splitlines()
    assert again[0].startswith("send: b'GET /1.0/cookbooks?")
    assert again[1] == "reply: 'HTTP/1.1 200 OK\\r\\n'"


def test_nothing_is_printed_while_httplib2_debuglevel_is_zero(
    cookbook_service: RunningService,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(httplib2, "debuglevel", 0)

    assert _root(cookbook_service).cookbooks[0].name

    assert capsys.readouterr().out == ""


def test_the_native_api_never_prints_a_trace(
    cookbook_service: RunningService,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(httplib2, "debuglevel", 1)

    with wadlclient.ServiceRoot(None, cookbook_service.base_url) as root:
        assert root.cookbooks[0].name

    assert capsys.readouterr().out == ""


# -- _browser.sleep -------------------------------------------------------------


class _Flaky(http.server.BaseHTTPRequestHandler):
    """Answers 503 to the first ``failures`` GETs, then a JSON object."""

    failures = 0

    def do_GET(self) -> None:
        server = self.server
        assert isinstance(server, _FlakyServer)
        server.seen += 1
        body, status = (b"busy", 503) if server.seen <= server.failures else (b"{}", 200)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _FlakyServer(http.server.ThreadingHTTPServer):
    def __init__(self, failures: int) -> None:
        super().__init__(("127.0.0.1", 0), _Flaky)
        self.failures = failures
        self.seen = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/busy"


@pytest.fixture
def busy_three_times() -> Iterator[_FlakyServer]:
    server = _FlakyServer(failures=3)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_the_retry_backoff_waits_through_browser_sleep_as_lazr_schedules_it(
    cookbook_service: RunningService,
    busy_three_times: _FlakyServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(_browser, "sleep", waits.append)
    transport = session_of(_root(cookbook_service)).transport

    answer = transport.request("GET", busy_three_times.url)

    assert answer.json() == {}
    assert busy_three_times.seen == 4
    assert waits == [0, 1, 2]
    assert all(type(wait) is int for wait in waits)


# -- _wadl_resource --------------------------------------------------------------


def test_entries_collections_and_the_root_have_lazrs_wadl_resource_url(
    cookbook_service: RunningService,
) -> None:
    root = _root(cookbook_service)
    recipe = root.recipes[0]

    assert root._wadl_resource.url == cookbook_service.url()
    assert root.load("")._wadl_resource.url == cookbook_service.url()
    assert root.recipes._wadl_resource.url == cookbook_service.url("recipes")
    assert recipe._wadl_resource.url == recipe.self_link
    assert root.load("recipes")._wadl_resource.url == cookbook_service.url("recipes")


def test_a_links_own_url_reads_by_its_json_key_as_in_lazr(
    cookbook_service: RunningService,
) -> None:
    """``task.bug_link``: real programs (ubuntu-bug-triage) read a link's URL this way."""
    from lazr.restfulclient.resource import ServiceRoot as StockServiceRoot

    ours = _root(cookbook_service).recipes[0]
    stock = StockServiceRoot(None, cookbook_service.base_url, version="1.0").recipes[0]

    assert ours.dish_link == stock.dish_link == cookbook_service.url("dishes/1")
    assert ours.dish_link == ours.dish.self_link
    with pytest.raises(AttributeError, match="dish_lnk"):
        ours.dish_lnk  # noqa: B018
    with pytest.raises(AttributeError):
        stock.dish_lnk  # noqa: B018


def test_loading_the_redacted_value_is_a_plain_value_error_as_in_lazr(
    cookbook_service: RunningService,
) -> None:
    root = _root(cookbook_service)

    with pytest.raises(ValueError, match="server-side permission") as caught:
        root.load("tag:launchpad.net:2008:redacted")

    # lazr's own doctest (entries.rst) expects the class to print as ValueError.
    assert type(caught.value) is ValueError


# -- hosted files -----------------------------------------------------------------


def test_a_hosted_file_buffer_write_returns_none_and_a_second_read_revalidates(
    cookbook_service: RunningService,
) -> None:
    cookbook = _root(cookbook_service).cookbooks["The Joy of Cooking"]
    buffer = cookbook.cover.open("w", "image/png", "cover.png")

    assert buffer.write(b"\x89PNG fake") is None
    buffer.close()
    cookbook_service.journal.clear()
    first = cookbook.cover.open().read()
    second = cookbook.cover.open().read()

    assert first == second == b"\x89PNG fake"
    settle(cookbook_service)
    journal = cookbook_service.journal.entries()
    statuses = [(entry.status, entry.if_none_match is not None) for entry in journal]
    # Each read: the cover's URL redirects (303); the bytes are asked at their own URL,
    # the second time with the cached ETag, and come back 304.
    assert statuses == [(303, False), (200, False), (303, False), (304, True)]


# -- value types ----------------------------------------------------------------------


def test_decimals_are_the_json_number_and_date_times_are_datetimes(
    cookbook_service: RunningService,
) -> None:
    lazr_book = _root(cookbook_service).cookbooks["The Joy of Cooking"]
    with wadlclient.ServiceRoot(None, cookbook_service.base_url) as native:
        native_book = native.cookbooks["The Joy of Cooking"]

        assert native_book.price == Decimal("20.00")
        assert lazr_book.price == 20.0 and type(lazr_book.price) is float
        assert json.dumps(lazr_book.price * 1.08)
        utc = datetime.timezone.utc
        assert lazr_book.copyright_date == datetime.datetime(1995, 1, 1, tzinfo=utc)
        assert native_book.copyright_date == datetime.datetime(1995, 1, 1, tzinfo=utc)


def test_an_xsd_date_is_a_datetime_as_lazr_reads_it(lazr_example: LazrExample) -> None:
    lazr_book = ServiceRoot(None, lazr_example.url, version="1.0").cookbooks["The Joy of Cooking"]
    with wadlclient.ServiceRoot(None, lazr_example.url, wadl_media_type=SUN_WADL) as native:
        native_book = native.cookbooks["The Joy of Cooking"]

        assert type(lazr_book.copyright_date) is datetime.datetime
        assert lazr_book.copyright_date == datetime.datetime(1995, 1, 1)
        assert native_book.copyright_date == datetime.date(1995, 1, 1)


# -- names and reprs ------------------------------------------------------------------


def test_compatibility_classes_have_lazrs_module_names_and_reprs(
    cookbook_service: RunningService,
) -> None:
    root = _root(cookbook_service)
    authorizer = OAuthAuthorizer("consumer", access_token=None)

    assert type(root).__module__ == "lazr.restfulclient.resource"
    assert type(root.recipes[0]).__module__ == "lazr.restfulclient.resource"
    assert errors.NotFound.__module__ == "lazr.restfulclient.errors"
    assert re.fullmatch(
        r"<lazr\.restfulclient\.authorize\.oauth\.OAuthAuthorizer object at 0x[0-9a-f]+>",
        repr(authorizer),
    )
    assert re.fullmatch(
        r"<lazr\.restfulclient\.authorize\.BasicHttpAuthorizer object at 0x[0-9a-f]+>",
        repr(BasicHttpAuthorizer("ada", "secret")),
    )


# -- values checked by the server ------------------------------------------------------


def test_a_value_outside_the_wadl_options_is_refused_by_the_server_not_locally(
    cookbook_service: RunningService,
) -> None:
    lazr_book = _root(cookbook_service).cookbooks["The Joy of Cooking"]
    lazr_book.cuisine = "No such cuisine"

    with pytest.raises(errors.BadRequest) as refused:
        lazr_book.lp_save()

    assert refused.value.response.status == 400
    native = wadlclient.ServiceRoot(None, cookbook_service.base_url)
    with native, pytest.raises(ValueError, match="may only be one of"):
        native.cookbooks["The Joy of Cooking"].cuisine = "No such cuisine"


# -- start-up order -----------------------------------------------------------------


def test_the_root_asks_for_the_wadl_and_then_for_the_json(cookbook_service: RunningService) -> None:
    _root(cookbook_service)

    settle(cookbook_service)
    wadl, document = cookbook_service.journal.entries()
    assert (wadl.accept, document.accept) == (SUN_WADL, "application/json")
    assert wadl.answered <= document.started
