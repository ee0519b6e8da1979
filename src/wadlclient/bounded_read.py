"""Reading a local file the library did not write this moment: a small regular file, or nothing.

Credentials files, recordings and the WADL files beside them, cache
entries: a path may name a FIFO (opening it for reading waits for a
writer for ever), a device (``/dev/zero`` never ends), or a file of
gigabytes (read whole, it exhausts memory). `read_regular` refuses all
three before reading a byte: the path is checked (`os.stat`), then
opened without waiting (``O_NONBLOCK``: a FIFO swapped in meanwhile
cannot block) and checked again (`os.fstat`); the size is checked
before the read, and the read stops one byte past the limit (a file
that grows meanwhile). What is refused is a `FileRefused`, an `OSError`,
whose reason names no path: each caller raises its own error, naming
the file as its user knows it, or treats it as a miss.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import NamedTuple

__all__ = ["FileRefused", "RegularFile", "open_regular", "read_regular"]

#: Bytes read at a time.
_PIECE = 1024 * 1024
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


class FileRefused(OSError):
    """A file not read: not a regular file, or bigger than its kind may be (``reason``)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(code, reason)
        self.reason = reason


class RegularFile(NamedTuple):
    """A file's bytes, and its mode as it was opened (its permissions, say)."""

    data: bytes
    mode: int


def read_regular(
    path: str | os.PathLike[str], limit: int, kind: str, *, follow_links: bool = True
) -> RegularFile:
    """The whole of the regular file at ``path``, of at most ``limit`` bytes.

    ``kind`` names what the file is to the caller ("credentials file"),
    in the reason a file too big gives. ``follow_links=False`` refuses a
    symbolic link (a cache keeps its own files, never links out of it).
    `FileRefused` for a file that is not regular or too big; any other
    `OSError` (the file is not there, not readable) as the system gave it.
    """
    descriptor, opened = open_regular(path, limit, kind, follow_links=follow_links)
    try:
        data = _read_at_most(descriptor, opened.st_size + 1, limit + 1)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise FileRefused(errno.EFBIG, f"it holds more than {limit} bytes, more than any {kind}")
    return RegularFile(data, opened.st_mode)


def open_regular(
    path: str | os.PathLike[str], limit: int, kind: str, *, follow_links: bool = True
) -> tuple[int, os.stat_result]:
    """A descriptor open for reading on the regular file at ``path``, and its status.

    As `read_regular`, for a caller that reads the file in its own way:
    the file was at most ``limit`` bytes when opened; reading no more than
    ``limit + 1`` bytes of it is the caller's part. The caller closes it.
    """
    found = os.stat(path, follow_symlinks=follow_links)
    _check(found, limit, kind)
    flags = _FLAGS if follow_links else _FLAGS | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    try:
        opened = os.fstat(descriptor)
        _check(opened, limit, kind)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, opened


def _check(found: os.stat_result, limit: int, kind: str) -> None:
    mode = found.st_mode
    for test, name in _KINDS:
        if test(mode):
            raise FileRefused(errno.EINVAL, f"it is {name}, not a regular file")
    if not stat.S_ISREG(mode):
        raise FileRefused(errno.EINVAL, "it is not a regular file")
    if found.st_size > limit:
        raise FileRefused(errno.EFBIG, f"it holds {found.st_size} bytes, more than any {kind}")


def _read_at_most(descriptor: int, expected: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``descriptor``, to its end: one read of ``expected`` first.

    A file as big as its size says is read in one piece, with no copy; one
    that grows (or a file whose size says nothing) is read on in pieces.
    """
    parts: list[bytes] = []
    left, want = limit, min(expected, limit)
    while left > 0:
        part = os.read(descriptor, want)
        if not part:
            break
        parts.append(part)
        left -= len(part)
        want = min(left, _PIECE)
    return b"".join(parts)
