"""Authorizers (`authorizers`) and their credentials files (`credentials_file`).

Names and the credentials-file layout match lazr.restfulclient's, so a
script moves over by changing an import.
"""

from wadlclient.auth.authorizers import (
    SIGNATURE_HMAC_SHA1,
    SIGNATURE_PLAINTEXT,
    AccessToken,
    BasicHttpAuthorizer,
    Consumer,
    HttpAuthorizer,
    OAuthAuthorizer,
)
from wadlclient.auth.credentials_file import CREDENTIALS_FILE_VERSION

__all__ = [
    "CREDENTIALS_FILE_VERSION",
    "SIGNATURE_HMAC_SHA1",
    "SIGNATURE_PLAINTEXT",
    "AccessToken",
    "BasicHttpAuthorizer",
    "Consumer",
    "HttpAuthorizer",
    "OAuthAuthorizer",
]
