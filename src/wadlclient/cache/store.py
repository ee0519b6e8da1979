"""The cache directory: one file per cached response, written atomically; blobs beside them.

Writes go to a temporary file in the same directory and are renamed into
place, so a reader in any thread or process sees a whole file or none. A
file that cannot be read or understood is a miss; a directory that cannot
be written to means no caching, announced by one warning.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wadlclient.cache.behind import WriteBehind, queue_for, queue_of
from wadlclient.cache.fileformat import parse, read, serialise, storable
from wadlclient.cache.files import (
    TEMP_PREFIX,
    open_regular,
    remove_quietly,
    remove_stale_temporaries,
    write_all,
)
from wadlclient.cache.freshness import CachedResponse, cache_directives, same_use
from wadlclient.cache.names import cache_file_name, cache_key
from wadlclient.errors import CacheError
from wadlclient.headers import Headers, format_http_date

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["HTTPCache"]

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


class HTTPCache:
    """A directory of cached HTTP responses, safe to share between threads and processes.

    ``~`` and environment variables in ``directory`` are expanded.
    ``directory=None`` makes a private temporary directory, removed at
    interpreter exit or by ``close()``. ``clock`` gives the current time
    in seconds since the epoch; tests inject one to check expiry exactly.
    ``write_behind=True`` leaves every response file to a background thread
    (`wadlclient.cache.behind`): every cache object made later on the same
    directory in this process shares the queue and reads the writes at once;
    other readers see them once written; and ``flush()``, ``close()`` and
    interpreter exit write everything. ``refresh_behind=True`` does that only
    for the rewrite a 304 causes (a new Date and validators for a body
    already on disk): a new representation is on disk when ``put`` returns.
    """

    def __init__(
        self,
        directory: str | bytes | os.PathLike[str] | os.PathLike[bytes] | None = None,
        *,
        clock: Callable[[], float] = time.time,
        write_behind: bool = False,
        refresh_behind: bool = False,
    ) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._warned = False
        self._closed = False
        self._media_types: set[str] = set(_WELL_KNOWN_MEDIA_TYPES)
        self._remove_directory: Callable[[], None] | None = None
        if directory is None:
            import atexit
            import shutil
            import tempfile

            path = tempfile.mkdtemp(prefix="wadlclient-cache-")
            self._remove_directory = functools.partial(shutil.rmtree, path, ignore_errors=True)
            atexit.register(self._remove_directory)
        else:
            # "~/.cache/x" and "$XDG_CACHE_HOME/x" mean what they mean in a shell.
            path = os.path.expandvars(os.path.expanduser(os.fsdecode(os.fspath(directory))))
            if not path:
                raise CacheError("the cache directory must not be an empty path")
            if os.path.exists(path) and not os.path.isdir(path):
                raise CacheError(f"cache directory {path!r} exists and is not a directory")
            try:
                os.makedirs(path, mode=0o700, exist_ok=True)
            except OSError as error:
                raise CacheError(
                    f"cannot create cache directory {path!r}: {error.strerror or error}"
                ) from error
            remove_stale_temporaries(path, time.time())
        # Joined as strings on the hot paths: pathlib interns every path part,
        # and a walk over a big collection would intern one name per page.
        self._directory = path
        self._write_behind = write_behind
        self._refresh_behind = refresh_behind
        self._behind: WriteBehind | None
        if write_behind or refresh_behind:
            self._behind = queue_for(path, self._write, self._unlink)
        else:
            self._behind = queue_of(path)

    @property
    def directory(self) -> Path:
        """The cache directory."""
        from pathlib import Path  # made only when asked for: the hot paths join strings

        return Path(self._directory)

    def _path(self, name: str) -> str:
        return os.path.join(self._directory, name)

    def __repr__(self) -> str:
        return f"HTTPCache({str(self.directory)!r})"

    def key(self, url: str, media_type: str) -> str:
        """The cache key, ``<url>-<media type>`` (see ``cache_key``)."""
        return cache_key(url, media_type)

    def filename(self, url: str, media_type: str) -> str:
        """The name of the file holding ``url`` as ``media_type``."""
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

    def put(
        self,
        url: str,
        media_type: str,
        response: Any,
        body: bytes,
    ) -> None:
        """Store a representation of ``url``; a ``no-store`` response removes it instead.

        The file records what a GET answers, so a 209 (PATCH returning the
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
        (`_same_use`). Returns None when nothing usable is stored.
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
            name = self.filename(url, each)
            if self._behind is None:
                self._unlink(name)
            else:
                self._behind.submit(name, None, background=self._write_behind)
                if not self._write_behind:
                    self._behind.flush()
            logger.debug("cache delete: %s (%s)", url, each)

    @property
    def is_private(self) -> bool:
        """Whether this is a private temporary directory (removed at exit)."""
        return self._remove_directory is not None or self._closed

    def has_blob(self, name: str) -> bool:
        """Whether a blob called ``name`` is stored (without reading it)."""
        return not self._closed and os.path.isfile(self._path(_blob_file_name(name)))

    def get_blob(self, name: str) -> bytes | None:
        """The bytes stored with `put_blob` under ``name``, or None.

        Blobs are derived data kept beside the responses (a compiled WADL
        model, say): a missing or unreadable one is simply None, and the
        caller must check what it reads, since any process may write here.
        """
        if self._closed:
            return None
        path = self._path(_blob_file_name(name))
        try:
            with open_regular(path) as file:
                return file.read()
        except (OSError, ValueError) as error:
            logger.debug("cache blob not read: %s: %s", name, type(error).__name__)
            return None

    def put_blob(self, name: str, data: bytes) -> None:
        """Store ``data`` under ``name`` atomically; a failed write is one warning at most.

        ``name`` is letters, digits, ``_``, ``.`` and ``-`` (not first),
        at most 100 characters; it can never name a cached response's file
        nor a temporary file.
        """
        if self._closed:
            return
        if self._write(_blob_file_name(name), data):
            logger.debug("cache blob write: %s (%d bytes)", name, len(data))

    def delete_blob(self, name: str) -> None:
        """Remove the blob ``name`` if it is stored."""
        if not self._closed:
            self._unlink(_blob_file_name(name))

    def flush(self) -> None:
        """Write every response file still waiting for the background writer."""
        if self._behind is not None:
            self._behind.flush()

    def close(self) -> None:
        """Write what waits to be written; remove a private temporary directory now."""
        if self._behind is not None:
            self._behind.close()
        if self._remove_directory is not None:
            self._closed = True
            self._remove_directory()
            import atexit

            atexit.unregister(self._remove_directory)
            self._remove_directory = None

    def _remember(self, media_type: str) -> None:
        if media_type not in self._media_types:
            with self._lock:
                self._media_types.add(media_type)

    def _store(
        self, url: str, media_type: str, response: CachedResponse, *, revalidation: bool = False
    ) -> None:
        """Write an entry: through now, or queued when this cache writes that kind behind.

        With a queue for the directory, even a write-through goes through it
        (and flushes it), so an older queued write never lands after it.
        """
        name = self.filename(url, media_type)
        data = serialise(response, media_type, self.clock())
        if self._behind is not None:
            behind = self._write_behind or (revalidation and self._refresh_behind)
            self._behind.submit(name, data, background=behind)
            logger.debug("cache write queued: %s (%s) -> %s", url, media_type, name)
            if not behind:
                self._behind.flush()
        elif self._write(name, data):
            logger.debug("cache write: %s (%s) -> %s", url, media_type, name)

    def _read(self, name: str) -> CachedResponse | None:
        """The response in file ``name``, or in the write queued for it (read your writes)."""
        if self._behind is not None:
            queued, data = self._behind.pending(name)
            if queued:
                if data is None:
                    raise FileNotFoundError(name)
                head, _, body = data.partition(b"\r\n\r\n")
                return parse(head, body)
        with open_regular(self._path(name)) as file:
            return read(file)

    def _write(self, name: str, data: bytes) -> bool:
        """Replace the file ``name`` atomically; on failure remove it and warn once."""
        import tempfile

        temp_path: str | None = None
        try:
            descriptor, temp_path = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=self._directory)
            try:
                write_all(descriptor, data)
            finally:
                os.close(descriptor)
            os.replace(temp_path, self._path(name))
        except (OSError, ValueError) as error:
            if temp_path is not None:
                remove_quietly(temp_path)
            # The old file no longer matches what should be there.
            remove_quietly(self._path(name))
            self._warn_once(error)
            return False
        return True

    def _unlink(self, name: str) -> None:
        try:
            os.unlink(self._path(name))
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as error:
            self._warn_once(error)

    def _warn_once(self, error: Exception) -> None:
        with self._lock:
            if self._warned:
                return
            self._warned = True
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            reason = "no space left on device"
        logger.warning(
            "cache directory %s cannot be written (%s); continuing without caching",
            self.directory,
            reason,
        )


def _blob_file_name(name: str) -> str:
    if not isinstance(name, str) or not _BLOB_NAME.fullmatch(name):
        raise ValueError(f"invalid cache blob name {name!r}")
    return name
