"""The cache directory: one file per cached response, written atomically; blobs beside them.

Writes go to a temporary file in the same directory and are renamed into
place, so a reader in any thread or process sees a whole file or none. A
file that cannot be read or understood is a miss; a directory that cannot
be written to means no caching, announced by one warning. A file that is
not a regular file (a FIFO, a link) or bigger than `HTTPCache.MAX_ENTRY_BYTES`
is a miss with a warning, refused before a byte of it is read.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from wadlclient.bounded_read import FileRefused, read_regular
from wadlclient.cache.behind import WriteBehind, queue_for, queue_of
from wadlclient.cache.fileformat import parse, read
from wadlclient.cache.files import (
    TEMP_PREFIX,
    open_regular,
    remove_quietly,
    remove_stale_temporaries,
    write_all,
)
from wadlclient.cache.freshness import CachedResponse
from wadlclient.cache.locations import check_location
from wadlclient.cache.rules import CacheRules
from wadlclient.errors import CacheError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["HTTPCache"]

logger = logging.getLogger("wadlclient.cache")


class HTTPCache(CacheRules):
    """A directory of cached HTTP responses, safe to share between threads and processes.

    The HTTP rules are `CacheRules`'; this class keeps their bytes as
    files, one per response in lazr.restfulclient's layout, blobs beside them.
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

    #: The most a cached response or blob may hold: above the transport's largest
    #: body (64 MiB by default) with its headers. A bigger one is not written.
    MAX_ENTRY_BYTES: ClassVar[int] = 80 * 1024 * 1024

    def __init__(
        self,
        directory: str | bytes | os.PathLike[str] | os.PathLike[bytes] | None = None,
        *,
        clock: Callable[[], float] = time.time,
        write_behind: bool = False,
        refresh_behind: bool = False,
    ) -> None:
        super().__init__(clock)
        self._warned = False
        self._remove_directory: Callable[[], None] | None = None
        if directory is None:
            import atexit
            import shutil
            import tempfile

            path = tempfile.mkdtemp(prefix="wadlclient-cache-")
            self._remove_directory = functools.partial(shutil.rmtree, path, ignore_errors=True)
            atexit.register(self._remove_directory)
        else:
            if isinstance(directory, (str, bytes)):
                check_location(directory)  # "memcached://..." is no directory
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

    @property
    def is_private(self) -> bool:
        """Whether this is a private temporary directory (removed at exit)."""
        return self._remove_directory is not None or self._closed

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

    # -- where the bytes go: files ------------------------------------------------

    def _read(self, name: str) -> CachedResponse | None:
        """The response in file ``name``, or in the write queued for it (read your writes)."""
        if self._behind is not None:
            queued, data = self._behind.pending(name)
            if queued:
                if data is None:
                    raise FileNotFoundError(name)
                head, _, body = data.partition(b"\r\n\r\n")
                return parse(head, body)
        try:
            with open_regular(self._path(name), self.MAX_ENTRY_BYTES) as file:
                return read(file, self.MAX_ENTRY_BYTES)
        except FileRefused as error:
            self._refused(name, error)
            return None

    def _save(self, name: str, data: bytes, *, revalidation: bool) -> bool:
        """Write an entry: through now, or queued when this cache writes that kind behind.

        With a queue for the directory, even a write-through goes through it
        (and flushes it), so an older queued write never lands after it.
        An entry too big to be read back is not stored; the one it replaces goes.
        """
        if len(data) > self.MAX_ENTRY_BYTES:
            self._discard(name)
            return False
        if self._behind is None:
            return self._write(name, data)
        behind = self._write_behind or (revalidation and self._refresh_behind)
        self._behind.submit(name, data, background=behind)
        if not behind:
            self._behind.flush()
        return True

    def _discard(self, name: str) -> None:
        if self._behind is None:
            self._unlink(name)
        else:
            self._behind.submit(name, None, background=self._write_behind)
            if not self._write_behind:
                self._behind.flush()

    def _has_blob(self, name: str) -> bool:
        return os.path.isfile(self._path(name))

    def _load_blob(self, name: str) -> bytes | None:
        try:
            path = self._path(name)
            return read_regular(path, self.MAX_ENTRY_BYTES, "cache entry", follow_links=False).data
        except FileRefused as error:
            self._refused(name, error)
            return None
        except (OSError, ValueError) as error:
            logger.debug("cache blob not read: %s: %s", name, type(error).__name__)
            return None

    def _save_blob(self, name: str, data: bytes) -> bool:
        if len(data) > self.MAX_ENTRY_BYTES:
            self._unlink(name)
            return False
        return self._write(name, data)

    def _discard_blob(self, name: str) -> None:
        self._unlink(name)

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

    def _refused(self, name: str, error: FileRefused) -> None:
        logger.warning(
            "cache file %s in %s not read (%s): treated as a miss",
            name,
            self.directory,
            error.reason,
        )

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
