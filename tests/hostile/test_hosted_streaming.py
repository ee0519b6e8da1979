"""Hosted files stream: a big one is read in pieces, and a stream left half read frees nothing."""

from __future__ import annotations

import tracemalloc
import zlib
from collections.abc import Callable

import pytest
from tests.hostile.server import Exchange, HostileServer

from wadlclient import HostedFile, NotFound, ServiceRoot
from wadlclient.errors import ConnectionDropped, TransportTimeout
from wadlclient.http import BodyTooLarge, Transport

SIZE = 20 * 1024 * 1024
PIECE = 64 * 1024
FILE_PATH = "/files/big.bin"


def _serve_big_file(exchange: Exchange, *, gzip: bool = False) -> None:
    """``SIZE`` bytes of a repeated pattern, written a piece at a time (never built whole)."""
    piece = bytes(range(256)) * (PIECE // 256)
    coding = b"Content-Encoding: gzip\r\n" if gzip else b""
    exchange.raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
        + coding
        + b"Transfer-Encoding: chunked\r\n\r\n"
    )
    encoder = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16) if gzip else None
    try:
        for _ in range(SIZE // PIECE):
            data = encoder.compress(piece) if encoder is not None else piece
            if data:
                exchange.raw(b"%x\r\n%s\r\n" % (len(data), data))
        tail = encoder.flush() if encoder is not None else b""
        if tail:
            exchange.raw(b"%x\r\n%s\r\n" % (len(tail), tail))
        exchange.raw(b"0\r\n\r\n")
    except OSError:
        return


def _cover(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], *, gzip: bool = False
) -> HostedFile:
    """A cookbook whose cover answers 303 to ``FILE_PATH``, served as ``_serve_big_file`` does."""
    root = make_root()
    entry = hostile.url + "/1.0/cookbooks/Big"
    hostile.routes["/1.0/cookbooks/Big"] = lambda exchange: exchange.json(
        {
            "self_link": entry,
            "resource_type_link": hostile.url + "/1.0/#cookbook",
            "http_etag": '"1"',
            "name": "Big",
            "cover_link": entry + "/cover",
        }
    )
    hostile.routes["/1.0/cookbooks/Big/cover"] = lambda exchange: exchange.send(
        303, headers=[("Location", hostile.url + FILE_PATH)]
    )
    hostile.routes[FILE_PATH] = lambda exchange: _serve_big_file(exchange, gzip=gzip)
    cover: HostedFile = root.cookbooks["Big"].cover
    return cover


def _read_in_pieces(cover: HostedFile) -> tuple[int, int]:
    """(bytes read, peak traced memory) reading the cover ``PIECE`` bytes at a time."""
    total = 0
    tracemalloc.start()
    try:
        with cover.open() as handle:
            while piece := handle.read(PIECE):
                total += len(piece)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return total, peak


@pytest.mark.usefixtures("python_gc_thresholds")
@pytest.mark.parametrize("gzip", [False, True], ids=["identity", "gzip"])
def test_a_large_hosted_file_is_read_in_pieces_with_bounded_memory(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], gzip: bool
) -> None:
    cover = _cover(hostile, make_root, gzip=gzip)

    total, peak = _read_in_pieces(cover)

    assert total == SIZE
    assert peak < 2 * 1024 * 1024


def test_a_hosted_file_reader_keeps_the_attributes_of_the_old_buffer(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    cover = _cover(hostile, make_root)

    with cover.open() as handle:
        assert handle.content_type == "application/octet-stream"
        assert handle.filename == "big.bin"
        assert handle.mode == "r"
        assert handle.hosted_file == cover
        assert handle.read(10) == bytes(range(10))
    assert handle.closed


def _file_connections(hostile: HostileServer) -> list[int]:
    return [hit.peer for hit in hostile.journal() if hit.path == FILE_PATH]


def test_a_stream_closed_early_does_not_return_its_connection_to_the_pool(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    cover = _cover(hostile, make_root)

    with cover.open() as handle:
        handle.read(PIECE)
    with cover.open() as handle:
        handle.read(PIECE)

    first, second = _file_connections(hostile)
    assert first != second


def test_a_stream_read_to_its_end_returns_its_connection_to_the_pool(
    hostile: HostileServer,
) -> None:
    hostile.routes[FILE_PATH] = lambda exchange: exchange.send(
        200, b"small", content_type="text/plain"
    )

    with Transport(max_retries=0) as transport:
        for _ in range(2):
            with transport.stream("GET", hostile.url + FILE_PATH) as answer:
                assert answer.read() == b"small"

    first, second = _file_connections(hostile)
    assert first == second


def test_a_streamed_body_cut_short_is_connection_dropped(hostile: HostileServer) -> None:
    def serve(exchange: Exchange) -> None:
        exchange.raw(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part")
        exchange.close()

    hostile.routes[FILE_PATH] = serve

    with Transport(max_retries=0) as transport:
        answer = transport.stream("GET", hostile.url + FILE_PATH)
        with answer, pytest.raises(ConnectionDropped, match="mid-answer"):
            answer.read()


def test_a_streamed_gzip_bomb_stops_at_the_cap(hostile: HostileServer) -> None:
    hostile.routes[FILE_PATH] = lambda exchange: _serve_big_file(exchange, gzip=True)

    with Transport(max_retries=0, max_body=1024 * 1024) as transport:
        answer = transport.stream("GET", hostile.url + FILE_PATH)
        with answer, pytest.raises(BodyTooLarge, match="more than 1048576 bytes"):
            while answer.read(PIECE):
                pass


def test_an_error_status_raises_before_the_stream_is_handed_over(hostile: HostileServer) -> None:
    hostile.routes[FILE_PATH] = lambda exchange: exchange.send(
        404, b"no such file", content_type="text/plain"
    )

    with Transport(max_retries=0) as transport, pytest.raises(NotFound) as raised:
        transport.stream("GET", hostile.url + FILE_PATH)

    assert raised.value.content == b"no such file"


def test_a_sender_that_cannot_stream_gives_the_same_reader(hostile: HostileServer) -> None:
    pytest.importorskip("httpx")
    hostile.routes[FILE_PATH] = lambda exchange: exchange.send(
        200, zlib.compress(b"deflated"), [("Content-Encoding", "deflate")], "text/plain"
    )

    transport = Transport(max_retries=0, pool="httpx")
    with transport, transport.stream("GET", hostile.url + FILE_PATH) as answer:
        assert (answer.status, answer.read(3), answer.read()) == (200, b"def", b"lated")


def test_a_stream_must_arrive_whole_within_the_read_timeout(hostile: HostileServer) -> None:
    def serve(exchange: Exchange) -> None:
        exchange.raw(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
        exchange.drip(b"x" * 100, every=0.1)

    hostile.routes[FILE_PATH] = serve

    with Transport(max_retries=0, timeout=1) as transport:
        answer = transport.stream("GET", hostile.url + FILE_PATH)
        with answer, pytest.raises(TransportTimeout):
            answer.read()


def test_a_hosted_file_iterates_by_lines(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    cover = _cover(hostile, make_root)
    hostile.routes[FILE_PATH] = lambda exchange: exchange.send(200, b"a\nb\n", content_type=None)

    with cover.open() as handle:
        assert list(handle) == [b"a\n", b"b\n"]
