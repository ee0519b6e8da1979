"""lazr.restfulclient's OAuth classes, on wadlclient's OAuth signer.

Where lazr behaves differently from wadlclient's own API, this module
follows lazr: ``str(token)`` is the wire form with the secret, and
`AccessToken.from_string` raises ``KeyError`` for a missing part.
"""

from __future__ import annotations

import socket
from urllib.parse import parse_qs

from wadlclient import auth as _engine
from wadlclient.lazr import named_as_lazr
from wadlclient.lazr.restfulclient.authorize._basic import HttpAuthorizer

__all__ = [
    "AccessToken",
    "Consumer",
    "OAuthAuthorizer",
    "SystemWideConsumer",
]

CREDENTIALS_FILE_VERSION = _engine.CREDENTIALS_FILE_VERSION


@named_as_lazr
class Consumer(_engine.Consumer):
    """An OAuth consumer (application)."""

    __repr__ = object.__repr__


@named_as_lazr
class AccessToken(_engine.AccessToken):
    """An OAuth access token; ``str()`` is its wire form, as in lazr."""

    __repr__ = object.__repr__

    def __str__(self) -> str:
        return self.to_string()

    @classmethod
    def from_string(cls, text: str) -> AccessToken:
        """Parse ``oauth_token=...&oauth_token_secret=...``; KeyError if a part is missing."""
        params = parse_qs(text, keep_blank_values=False)
        return cls(params["oauth_token"][0], params["oauth_token_secret"][0])


@named_as_lazr
class SystemWideConsumer(Consumer):
    """A consumer for the logged-in user of this computer rather than one application.

    Its key names the platform and the host, so desktop applications can
    share one token.
    """

    KEY_FORMAT = "System-wide: %s (%s)"

    def __init__(self, application_name: str, secret: str = "") -> None:
        super().__init__(self.consumer_key, secret, application_name)

    @property
    def consumer_key(self) -> str:
        """The system-wide consumer key: distribution (or OS) name and host name."""
        return self.KEY_FORMAT % (_distribution_name(), socket.gethostname())


def _distribution_name() -> str:
    """The Linux distribution's name (``distro`` when installed), else the OS name."""
    try:
        import distro

        name = str(distro.name())
    except Exception:
        name = ""
    if name:
        return name
    import platform

    return platform.system()


@named_as_lazr
class OAuthAuthorizer(_engine.OAuthAuthorizer, HttpAuthorizer):
    """Signs every request with OAuth (PLAINTEXT), as lazr's authorizer does."""

    __repr__ = object.__repr__
