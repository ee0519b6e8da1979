"""The example service over TLS on loopback, with a certificate of its own CA.

The certificate (for 127.0.0.1) is made by the ``openssl`` command on an
elliptic-curve key: made in a millisecond, where an RSA key takes a few hundred
of CPU, and which kind does not matter to who trusts it. The system's trust
store does not know it, so a client reaches the service only when told to
trust it (``verify=``, ``HTTPLIB2_CA_CERTS``). Tests get it as the
``tls_service`` fixture (tests/conftest.py).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest


class TLSService(NamedTuple):
    url: str
    ca: Path


@contextmanager
def running_tls_service(where: Path) -> Iterator[TLSService]:
    """The service over TLS, its key and certificate (its own CA) written in ``where``."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    import uvicorn

    from cookbook_service.app import ServiceConfig, create_app
    from cookbook_service.journal import Journal
    from cookbook_service.running import quiet_server_class
    from cookbook_service.store import Store

    key, cert = where / "key.pem", where / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    store = Store(None)
    app = create_app(store, ServiceConfig(), Journal())
    # Listening before uvicorn starts: no other process can take the port in between.
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(128)
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        ssl_keyfile=str(key),
        ssl_certfile=str(cert),
    )
    server = quiet_server_class()(config)  # idles without polling
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.started, "the TLS service did not start"
    try:
        yield TLSService(f"https://127.0.0.1:{port}/", cert)
    finally:
        server.stop()  # type: ignore[attr-defined]
        thread.join(10)
        listening.close()
        store.close()
