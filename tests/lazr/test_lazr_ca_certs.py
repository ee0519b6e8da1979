"""The compatibility layer checks certificates as httplib2 does under lazr.restfulclient:
``HTTPLIB2_CA_CERTS`` names the CA bundle to trust (a corporate CA, say), and
``LP_DISABLE_SSL_CERTIFICATE_VALIDATION`` turns the checks off.

The service is the example service over TLS on loopback, its certificate
signed by a CA of its own (the ``tls_service`` fixture); the system's trust
store does not know that CA.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.tls_service import TLSService

from wadlclient.errors import TransportError
from wadlclient.lazr.restfulclient.resource import ServiceRoot


@pytest.fixture(autouse=True)
def no_tls_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HTTPLIB2_CA_CERTS", raising=False)
    monkeypatch.delenv("LP_DISABLE_SSL_CERTIFICATE_VALIDATION", raising=False)


def test_a_ca_named_by_httplib2_ca_certs_is_trusted(
    tls_service: TLSService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPLIB2_CA_CERTS", str(tls_service.ca))

    with ServiceRoot(None, tls_service.url, version="1.0") as root:
        assert len(root.recipes) > 0


def test_without_it_the_service_is_refused(tls_service: TLSService) -> None:
    with pytest.raises(TransportError, match="CERTIFICATE_VERIFY_FAILED"):
        ServiceRoot(None, tls_service.url, version="1.0", max_retries=0)


def test_a_httplib2_ca_certs_that_is_not_a_file_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "corporate-ca.pem"
    monkeypatch.setenv("HTTPLIB2_CA_CERTS", str(missing))

    with pytest.raises(ValueError, match=f"HTTPLIB2_CA_CERTS='{missing}' is not a file"):
        ServiceRoot(None, "https://127.0.0.1:9/", version="1.0")


def test_lp_disable_ssl_certificate_validation_turns_the_checks_off(
    tls_service: TLSService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LP_DISABLE_SSL_CERTIFICATE_VALIDATION", "1")

    with ServiceRoot(None, tls_service.url, version="1.0") as root:
        assert len(root.recipes) > 0
