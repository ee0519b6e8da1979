"""TLS: plain-HTTP clients skip loading certificates, https still verifies.

The server is a real TLS listener on loopback with a self-signed
certificate made by the ``openssl`` command; the client must refuse it,
which shows that the lazily made TLS pool verifies certificates.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from wadlclient.errors import TransportError
from wadlclient.http import Transport

pytestmark = pytest.mark.skipif(
    shutil.which("openssl") is None, reason="needs the openssl command to make a certificate"
)


@pytest.fixture
def self_signed_tls_port(tmp_path: Path) -> Iterator[int]:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)
    port = listener.getsockname()[1]

    def serve_one_handshake() -> None:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        try:
            with context.wrap_socket(connection, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass  # the client is expected to abort the handshake

    thread = threading.Thread(target=serve_one_handshake, daemon=True)
    thread.start()
    yield port
    listener.close()
    thread.join(timeout=5)


def test_https_to_a_server_with_an_untrusted_certificate_is_refused(
    self_signed_tls_port: int,
) -> None:
    url = f"https://127.0.0.1:{self_signed_tls_port}/1.0/"
    with Transport(max_retries=0) as transport, pytest.raises(TransportError) as caught:
        transport.request("GET", url)

    assert url in str(caught.value)
    assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value)
