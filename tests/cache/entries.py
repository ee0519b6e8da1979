"""Entries for the HTTPCache storage tests: a hand-moved clock and responses to store."""

from __future__ import annotations

import email.utils
from pathlib import Path

import httpx

from wadlclient.cache import HTTPCache

URL = "http://127.0.0.1:8080/1.0/recipes/1"
JSON = "application/json"
T0 = 1_700_000_000.0  # a whole second, as HTTP dates are


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def http_date(timestamp: float) -> str:
    return email.utils.formatdate(timestamp, usegmt=True)


def response(headers: dict[str, str] | None = None, body: bytes = b'{"id": 1}') -> httpx.Response:
    base = {"Content-Type": JSON, "Date": http_date(T0), "ETag": '"v1"'}
    base.update(headers or {})
    return httpx.Response(200, headers=base, content=body)


def stored_file(cache: HTTPCache, url: str = URL, media_type: str = JSON) -> Path:
    return cache.directory / cache.filename(url, media_type)


# Freshness
