"""The HTTP rules of every cache, whatever keeps its bytes: what is stored, merged and served.

`CacheRules` holds them once: a ``no-store`` response is removed, not
stored; a 209 or 304 is stored as the 200 a GET would answer; a 304's
headers are merged into the stored entry (`refresh`); entries are written
in lazr's file layout (`fileformat`), which drops every credential header.
A subclass says only where the bytes go: `HTTPCache` a directory,
`StoreCache` any `CacheStore` (memory, Redis, a store of your own).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from wadlclient.cache.fileformat import serialise, storable
from wadlclient.cache.freshness import CachedResponse, cache_directives, same_use
from wadlclient.cache.names import cache_file_name, cache_key
from wadlclient.headers import Headers, format_http_date

__all__ = ["CacheRules", "check_blob_name"]

logger = logging.getLogger("wadlclient.cache")

#: Blob names: no comma (every cache file name has one before its digest),
#: no leading dot (temporary files), nothing a file system could object to.
_BLOB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", re.ASCII)
# Not taken from a 304: it carries no body, so these would describe nothing.
_BODY_HEADERS = frozenset({b"content-length", b"content-type", b"content-encoding"})

# Media types delete() removes when not told which one.
_WELL_KNOWN_MEDIA_TYPES = (
    "application/json",
    "application/vnd.sun.wadl+xml",
    "application/vnd.example.wadl+xml",
    "application/xhtml+xml",
)


def _status_of(response: Any) -> int:
    """A response's status: ``status`` (ours), or ``status_code`` (an httpx.Response)."""
    status = getattr(response, "status", None)
    return int(status if status is not None else response.status_code)


def check_blob_name(name: str) -> str:
    """``name`` if it may name a blob: 1-100 letters, digits, ``_ . -``, a letter or digit first.

    Such a name can never be a cached response's name (those hold a comma)
    nor a temporary file's (those start with a dot).
    """
    if not isinstance(name, str) or not _BLOB_NAME.fullmatch(name):
        raise ValueError(f"invalid cache blob name {name!r}")
    return name


