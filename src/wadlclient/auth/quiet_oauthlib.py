"""oauthlib's OAuth 1 client, made quiet: its DEBUG lines print the signature.

Imported when a request is first signed with HMAC-SHA1 or a form body:
importing oauthlib costs every ``import wadlclient`` several milliseconds.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

__all__ = ["quiet_client_class"]

#: ``wadlclient.auth.authorizers.SIGNATURE_PLAINTEXT``.
SIGNATURE_PLAINTEXT = "PLAINTEXT"


@functools.cache
def quiet_client_class() -> Any:
    """oauthlib's Client without its DEBUG lines, which print the signature.

    The HMAC computation is oauthlib's own public functions, in the order
    its ``Client.get_oauth_signature`` calls them; the OAuth parameters
    reach the base string as they do there, through the ``Authorization``
    header that ``parameters.prepare_headers`` makes of them. The class is
    made on first use, so that oauthlib is imported only by code that signs.
    """
    from oauthlib import oauth1
    from oauthlib.oauth1.rfc5849 import parameters as oauth_parameters
    from oauthlib.oauth1.rfc5849 import signature as oauth_signature

    class QuietClient(oauth1.Client):  # type: ignore[misc]
        def get_oauth_signature(self, request: Any) -> str:
            if self.signature_method == SIGNATURE_PLAINTEXT:
                return str(
                    oauth_signature.sign_plaintext(self.client_secret, self.resource_owner_secret)
                )
            headers = oauth_parameters.prepare_headers(request.oauth_params, request.headers)
            params = oauth_signature.collect_parameters(
                uri_query=urlsplit(request.uri).query, body=request.body, headers=headers
            )
            base_string = oauth_signature.signature_base_string(
                request.http_method,
                oauth_signature.base_string_uri(request.uri, headers.get("Host", None)),
                oauth_signature.normalize_parameters(params),
            )
            return str(oauth_signature.sign_hmac_sha1_with_client(base_string, self))

    return QuietClient
