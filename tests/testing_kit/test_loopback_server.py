"""The loopback server behind the fake (and the tests' Launchpad-shaped services) stops at once."""

from __future__ import annotations

import contextlib
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.error import HTTPError
from urllib.request import urlopen

from wadlclient.testing.server import LoopbackHTTPServer


def test_shutdown_returns_within_a_short_poll_not_half_a_second() -> None:
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # An answered request restarts the server's wait for the next one,
        # so shutdown() below waits one whole poll. (The base handler answers
        # 501 to every method: the round trip is the point.)
        with contextlib.suppress(HTTPError):
            urlopen(f"http://127.0.0.1:{server.server_address[1]}/", timeout=5)

        started = time.monotonic()
        server.shutdown()
        stopped_in = time.monotonic() - started
    finally:
        server.server_close()
        thread.join(5)

    assert stopped_in < 0.25
