"""A `Sender` given to the transport carries every request: the pluggable seam under it."""

from __future__ import annotations

import subprocess
import sys

from wadlclient.http import Request, Response, Sender, Timeout, Transport
from wadlclient.http.pool import ConnectionPool


class RecordingSender:
    """The default pool, recording what the transport hands it."""

    def __init__(self) -> None:
        self.pool = ConnectionPool()
        self.sent: list[Request] = []
        self.closed = False

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        self.sent.append(request)
        return self.pool.send(request, timeout=timeout)

    def close(self) -> None:
        self.closed = True
        self.pool.close()


def test_a_given_sender_sends_each_hop_and_is_closed_with_the_transport(scripted):
    sender = RecordingSender()
    checked: Sender = sender
    transport = Transport(sender=checked, max_retries=0)

    response = transport.request("GET", scripted.url + "/chain/1")
    transport.close()

    assert response.json()["method"] == "GET"
    assert [r.url for r in sender.sent] == [scripted.url + "/chain/1", scripted.url + "/echo"]
    assert sender.closed


def test_importing_the_package_imports_no_http_library():
    """httpx is optional; the default sender (http.client) is needed by every root, so it loads."""
    names = ("httpx", "httpcore", "h11")
    probe = f"import sys, wadlclient\nprint(' '.join(m for m in {names!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )

    assert result.stdout.split() == []
