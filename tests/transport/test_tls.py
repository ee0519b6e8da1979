"""TLS: plain-HTTP clients skip loading certificates, https still verifies.

The server is a real TLS listener on loopback with a self-signed
certificate made by the ``openssl`` command (``self_signed_tls_port`` in
conftest); the client must refuse it, which shows that the lazily made TLS
pool verifies certificates.
"""

from __future__ import annotations

import pytest

from wadlclient.errors import TransportError
from wadlclient.http import Transport


@pytest.mark.parametrize("pool", ["stdlib", "httpx"])
def test_https_to_a_server_with_an_untrusted_certificate_is_refused(
    self_signed_tls_port: int, pool: str
) -> None:
    url = f"https://127.0.0.1:{self_signed_tls_port}/1.0/"
    with Transport(max_retries=0, pool=pool) as transport, pytest.raises(TransportError) as caught:
        transport.request("GET", url)

    assert url in str(caught.value)
    assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value)


@pytest.mark.parametrize("pool", ["stdlib", "httpx"])
def test_an_untrusted_certificate_is_not_retried(self_signed_tls_port: int, pool: str) -> None:
    delays: list[float] = []
    url = f"https://127.0.0.1:{self_signed_tls_port}/1.0/"
    with (
        Transport(max_retries=3, pool=pool, sleep=delays.append) as transport,
        pytest.raises(TransportError, match="CERTIFICATE_VERIFY_FAILED") as caught,
    ):
        transport.request("GET", url)

    assert caught.value.attempts == 1
    assert delays == []
