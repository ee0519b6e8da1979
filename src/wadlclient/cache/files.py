"""The cache directory's files: atomic writes, safe opens, and what died mid-write.

Writes go to a temporary file (named with `TEMP_PREFIX`) beside their
target and are renamed into place; temporaries older than
`STALE_TEMP_SECONDS` are what a killed process left behind.
"""

from __future__ import annotations

import contextlib
import io
import os

from wadlclient.bounded_read import open_regular as open_bounded

__all__ = [
    "STALE_TEMP_SECONDS",
    "TEMP_PREFIX",
    "open_regular",
    "remove_quietly",
    "remove_stale_temporaries",
    "write_all",
]

#: Temporary files start with a dot; ``cache_file_name`` never does.
TEMP_PREFIX = ".wadlclient-tmp-"
#: A temporary file older than this was left by a process that died mid-write.
STALE_TEMP_SECONDS = 600.0


def write_all(descriptor: int, data: bytes) -> None:
    """Write all of ``data`` (``os.write`` may write less than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]


def remove_quietly(path: str | os.PathLike[str]) -> None:
    """Remove a file if it is there; a failure is not this caller's to report."""
    with contextlib.suppress(OSError, ValueError):
        os.unlink(path)


def open_regular(path: str, limit: int) -> io.FileIO:
    """A cache file opened for reading, when a regular file of at most ``limit`` bytes.

    Opening never waits (a FIFO planted in the directory) nor follows a
    link out of it; anything else is a `FileRefused` (`bounded_read`).
    """
    descriptor, _ = open_bounded(path, limit, "cache entry", follow_links=False)
    return io.FileIO(descriptor, "rb")


def remove_stale_temporaries(directory: str, now: float) -> None:
    """Remove temporary files that processes killed mid-write left behind."""
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if not entry.name.startswith(TEMP_PREFIX):
                    continue
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(entry.path)
    except OSError:
        return
