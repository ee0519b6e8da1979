"""The loopback server behind the fake (and the tests' Launchpad-shaped services) stops at once."""

from __future__ import annotations

import contextlib
import socketserver
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from wadlclient.testing.server import LoopbackHTTPServer


class CountedSelector(socketserver._ServerSelector):  # type: ignore[name-defined,misc]
    """The standard library's selector of socketserver, keeping each wait it is asked for."""

    waits: list[float | None] = []

    def select(self, timeout: float | None = None) -> Any:
        CountedSelector.waits.append(timeout)
        return super().select(timeout)


def test_shutdown_waits_at_most_a_short_poll_not_half_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Counted rather than timed: the server's waits are what shutdown() waits for.
    monkeypatch.setattr(socketserver, "_ServerSelector", CountedSelector)
    CountedSelector.waits = []
    server = LoopbackHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # An answered request restarts the server's wait for the next one,
        # so shutdown() below waits one whole poll. (The base handler answers
        # 501 to every method: the round trip is the point.)
        with contextlib.suppress(HTTPError):
            urlopen(f"http://127.0.0.1:{server.server_address[1]}/", timeout=5)

        server.shutdown()
    finally:
        server.server_close()
        thread.join(5)

    assert CountedSelector.waits and max(w or 0.0 for w in CountedSelector.waits) <= 0.01
    assert None not in CountedSelector.waits