class CacheRules:
    """The HTTP caching rules over a place that keeps named bytes; subclasses say which place.

    A subclass implements `_read`, `_save`, `_discard`, `_load_blob`,
    `_save_blob`, `_has_blob` and `_discard_blob`; `is_private`, `flush`
    and `close` when it has something to say. ``clock`` gives the current
    time in seconds since the epoch; tests inject one to check expiry exactly.
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._media_types: set[str] = set(_WELL_KNOWN_MEDIA_TYPES)

    # -- what a subclass provides -------------------------------------------------

    def _read(self, name: str) -> CachedResponse | None:
        """The entry ``name``; None when malformed; FileNotFoundError when missing."""
        raise NotImplementedError

    def _save(self, name: str, data: bytes, *, revalidation: bool) -> bool:
        """Store an entry's bytes; ``revalidation``: a 304's rewrite. False when not stored."""
        raise NotImplementedError

    def _discard(self, name: str) -> None:
        """Remove the entry ``name`` if it is there."""
        raise NotImplementedError

    def _load_blob(self, name: str) -> bytes | None:
        raise NotImplementedError

    def _save_blob(self, name: str, data: bytes) -> bool:
        raise NotImplementedError

    def _has_blob(self, name: str) -> bool:
        raise NotImplementedError

    def _discard_blob(self, name: str) -> None:
        raise NotImplementedError

    @property
    def is_private(self) -> bool:
        """Whether the store dies with this process (then no WADL model is persisted in it)."""
        return False

    def flush(self) -> None:
        """Write whatever waits to be written (nothing, unless a subclass writes behind)."""

    def close(self) -> None:
        """Stop using the store."""
        self._closed = True

    # -- the rules ----------------------------------------------------------------

    def key(self, url: str, media_type: str) -> str:
        """The cache key, ``<url>-<media type>`` (see ``cache_key``)."""
        return cache_key(url, media_type)

    def filename(self, url: str, media_type: str) -> str:
        """The name the store keeps ``url`` as ``media_type`` under (lazr's file name)."""
        return cache_file_name(cache_key(url, media_type))

    def get(self, url: str, media_type: str) -> CachedResponse | None:
        """The stored response, or None when missing, unreadable or malformed."""
        if self._closed:
            return None
        self._remember(media_type)
        name = self.filename(url, media_type)
        try:
            cached = self._read(name)
        except FileNotFoundError:
            logger.debug("cache miss: %s (%s)", url, media_type)
            return None
        except (OSError, ValueError) as error:
            logger.debug("cache unreadable: %s (%s): %s", url, media_type, type(error).__name__)
            return None
        if cached is None or not 200 <= cached.status < 300:
            logger.debug("cache entry not usable, treated as a miss: %s (%s)", url, media_type)
            return None
        logger.debug("cache hit: %s (%s)", url, media_type)
        return cached

    def put(self, url: str, media_type: str, response: Any, body: bytes) -> None:
        """Store a representation of ``url``; a ``no-store`` response removes it instead.

        The entry records what a GET answers, so a 209 (PATCH returning the
        new representation) or a 304 is stored as 200. ``response`` is
        anything with a status and headers (a mapping or pairs).
        """
        if self._closed:
            return
        status, headers = _status_of(response), Headers(response.headers)
        if "no-store" in cache_directives(headers):
            logger.debug("cache: not storing (no-store): %s (%s)", url, media_type)
            self.delete(url, media_type)
            return
        if status in (209, 304):
            status = 200
        self._remember(media_type)
        self._store(url, media_type, CachedResponse(status, headers, body))

    def refresh(
        self, url: str, media_type: str, not_modified: Any, stored: object = None
    ) -> CachedResponse | None:
        """Merge a 304's headers into the stored entry and rewrite it.

        The entry is then as fresh as if the server had sent the whole
        representation again: the 304's Date (or now, if it has none),
        ETag, Cache-Control and Expires replace the stored ones; the
        stored Age, which described the old response, is dropped. An entry
        that can never be fresh and keeps its validators is not rewritten
        (`same_use`). Returns None when nothing usable is stored.
        ``stored``, the entry whose validators were sent (as `get`
        returned it), saves reading it again.
        """
        cached = stored if isinstance(stored, CachedResponse) else self.get(url, media_type)
        if cached is None:
            return None
        fresh_headers = Headers(not_modified.headers).raw
        fresh = {name.lower() for name, _ in fresh_headers}
        merged = [
            (name, value)
            for name, value in cached.headers.raw
            if name.lower() not in fresh and name.lower() != b"age"
        ]
        merged += [
            (name, value) for name, value in fresh_headers if name.lower() not in _BODY_HEADERS
        ]
        if b"date" not in fresh:
            now = format_http_date(self.clock()).encode("ascii")
            merged = [(n, v) for n, v in merged if n.lower() != b"date"] + [(b"date", now)]
        refreshed = CachedResponse(cached.status, Headers(storable(merged)), cached.body)
        if "no-store" in cache_directives(refreshed.headers):
            self.delete(url, media_type)
        elif not same_use(cached, refreshed):
            self._store(url, media_type, refreshed, revalidation=True)
        return refreshed

    def delete(self, url: str, media_type: str | None = None) -> None:
        """Forget ``url`` as ``media_type``, or as every media type seen or well known."""
        if self._closed:
            return
        if media_type is not None:
            media_types = [media_type]
        else:
            with self._lock:
                media_types = sorted(self._media_types)
        for each in media_types:
            self._discard(self.filename(url, each))
            logger.debug("cache delete: %s (%s)", url, each)

    def has_blob(self, name: str) -> bool:
        """Whether a blob called ``name`` is stored (without reading it)."""
        return not self._closed and self._has_blob(check_blob_name(name))

    def get_blob(self, name: str, *, fill: bool = False) -> bytes | None:
        """The bytes stored with `put_blob` under ``name``, or None.

        Blobs are derived data kept beside the responses (a compiled WADL
        model, say): a missing or unreadable one is simply None, and the
        caller must check what it reads, since any process may write here.
        ``fill=True``: the caller will make and store the blob if it is
        missing, so a store shared by processes may have it wait for one
        that is making it already (`StoreCache`); here it changes nothing.
        """
        if self._closed:
            return None
        return self._load_blob(check_blob_name(name))

    def put_blob(self, name: str, data: bytes) -> None:
        """Store ``data`` under ``name`` atomically; a failed write is one warning at most.

        ``name`` is letters, digits, ``_``, ``.`` and ``-`` (not first),
        at most 100 characters; it can never name a cached response nor a
        temporary file.
        """
        if self._closed:
            return
        if self._save_blob(check_blob_name(name), data):
            logger.debug("cache blob write: %s (%d bytes)", name, len(data))

    def delete_blob(self, name: str) -> None:
        """Remove the blob ``name`` if it is stored."""
        if not self._closed:
            self._discard_blob(check_blob_name(name))

    def _remember(self, media_type: str) -> None:
        if media_type not in self._media_types:
            with self._lock:
                self._media_types.add(media_type)

    def _store(
        self, url: str, media_type: str, response: CachedResponse, *, revalidation: bool = False
    ) -> None:
        name = self.filename(url, media_type)
        data = serialise(response, media_type, self.clock())
        if self._save(name, data, revalidation=revalidation):
            logger.debug("cache write: %s (%s) -> %s", url, media_type, name)
