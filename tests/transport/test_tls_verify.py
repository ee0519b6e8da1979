"""``verify=``: a service whose certificate a private CA signed is reached by naming that CA.

The example service runs in uvicorn over TLS on loopback, with a
certificate for 127.0.0.1 made by the ``openssl`` command (the
``tls_service`` fixture, tests/tls_service.py); the system's
trust store does not know it, so the default refuses it and the CA bundle
(or an ``ssl.SSLContext`` that trusts it) lets the same calls through.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
from tests.tls_service import TLSService

from wadlclient import ServiceRoot, TransportError
from wadlclient.http import Transport


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
