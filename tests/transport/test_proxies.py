"""Proxies from the environment: HTTP_PROXY, ALL_PROXY and NO_PROXY are honoured.

The proxy is a tiny forward proxy on loopback (``http.server``): it relays
each absolute-form request to its target and records the request line.
"""

from __future__ import annotations

import base64
import http.client
import select
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from wadlclient.errors import TransportError

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@dataclass
class ForwardProxy:
    url: str
    seen: list[str] = field(default_factory=list)
    credentials: list[str | None] = field(default_factory=list)  # Proxy-Authorization


class _Relay(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    proxy: ForwardProxy

    def _relay(self) -> None:
        self.proxy.seen.append(f"{self.command} {self.path}")
        self.proxy.credentials.append(self.headers.get("Proxy-Authorization"))
        target = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        upstream = http.client.HTTPConnection(target.netloc, timeout=5)
        try:
            upstream.request(
                self.command,
                target.path + (f"?{target.query}" if target.query else ""),
                body=body,
                headers={k: v for k, v in self.headers.items() if k.lower() != "connection"},
            )
            answer = upstream.getresponse()
            content = answer.read()
        finally:
            upstream.close()
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = do_POST = _relay

    def do_CONNECT(self) -> None:
        """Open a tunnel to ``host:port`` and pass bytes both ways until one side closes."""
        self.proxy.seen.append(f"CONNECT {self.path}")
        self.proxy.credentials.append(self.headers.get("Proxy-Authorization"))
        host, _, port = self.path.rpartition(":")
        upstream = socket.create_connection((host, int(port)), timeout=5)
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        client = self.connection
        with upstream:
            while True:
                ready, _, _ = select.select([client, upstream], [], [], 5)
                if not ready:
                    return
                for side in ready:
                    try:
                        data = side.recv(65536)
                    except ConnectionResetError:  # a side that went away: the tunnel ends
                        return
                    if not data:
                        return
                    (upstream if side is client else client).sendall(data)
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads ``seen`` instead."""


@pytest.fixture
def forward_proxy() -> Iterator[ForwardProxy]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Relay)
    server.daemon_threads = True
    handle = ForwardProxy(url=f"http://127.0.0.1:{server.server_address[1]}")
    server.RequestHandlerClass = type("Relay", (_Relay,), {"proxy": handle})
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield handle
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def clean_proxy_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


def test_http_proxy_from_the_environment_carries_http_requests(
    scripted, make_transport, forward_proxy, clean_proxy_environment
):
    clean_proxy_environment.setenv("HTTP_PROXY", forward_proxy.url)
    transport = make_transport()

    response = transport.request("GET", scripted.url + "/echo")

    assert response.json()["method"] == "GET"
    assert forward_proxy.seen == [f"GET {scripted.url}/echo"]
    assert len(scripted.requests()) == 1


def test_all_proxy_carries_requests_when_no_scheme_proxy_is_set(
    scripted, make_transport, forward_proxy, clean_proxy_environment
):
    clean_proxy_environment.setenv("ALL_PROXY", forward_proxy.url)
    transport = make_transport()

    transport.request("POST", scripted.url + "/echo", body=b"x=1")

    assert forward_proxy.seen == [f"POST {scripted.url}/echo"]
    assert scripted.requests()[0].body == b"x=1"


def test_no_proxy_hosts_are_reached_directly(
    scripted, make_transport, forward_proxy, clean_proxy_environment
):
    clean_proxy_environment.setenv("HTTP_PROXY", forward_proxy.url)
    clean_proxy_environment.setenv("NO_PROXY", "127.0.0.1")
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")
    transport.request("GET", scripted.other_url + "/echo")

    assert forward_proxy.seen == [f"GET {scripted.other_url}/echo"]
    assert len(scripted.requests()) == 2


def test_a_https_proxy_setting_leaves_plain_http_direct(
    scripted, make_transport, forward_proxy, clean_proxy_environment
):
    clean_proxy_environment.setenv("HTTPS_PROXY", forward_proxy.url)
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    assert forward_proxy.seen == []
    assert len(scripted.requests()) == 1


def test_https_through_a_proxy_is_tunnelled_and_still_verified(
    make_transport, forward_proxy, clean_proxy_environment, self_signed_tls_port
):
    clean_proxy_environment.setenv("HTTPS_PROXY", forward_proxy.url)
    transport = make_transport(max_retries=0)
    url = f"https://127.0.0.1:{self_signed_tls_port}/"

    with pytest.raises(TransportError) as caught:
        transport.request("GET", url)

    assert forward_proxy.seen == [f"CONNECT 127.0.0.1:{self_signed_tls_port}"]
    assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value)


def test_credentials_in_the_proxy_url_are_sent_to_the_proxy(
    scripted, make_transport, forward_proxy, clean_proxy_environment
):
    with_credentials = forward_proxy.url.replace("http://", "http://ann:s%40cret@")
    clean_proxy_environment.setenv("HTTP_PROXY", with_credentials)
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    expected = "Basic " + base64.b64encode(b"ann:s@cret").decode("ascii")
    assert forward_proxy.credentials == [expected]
