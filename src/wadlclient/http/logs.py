"""The ``wadlclient.http`` log: one DEBUG line per exchange and redirect, WARNING per retry.

A line per call: method, URL, status, what the cache did and how long the
call took (retries and redirects included). Header values and bodies are
never logged, nor a URL's password or query values named like secrets
(`wadlclient.redact.shown_url`).
"""

from __future__ import annotations

import logging
import time

from wadlclient.errors import ConnectError, ConnectionDropped, TransportError, TransportTimeout
from wadlclient.redact import shown_url

__all__ = ["describe", "log_exchange", "logger"]

logger = logging.getLogger("wadlclient.http")


def log_exchange(method: str, url: str, status: int, outcome: str, began: float) -> None:
    """``GET <url> -> 200 (cache: stored) in 0.012 s`` (``began``: the call's monotonic start)."""
    if logger.isEnabledFor(logging.DEBUG):
        seconds = time.monotonic() - began
        shown = shown_url(url)
        logger.debug("%s %s -> %d (cache: %s) in %.3f s", method, shown, status, outcome, seconds)


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
