"""The fake reads each request's head itself (`wadlclient.testing.request_head`), strictly.

Raw bytes on a socket, as no well-behaved client would send them: the
fake refuses a malformed head with the standard library's statuses (400,
431, 505) and serves a well-formed one as before, whatever the case of
its field names.
"""

from __future__ import annotations

import http.client
import io
import socket
from collections.abc import Iterator

import pytest

from wadlclient.testing import FakeService, launchpad_wadl
from wadlclient.testing.request_head import MAX_FIELDS, MAX_LINE

WADL = "application/vnd.sun.wadl+xml"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeService]:
    """One fake for the module: no test here changes what it serves."""
    with FakeService(launchpad_wadl()) as made:
        made.add("people", name="ada", display_name="Ada Lovelace")
        yield made


class Answer:
    """One answer read off the socket."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body


class _Received(io.BytesIO):
    """The bytes received, as the socket http.client reads answers from, one after another."""

    def makefile(self, mode: str) -> io.BytesIO:
        return self

    def close(self) -> None:
        """Kept open: http.client closes its file at the end of each answer."""


def received(fake: FakeService, raw: bytes) -> tuple[bytes, bool]:
    """Send ``raw``, read to the end: what came back, and whether the fake closed the
    connection (every request here ends it, or asks it to)."""
    port = int(fake.service_root.rstrip("/").rsplit(":", 1)[1])
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(raw)
        try:
            while chunk := connection.recv(65536):
                data += chunk
            closed = True
        except TimeoutError:
            closed = False
    return data, closed


def exchange(fake: FakeService, raw: bytes, answers: int = 1) -> tuple[list[Answer], bool]:
    """The first ``answers`` answers to ``raw``, and whether the fake closed the connection."""
    data, closed = received(fake, raw)
    kept = _Received(data)
    got = []
    for _ in range(answers):
        response = http.client.HTTPResponse(kept)  # type: ignore[arg-type]
        response.begin()
        got.append(Answer(response.status, dict(response.getheaders()), response.read()))
    return got, closed


def head(fake: FakeService, *fields: str, line: str = "") -> bytes:
    """A GET of ``~ada`` (or the request ``line``) with ``fields``, ending the connection."""
    start = line or f"GET /{fake.version}/~ada HTTP/1.1"
    return ("\r\n".join((start, "Host: x", *fields, "Connection: close", "", ""))).encode("latin-1")


def test_field_names_are_read_in_any_case(fake: FakeService) -> None:
    [answer], _ = exchange(
        fake, head(fake, "aCCEPT: " + WADL, line=f"GET /{fake.version}/ HTTP/1.1")
    )

    assert answer.status == 200
    assert answer.headers["Content-Type"] == WADL


def test_a_field_sent_twice_keeps_its_last_value(fake: FakeService) -> None:
    line = f"GET /{fake.version}/ HTTP/1.1"
    [answer], _ = exchange(
        fake, head(fake, "Accept: application/json", "Accept: " + WADL, line=line)
    )

    assert answer.headers["Content-Type"] == WADL


def test_a_field_value_is_read_without_the_spaces_around_it(fake: FakeService) -> None:
    [answer], _ = exchange(fake, head(fake, "If-None-Match: \t " + '"x"' + " \t"))

    assert answer.status == 200
    assert fake.journal.entries()[-1].if_none_match == '"x"'


@pytest.mark.parametrize(
    "field",
    [
        "Accept application/json",  # no colon
        "Bad Name: x",  # a name is a token: no space
        ": x",  # no name at all
        " folded: continuation",  # the obsolete line folding
        "Name\x00: x",  # not a token character
    ],
)
def test_a_line_that_is_no_field_is_a_400(fake: FakeService, field: str) -> None:
    before = len(fake.journal.entries())
    [answer], closed = exchange(fake, head(fake, field))

    assert answer.status == 400
    assert b"Bad header line" in answer.body
    assert closed
    assert len(fake.journal.entries()) == before  # refused before any handler saw it


def test_more_fields_than_the_standard_librarys_limit_is_a_431(fake: FakeService) -> None:
    fields = [f"X-Field-{n}: {n}" for n in range(MAX_FIELDS + 1)]
    [answer], closed = exchange(fake, head(fake, *fields))

    assert (answer.status, closed) == (431, True)
    assert b"Too many headers" in answer.body


def test_a_field_line_over_64_kib_is_a_431(fake: FakeService) -> None:
    [answer], closed = exchange(fake, head(fake, "X-Long: " + "a" * MAX_LINE))

    assert (answer.status, closed) == (431, True)
    assert b"Line too long" in answer.body


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("GET /devel/~ada", 400),  # HTTP/0.9's form: no version
        ("GET /devel/~ada HTTP/1.1 extra", 400),
        ("GET /devel/~ada HTTX/1.1", 400),
        ("GET /devel/~ada HTTP/1", 400),
        ("GET /devel/~ada HTTP/2.0", 505),
    ],
)
def test_a_malformed_request_line_is_refused(fake: FakeService, line: str, status: int) -> None:
    data, closed = received(fake, head(fake, line=line))

    # Its version unknown, the answer is the error page alone, as the standard library's is.
    assert f"Error code: {status}".encode() in data
    assert closed


def test_http_1_1_keeps_the_connection_for_the_next_request(fake: FakeService) -> None:
    first = f"GET /{fake.version}/~ada HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    answers, closed = exchange(fake, first + head(fake), answers=2)

    assert [a.status for a in answers] == [200, 200]
    assert closed  # by the second request's Connection: close


def test_http_1_0_closes_the_connection_after_its_answer(fake: FakeService) -> None:
    [answer], closed = exchange(fake, f"GET /{fake.version}/~ada HTTP/1.0\r\n\r\n".encode())

    assert (answer.status, closed) == (200, True)


def test_a_body_announced_with_expect_100_continue_is_read_after_the_go_ahead(
    fake: FakeService,
) -> None:
    body = b"ws.op=noSuchOperation"
    raw = (
        f"POST /{fake.version}/people HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body
    data, _ = received(fake, raw)

    go_ahead, _, final = data.partition(b"\r\n\r\n")
    assert go_ahead == b"HTTP/1.1 100 Continue"
    assert final.startswith(b"HTTP/1.1 400 ")
    assert final.endswith(b"No such operation: noSuchOperation\n")  # the body was read


def test_every_answer_is_dated(fake: FakeService) -> None:
    answers, _ = exchange(fake, head(fake))

    assert answers[0].headers["Date"].endswith(" GMT")
