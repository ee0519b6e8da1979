"""The HTTP rules of every cache, whatever keeps its bytes: what is stored, merged and served.

`CacheRules` holds them once: a ``no-store`` response is removed, not
stored; a 209 or 304 is stored as the 200 a GET would answer; a 304's
headers are merged into the stored entry (`refresh`); entries are written
in lazr's file layout (`fileformat`), which drops every credential header.
Whose answer an entry is, and who may read it, is `sharing`'s: each call
names the principal asking (None: anonymous) and the request's headers.
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
from wadlclient.cache.freshness import CachedResponse, same_use
from wadlclient.cache.names import cache_file_name, cache_key
from wadlclient.cache.sharing import (
    Asker,
    Place,
    has_partition,
    partition_key,
    placement,
    record,
    usable,
)
from wadlclient.headers import Headers, HeadersInput, format_http_date
from wadlclient.redact import shown_url

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


def _asker(principal: str | None, headers: HeadersInput | None) -> Asker:
    """Who asks, with the request's headers as `Headers` (not copied when they are)."""
    if headers is None or isinstance(headers, Headers):
        return Asker(principal, headers)
    return Asker(principal, Headers(headers))


def _merged(stored: Headers, fresh_headers: list[tuple[bytes, bytes]], now: float) -> Headers:
    """A stored entry's headers with a 304's merged in (see `CacheRules.refresh`)."""
    fresh = {name.lower() for name, _ in fresh_headers}
    merged = [
        (name, value)
        for name, value in stored.raw
        if name.lower() not in fresh and name.lower() != b"age"
    ]
    merged += [(name, value) for name, value in fresh_headers if name.lower() not in _BODY_HEADERS]
    if b"date" not in fresh:
        stamp = format_http_date(now).encode("ascii")
        merged = [(n, v) for n, v in merged if n.lower() != b"date"] + [(b"date", stamp)]
    return Headers(storable(merged))


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

    def settle(self, url: str, media_type: str) -> None:
        """The exchange for ``url`` as ``media_type`` is over, stored or not.

        Nothing to do here; a cache that lets one process fetch for many
        (`StoreCache`) ends that process's claim.
        """

    def close(self) -> None:
        """Stop using the store."""
        self._closed = True

    # -- the rules ----------------------------------------------------------------

    def key(self, url: str, media_type: str) -> str:
        """The cache key, ``<url>-<media type>`` (see ``cache_key``)."""
        return cache_key(url, media_type)

    def filename(self, url: str, media_type: str, principal: str | None = None) -> str:
        """The name ``url`` as ``media_type`` is kept under: lazr's file name.

        With a ``principal`` (a fingerprint), the name in its partition.
        """
        key = cache_key(url, media_type)
        if has_partition(principal):
            assert principal is not None
            key = partition_key(key, principal)
        return cache_file_name(key)

    def get(
        self,
        url: str,
        media_type: str,
        *,
        principal: str | None = None,
        headers: HeadersInput | None = None,
    ) -> CachedResponse | None:
        """The stored response ``principal`` may use, or None (missing, unreadable, not theirs).

        ``headers``: the request's (for ``Vary``). The principal's partition
        is read first, then the shared entry (see `wadlclient.cache.sharing`).
        """
        if self._closed:
            return None
        self._remember(media_type)
        asker = _asker(principal, headers)
        if has_partition(principal):
            found = self._lookup(url, media_type, asker, Place.PARTITION)
            if found is not None:
                return found
        return self._lookup(url, media_type, asker, Place.SHARED)

    def _lookup(
        self, url: str, media_type: str, asker: Asker, place: Place
    ) -> CachedResponse | None:
        name = self.filename(url, media_type, asker.principal if place is Place.PARTITION else None)
        try:
            cached = self._read(name)
        except FileNotFoundError:
            logger.debug("cache miss: %s (%s, %s)", shown_url(url), media_type, place.value)
            return None
        except (OSError, ValueError) as error:
            logger.debug(
                "cache unreadable: %s (%s): %s", shown_url(url), media_type, type(error).__name__
            )
            return None
        if cached is None or not 200 <= cached.status < 300:
            logger.debug(
                "cache entry not usable, treated as a miss: %s (%s)", shown_url(url), media_type
            )
            return None
        found = usable(cached, asker, media_type, place, self.clock())
        if found is None:
            logger.debug("cache entry not for this request: %s (%s)", shown_url(url), media_type)
            return None
        logger.debug("cache hit: %s (%s, %s)", shown_url(url), media_type, place.value)
        return found

    def put(
        self,
        url: str,
        media_type: str,
        response: Any,
        body: bytes,
        *,
        principal: str | None = None,
        headers: HeadersInput | None = None,
    ) -> None:
        """Store ``principal``'s answer for ``url``, where `sharing` says; else remove the old one.

        The entry records what a GET answers, so a 209 (PATCH returning the
        new representation) or a 304 is stored as 200. ``response`` is
        anything with a status and headers (a mapping or pairs); ``headers``
        are the request's (for ``Vary``). A ``no-store`` or ``private``
        answer that cannot be kept where it may be read removes what is there.
        """
        if self._closed:
            return
        status, answer = _status_of(response), Headers(response.headers)
        asker = _asker(principal, headers)
        place = placement(answer, asker, media_type)
        meta = record(answer, asker, media_type) if place is not None else None
        if place is None or meta is None:
            logger.debug(
                "cache: not storing (its headers forbid it): %s (%s)", shown_url(url), media_type
            )
            self.delete(url, media_type, principal=principal)
            return
        if status in (209, 304):
            status = 200
        self._remember(media_type)
        entry = CachedResponse(status, answer, body, meta, place is Place.SHARED)
        self._store(url, media_type, entry, principal)
        if place is Place.SHARED and has_partition(principal):
            # Else the principal's older private copy would be found first.
            self._discard(self.filename(url, media_type, principal))

    def refresh(
        self,
        url: str,
        media_type: str,
        not_modified: Any,
        stored: object = None,
        *,
        principal: str | None = None,
        headers: HeadersInput | None = None,
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
        cached = stored if isinstance(stored, CachedResponse) else None
        if cached is None:
            cached = self.get(url, media_type, principal=principal, headers=headers)
        if cached is None:
            return None
        merged = _merged(cached.headers, Headers(not_modified.headers).raw, self.clock())
        asker = _asker(principal, headers)
        place = placement(merged, asker, media_type)
        meta = record(merged, asker, media_type) if place is not None else None
        shared = place is Place.SHARED
        refreshed = CachedResponse(cached.status, merged, cached.body, meta or (), shared)
        if place is None or meta is None:
            self.delete(url, media_type, principal=principal)
        elif shared != cached.shared:
            self._discard(self.filename(url, media_type, None if cached.shared else principal))
            self._store(url, media_type, refreshed, principal, revalidation=True)
        elif not same_use(cached, refreshed):
            self._store(url, media_type, refreshed, principal, revalidation=True)
        return refreshed

    def delete(
        self, url: str, media_type: str | None = None, *, principal: str | None = None
    ) -> None:
        """Forget ``url`` as ``media_type`` (else as every media type seen or well known).

        The shared entry goes, and ``principal``'s own; other principals'
        partitions cannot be named, and are revalidated as usual.
        """
        if self._closed:
            return
        if media_type is not None:
            media_types = [media_type]
        else:
            with self._lock:
                media_types = sorted(self._media_types)
        for each in media_types:
            self._discard(self.filename(url, each))
            if has_partition(principal):
                self._discard(self.filename(url, each, principal))
            logger.debug("cache delete: %s (%s)", shown_url(url), each)

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
        self,
        url: str,
        media_type: str,
        response: CachedResponse,
        principal: str | None,
        *,
        revalidation: bool = False,
    ) -> None:
        name = self.filename(url, media_type, None if response.shared else principal)
        data = serialise(response, self.clock())
        if self._save(name, data, revalidation=revalidation):
            logger.debug("cache write: %s (%s) -> %s", shown_url(url), media_type, name)
