"""The loopback server behind the fake (and the tests' Launchpad-shaped services) stops at once.

It sleeps until a connection or its shutdown wakes it: no half-second poll
for ``shutdown()`` to wait out, and no poll every few milliseconds that an
idle server pays CPU for all its life.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from wadlclient.testing import server as loopback
from wadlclient.testing.server import LoopbackHTTPServer


class CountedSelector(loopback._Selector):  # type: ignore[misc,name-defined]
    """The server's selector, keeping each wait it is asked for."""

    waits: list[float | None] = []

    def select(self, timeout: float | None = None) -> Any:
        CountedSelector.waits.append(timeout)
        return super().select(timeout)


def test_an_idle_server_sleeps_until_a_connection_or_its_shutdown_wakes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Counted rather than timed: each wait is one wake-up of the server.
    monkeypatch.setattr(loopback, "_Selector", CountedSelector)
    CountedSelector.waits = []
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # The base handler answers 501 to every method: the round trip is the point.
        with contextlib.suppress(HTTPError):
            urlopen(f"http://127.0.0.1:{server.server_address[1]}/", timeout=5)
        time.sleep(0.1)  # idle: a server polling every 10 ms would wake ten times here

        server.shutdown()
        thread.join(5)
        assert not thread.is_alive()
    finally:
        server.server_close()

    # One wait before the request, one after it, ended by shutdown(): none with a timeout.
    assert CountedSelector.waits == [None, None]


def test_a_server_shut_down_serves_again_when_asked() -> None:
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    try:
        for _ in range(2):
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            with contextlib.suppress(HTTPError):
                urlopen(f"http://127.0.0.1:{server.server_address[1]}/", timeout=5)
            server.shutdown()
            thread.join(5)
            assert not thread.is_alive()
    finally:
        server.server_close()


def test_a_client_that_resets_its_connection_prints_no_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = socket.create_connection(server.server_address, timeout=5)
        client.sendall(b"GET / HTTP/1.1\r\n")  # the server waits for the rest of the head
        time.sleep(0.1)
        # Closed with a zero linger: a reset, as a killed client's kernel sends.
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        time.sleep(0.2)  # the handler's thread reads the reset
    finally:
        server.shutdown()
        server.server_close()

    assert "Traceback" not in capsys.readouterr().err
