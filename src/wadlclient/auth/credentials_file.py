"""Credentials files in lazr.restfulclient's INI layout: a file written by either library
is read by the other. Reasons name lines and keys but never quote a file: it holds secrets.

A path is read by `read_credentials_path`, which refuses anything but a
small regular file before reading it (a FIFO would block the process for
ever, ``/dev/zero`` would fill its memory) and warns when others may read it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import stat
from typing import IO, TYPE_CHECKING, Any

from wadlclient.bounded_read import FileRefused, read_regular
from wadlclient.errors import CredentialsFileError

if TYPE_CHECKING:
    import configparser

# configparser and tempfile are imported when a file is read or written:
# most scripts never do, and ``import wadlclient`` should not pay for them.

__all__ = [
    "CREDENTIALS_FILE_VERSION",
    "MAX_CREDENTIALS_BYTES",
    "credentials_text",
    "read_credentials",
    "read_credentials_path",
    "write_private",
]

logger = logging.getLogger("wadlclient.auth")

#: The INI section lazr.restfulclient writes credentials under.
CREDENTIALS_FILE_VERSION = "1"
#: The four keys of the section, in the order lazr.restfulclient writes them.
FILE_KEYS = ("consumer_key", "consumer_secret", "access_token", "access_secret")
#: The most a credentials file may hold (one is about 150 bytes).
MAX_CREDENTIALS_BYTES = 64 * 1024


def credentials_text(values: dict[str, str], name: str) -> str:
    """The file's text for the four values; refuses a value the format would change."""
    import configparser

    parser = configparser.ConfigParser()
    parser.add_section(CREDENTIALS_FILE_VERSION)
    for key, value in values.items():
        if value != value.strip() or "\n" in value or "\r" in value:
            raise CredentialsFileError(
                f"cannot write credentials file {name}: {key} has leading or trailing "
                "whitespace or a line break, which the file format would lose"
            )
        # lazr.restfulclient reads with '%' interpolation on; double it.
        parser.set(CREDENTIALS_FILE_VERSION, key, value.replace("%", "%%"))
    buffer = io.StringIO()
    parser.write(buffer)
    return buffer.getvalue()


def write_private(target: str, text: str) -> None:
    """Write ``text`` to ``target``, mode 0600, replacing it atomically.

    The file is written beside the target and renamed over it, so a reader
    sees the old file or the new one, never half of either.
    """
    directory = os.path.dirname(os.path.abspath(target))
    import tempfile

    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=".credentials-", suffix=".tmp", dir=directory
        )
    except OSError as error:
        raise CredentialsFileError(
            f"cannot write credentials file {target}: {error.strerror or error}"
        ) from None
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as writable:
            writable.write(text)
            writable.flush()
            os.fsync(writable.fileno())
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise CredentialsFileError(
            f"cannot write credentials file {target}: {error.strerror or error}"
        ) from None


def read_credentials(readable: IO[str], name: str) -> dict[str, str]:
    """The four credential values of a lazr.restfulclient credentials file.

    No more of ``readable`` is read than a credentials file may hold (a
    caller's file may be ``/dev/zero``, which never ends).
    """

    def malformed(reason: str) -> CredentialsFileError:
        return CredentialsFileError(f"malformed credentials file {name}: {reason}")

    import configparser

    text = readable.read(MAX_CREDENTIALS_BYTES + 1)
    if len(text) > MAX_CREDENTIALS_BYTES:
        raise CredentialsFileError(
            f"cannot read credentials file {name}: it holds more than {MAX_CREDENTIALS_BYTES} "
            "characters, more than any credentials file"
        )
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source=name)
    except configparser.MissingSectionHeaderError as error:
        raise malformed(f"no section header before line {error.lineno}") from None
    except configparser.ParsingError as error:
        lines = ", ".join(str(line) for line, _ in _parsing_errors(error))
        raise malformed(f"cannot parse line {lines}") from None
    except configparser.Error as error:
        raise malformed(f"{type(error).__name__}") from None
    if not parser.has_section(CREDENTIALS_FILE_VERSION):
        raise malformed(f"no [{CREDENTIALS_FILE_VERSION}] section")
    values: dict[str, str] = {}
    for key in FILE_KEYS:
        if not parser.has_option(CREDENTIALS_FILE_VERSION, key):
            raise malformed(f"no {key} in section [{CREDENTIALS_FILE_VERSION}]")
        try:
            values[key] = parser.get(CREDENTIALS_FILE_VERSION, key)
        except configparser.Error:
            raise malformed(f"{key} has a stray '%' (write '%%' for a percent sign)") from None
    return values


def read_credentials_path(path: str, name: str) -> dict[str, str]:
    """The four credential values of the file at ``path``; errors call it ``name``.

    Only a regular file of at most `MAX_CREDENTIALS_BYTES` is read: its type
    is checked before it is opened and again on the open descriptor (opened
    non-blocking, so a FIFO swapped in between cannot block), and at most
    one byte more than the limit is read. A file that group or others may
    read is read, with a warning.
    """

    def refused(reason: str) -> CredentialsFileError:
        return CredentialsFileError(f"cannot read credentials file {name}: {reason}")

    try:
        data, mode = read_regular(path, MAX_CREDENTIALS_BYTES, "credentials file")
    except FileRefused as error:
        raise refused(error.reason) from None
    except OSError as error:
        raise refused(error.strerror or type(error).__name__) from None
    if mode & 0o044:
        logger.warning(
            "credentials file %s may be read by other users (mode %o): make it private (chmod 600)",
            name,
            stat.S_IMODE(mode),
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CredentialsFileError(f"malformed credentials file {name}: not UTF-8 text") from None
    return read_credentials(io.StringIO(text), name)


def _parsing_errors(error: configparser.ParsingError) -> list[tuple[int, Any]]:
    return [(int(line), text) for line, text in error.errors]
