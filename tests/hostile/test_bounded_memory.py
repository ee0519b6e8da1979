"""Finding 3: a decoded body has a cap, enforced while decoding (a bomb stops early)."""

from __future__ import annotations

import functools
import struct
import tracemalloc
import zlib

import pytest
from tests.hostile.server import Exchange, HostileServer

from wadlclient.errors import ResponseError
from wadlclient.http import Transport

#: The documented default cap (`wadlclient.http.DEFAULT_MAX_BODY`).
DEFAULT_MAX_BODY = 64 * 1024 * 1024


@functools.cache
def gzip_of_zeros(size: int) -> bytes:
    """A gzip body that expands to ``size`` zero bytes (about a thousandth of that sent).

    Run-length matching only (``Z_RLE``). Each MiB is compressed after a full
    flush, which forgets what came before: every MiB after the first is the
    same bytes, compressed once and repeated, where compressing all of a
    128 MiB bomb cost a quarter of a second of CPU. The trailer's checksum
    and size are the whole body's.
    """
    mib = bytes(1024 * 1024)
    count, rest = divmod(size, len(mib))
    assert count >= 2 and rest == 0, "whole MiBs, two at least"
    encoder = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16, 9, zlib.Z_RLE)
    first = encoder.compress(mib) + encoder.flush(zlib.Z_FULL_FLUSH)
    again = encoder.compress(mib) + encoder.flush(zlib.Z_FULL_FLUSH)
    last_block = encoder.flush()[:-8]  # the final, empty block; its trailer counts two MiB
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(mib, crc)
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return first + again * (count - 1) + last_block + trailer


def _serve_gzip(body: bytes):
    def serve(exchange: Exchange) -> None:
        exchange.send(200, body, [("Content-Encoding", "gzip")])

    return serve


@pytest.mark.usefixtures("python_gc_thresholds")
def test_a_gzip_bomb_stops_at_the_default_cap_without_taking_its_size(
    hostile: HostileServer,
) -> None:
    bomb = gzip_of_zeros(DEFAULT_MAX_BODY + 64 * 1024 * 1024)  # 128 MiB once decoded
    hostile.routes["/bomb"] = _serve_gzip(bomb)

    tracemalloc.start()
    try:
        with (
            Transport(max_retries=0) as transport,
            pytest.raises(ResponseError, match="/bomb") as error,
        ):
            transport.request("GET", hostile.url + "/bomb")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak < DEFAULT_MAX_BODY + 16 * 1024 * 1024
    # Stopped by the cap, so decoded to it: the bomb is gzip whole past 64 MiB.
    assert f"decodes to more than {DEFAULT_MAX_BODY} bytes" in str(error.value)


def test_the_body_cap_is_settable_and_is_a_response_error(hostile: HostileServer) -> None:
    hostile.routes["/bomb"] = _serve_gzip(gzip_of_zeros(4 * 1024 * 1024))

    transport = Transport(max_retries=0, max_body=1024 * 1024)
    with transport, pytest.raises(ResponseError, match="more than 1048576 bytes"):
        transport.request("GET", hostile.url + "/bomb")


@pytest.mark.parametrize("framing", ["content-length", "until-close"])
def test_a_huge_body_is_refused_without_reading_it_whole(
    hostile: HostileServer, framing: str
) -> None:
    size = 8 * 1024 * 1024

    def serve(exchange: Exchange) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        if framing == "content-length":
            head += f"Content-Length: {size}\r\n".encode()
        else:
            head += b"Connection: close\r\n"
            exchange.close()
        exchange.raw(head + b"\r\n")
        try:
            for _ in range(size // 65536):
                exchange.raw(b"x" * 65536)
        except OSError:
            return

    hostile.routes["/huge"] = serve

    transport = Transport(max_retries=0, max_body=1024 * 1024)
    with transport, pytest.raises(ResponseError, match="/huge"):
        transport.request("GET", hostile.url + "/huge")
