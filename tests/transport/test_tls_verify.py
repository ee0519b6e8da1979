"""``verify=``: a service whose certificate a private CA signed is reached by naming that CA.

The example service runs in uvicorn over TLS on loopback, with a
certificate for 127.0.0.1 made by the ``openssl`` command; the system's
trust store does not know it, so the default refuses it and the CA bundle
(or an ``ssl.SSLContext`` that trusts it) lets the same calls through.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from wadlclient import ServiceRoot, TransportError
from wadlclient.http import Transport


class TLSService(NamedTuple):
    url: str
    ca: Path


@pytest.fixture(scope="module")
def tls_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TLSService]:
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    import uvicorn

    from cookbook_service.app import ServiceConfig, create_app
    from cookbook_service.journal import Journal
    from cookbook_service.store import Store

    where = tmp_path_factory.mktemp("tls")
    key, cert = where / "key.pem", where / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    store = Store(None)
    app = create_app(store, ServiceConfig(), Journal())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
        ssl_keyfile=str(key), ssl_certfile=str(cert),
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.started, "the TLS service did not start"
    try:
        yield TLSService(f"https://127.0.0.1:{port}/", cert)
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


def test_the_default_refuses_a_certificate_the_system_does_not_trust(
    tls_service: TLSService,
) -> None:
    with pytest.raises(TransportError, match="CERTIFICATE_VERIFY_FAILED"):
        ServiceRoot(None, tls_service.url, max_retries=0)


def test_a_ca_bundle_given_as_verify_lets_the_service_through(tls_service: TLSService) -> None:
    with ServiceRoot(None, tls_service.url, verify=tls_service.ca) as root:
        assert len(root.recipes) > 0
        assert root.recipes[0].dish.name


@pytest.mark.parametrize("pool", ["stdlib", "httpx"])
def test_an_ssl_context_given_as_verify_is_used_as_it_is(
    tls_service: TLSService, pool: str
) -> None:
    context = ssl.create_default_context(cafile=str(tls_service.ca))

    with Transport(verify=context, pool=pool) as transport:
        answer = transport.request("GET", tls_service.url + "1.0/")

    assert answer.status == 200


def test_a_ca_bundle_that_is_not_there_is_refused_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-ca.pem"

    with pytest.raises(ValueError, match=f"no CA bundle at '{missing}'"):
        ServiceRoot(None, "https://127.0.0.1:9/", verify=missing)
