"""How the default sender reads an answer off the wire (RFC 9112), against a raw loopback server.

Each route writes its answer byte for byte; the server's journal records the
client's port, so a test can tell whether the next request reused the
connection (the body was framed right and the connection kept) or not.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.hostile.server import Exchange, HostileServer

from wadlclient.errors import ConnectionDropped
from wadlclient.http import Transport


@pytest.fixture
def transport() -> Iterator[Transport]:
    with Transport(max_retries=0) as made:
        yield made


def _ports(hostile: HostileServer) -> list[int]:
    return [hit.peer for hit in hostile.journal()]


def _then_ok(hostile: HostileServer, transport: Transport, path: str) -> None:
    """A second, plain request after the one under test."""
    hostile.routes["/ok"] = lambda exchange: exchange.json({"ok": True})
    assert transport.request("GET", hostile.url + "/ok").json() == {"ok": True}


def test_a_chunked_body_with_extensions_and_trailers_is_read_whole(
    hostile: HostileServer, transport: Transport
) -> None:
    hostile.routes["/chunked"] = lambda exchange: exchange.raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        b"4;name=value\r\n{\"a\"\r\n5\r\n: [1,\r\nA\r\n 2, 3]}   \r\n0\r\nX-Trailer: t\r\n\r\n"
    )

    assert transport.request("GET", hostile.url + "/chunked").json() == {"a": [1, 2, 3]}
    _then_ok(hostile, transport, "/chunked")
    first, second = _ports(hostile)
    assert first == second  # the body ended where the chunks said: the connection was kept


def test_folded_header_lines_continue_the_header_before(
    hostile: HostileServer, transport: Transport
) -> None:
    hostile.routes["/folded"] = lambda exchange: exchange.raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: first\r\n"
        b"\t second\r\nContent-Length: 2\r\n\r\n{}"
    )

    response = transport.request("GET", hostile.url + "/folded")

    assert response.headers["x-note"] == "first second"
    assert response.json() == {}


def test_informational_answers_before_the_final_one_are_skipped(
    hostile: HostileServer, transport: Transport
) -> None:
    hostile.routes["/early"] = lambda exchange: exchange.raw(
        b"HTTP/1.1 100 Continue\r\n\r\n"
        b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    )

    response = transport.request("GET", hostile.url + "/early")

    assert (response.status, response.json()) == (200, {})
    assert "link" not in response.headers


def _close_delimited(exchange: Exchange) -> None:
    exchange.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"until\": \"close\"}")
    exchange.close()


def test_a_body_without_length_ends_with_the_connection_which_is_not_reused(
    hostile: HostileServer, transport: Transport
) -> None:
    hostile.routes["/close"] = _close_delimited

    assert transport.request("GET", hostile.url + "/close").json() == {"until": "close"}
    _then_ok(hostile, transport, "/close")
    first, second = _ports(hostile)
    assert first != second


@pytest.mark.parametrize(
    ("head", "kept"),
    [
        (b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n", False),
        (b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n", True),
        (b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n", False),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n", True),
    ],
)
def test_the_connection_is_kept_only_when_the_version_and_connection_header_allow(
    hostile: HostileServer, transport: Transport, head: bytes, kept: bool
) -> None:
    def answer(exchange: Exchange) -> None:
        exchange.raw(head + b"Content-Type: application/json\r\n\r\n{}")
        if not kept:
            exchange.close()

    hostile.routes["/versioned"] = answer

    assert transport.request("GET", hostile.url + "/versioned").json() == {}
    _then_ok(hostile, transport, "/versioned")
    first, second = _ports(hostile)
    assert (first == second) is kept


@pytest.mark.parametrize(
    ("method", "status"), [("HEAD", 200), ("GET", 204), ("GET", 304)]
)
def test_head_204_and_304_answers_have_no_body_whatever_their_length_says(
    hostile: HostileServer, transport: Transport, method: str, status: int
) -> None:
    hostile.routes["/empty"] = lambda exchange: exchange.raw(
        f"HTTP/1.1 {status} Nothing\r\nContent-Length: 10\r\nETag: \"e\"\r\n\r\n".encode()
    )

    response = transport.request(
        method, hostile.url + "/empty", headers={"If-None-Match": '"e"'}, use_cache=False
    )

    assert response.content == b""
    _then_ok(hostile, transport, "/empty")
    first, second = _ports(hostile)
    assert first == second


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: -2\r\n\r\n{}", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: \xb2\r\n\r\n{}", "Content-Length"),  # "²"
        (b"HTTP/1.1 two hundred OK\r\n\r\n", "BadStatusLine"),
        (b"SPDY/3 200 OK\r\n\r\n", "BadStatusLine"),
        (b"HTTP/1.1 200 OK\r\n" + b"X-Many: 1\r\n" * 101 + b"\r\n", "more than 100 headers"),
        (b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "malformed header line"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size"),
    ],
)
def test_a_malformed_answer_is_a_connection_dropped_error_naming_the_fault(
    hostile: HostileServer, transport: Transport, answer: bytes, says: str
) -> None:
    def malformed(exchange: Exchange) -> None:
        exchange.raw(answer)
        exchange.close()

    hostile.routes["/malformed"] = malformed

    with pytest.raises(ConnectionDropped, match=says):
        transport.request("GET", hostile.url + "/malformed")


def test_a_chunked_body_cut_short_is_a_dropped_connection(
    hostile: HostileServer, transport: Transport
) -> None:
    def cut(exchange: Exchange) -> None:
        exchange.raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly a part")
        exchange.close()

    hostile.routes["/cut"] = cut

    with pytest.raises(ConnectionDropped, match="mid-answer"):
        transport.request("GET", hostile.url + "/cut")
