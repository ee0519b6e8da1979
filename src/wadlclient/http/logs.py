"""The ``wadlclient.http`` log: one DEBUG line per exchange and redirect, WARNING per retry.

Header values and bodies are never logged.
"""

from __future__ import annotations

import logging

from wadlclient.errors import ConnectError, ConnectionDropped, TransportError, TransportTimeout

__all__ = ["describe", "log_exchange", "logger"]

logger = logging.getLogger("wadlclient.http")


def log_exchange(method: str, url: str, status: int, outcome: str) -> None:
    """``GET <url> -> 200 (cache: stored)``."""
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s %s -> %d (cache: %s)", method, url, status, outcome)


def describe(error: TransportError) -> str:
    """What went wrong, for a message: ``could not connect (ConnectError: ...)``."""
    if isinstance(error, TransportTimeout):
        kind = "timed out"
    elif isinstance(error, ConnectError):
        kind = "could not connect"
    elif isinstance(error, ConnectionDropped):
        kind = "connection dropped"
    else:
        kind = "transport failure"
    return f"{kind} ({type(error).__name__}: {error})"
