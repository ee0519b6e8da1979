"""lazr.restfulclient's null and HTTP Basic authorizers (re-exported by ``authorize``)."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TypeVar

from wadlclient import auth as _engine
from wadlclient.lazr import named_as_lazr

__all__ = ["BasicHttpAuthorizer", "HttpAuthorizer"]

_T = TypeVar("_T")


def _lazr_module(cls: type[_T]) -> type[_T]:
    """lazr's module for these classes is ``lazr.restfulclient.authorize``, not ``._basic``."""
    named_as_lazr(cls).__module__ = "lazr.restfulclient.authorize"
    return cls


@_lazr_module
class HttpAuthorizer(_engine.HttpAuthorizer):
    """The null authorizer, and the interface every authorizer implements."""

    __repr__ = object.__repr__


@_lazr_module
class BasicHttpAuthorizer(_engine.BasicHttpAuthorizer, HttpAuthorizer):
    """HTTP Basic, setting the ``authorization`` key as lazr does."""

    __repr__ = object.__repr__
    # The header's spelling changes, not the credentials: Basic's principal holds.
    principal = _engine.BasicHttpAuthorizer.principal

    def authorizeRequest(
        self,
        absolute_uri: str,
        method: str,
        body: bytes | str | None,
        headers: MutableMapping[str, str],
    ) -> None:
        super().authorizeRequest(absolute_uri, method, body, headers)
        headers["authorization"] = headers.pop("Authorization")
