"""How httplib2 under lazr.restfulclient is told to check certificates, read from the environment.

A module of its own, importing nothing of wadlclient's: ``python -m
wadlclient.lazr_compat`` checks ``HTTPLIB2_CA_CERTS`` before the program
starts without importing the layer's browser and the HTTP stack under it.
"""

from __future__ import annotations

import os
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from wadlclient.http import Verify

__all__ = ["CA_CERTS_VARIABLE", "ssl_certificate_validation_disabled", "verify_from_environment"]

#: The CA bundle httplib2 trusts instead of its own (a corporate CA, say).
CA_CERTS_VARIABLE = "HTTPLIB2_CA_CERTS"


def ssl_certificate_validation_disabled() -> bool:
    """Whether ``LP_DISABLE_SSL_CERTIFICATE_VALIDATION`` asks for no certificate checks."""
    return bool(os.environ.get("LP_DISABLE_SSL_CERTIFICATE_VALIDATION", False))


def verify_from_environment() -> Verify:
    """How certificates are checked, as httplib2 under lazr.restfulclient would check them.

    ``LP_DISABLE_SSL_CERTIFICATE_VALIDATION`` set: not at all. Else
    ``HTTPLIB2_CA_CERTS`` names the CA bundle (a file) trusted in place of
    the default (wadlclient's: the system's trust store); set to anything
    but a file, it is refused, as httplib2 refuses it.
    """
    if ssl_certificate_validation_disabled():
        return False
    bundle = os.environ.get(CA_CERTS_VARIABLE)
    if bundle is None:
        return True
    if not os.path.isfile(bundle):
        raise ValueError(f"{CA_CERTS_VARIABLE}={bundle!r} is not a file: name a CA bundle (PEM)")
    return Path(bundle)
