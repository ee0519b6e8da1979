"""OAuth credentials from an environment variable: CI jobs and containers, no keyring, no file.

``WADLCLIENT_CREDENTIALS`` holds either a credentials file's content (the
INI text lazr.restfulclient and launchpadlib write, starting with its
``[1]`` section) or the path of such a file. Errors name the variable and
what is wrong, never a value from it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping

from wadlclient.auth.credentials_file import CREDENTIALS_FILE_VERSION, read_credentials
from wadlclient.errors import CredentialsFileError

__all__ = ["CREDENTIALS_VARIABLE", "credentials_from_environment"]

#: The environment variable read for credentials.
CREDENTIALS_VARIABLE = "WADLCLIENT_CREDENTIALS"


def credentials_from_environment(
    variable: str = CREDENTIALS_VARIABLE, environ: Mapping[str, str] | None = None
) -> dict[str, str] | None:
    """The four credential values the variable holds or points to; None when unset or empty.

    Content is told from a path by its first line: a file's content starts
    with its ``[1]`` section header. Raises `CredentialsFileError` (one line,
    no secret) for a file that cannot be read or content that is malformed.
    """
    value = (os.environ if environ is None else environ).get(variable, "")
    if not value.strip():
        return None
    if value.lstrip().startswith(f"[{CREDENTIALS_FILE_VERSION}]"):
        return read_credentials(io.StringIO(value), f"in ${variable}")
    if "\n" in value or value.lstrip().startswith("["):
        raise CredentialsFileError(
            f"${variable} holds neither a credentials file's content (it starts with "
            f"[{CREDENTIALS_FILE_VERSION}]) nor a file's path"
        )
    path = os.path.expandvars(os.path.expanduser(value.strip()))
    try:
        with open(path, encoding="utf-8") as readable:
            return read_credentials(readable, f"{path} (named by ${variable})")
    except OSError as error:
        raise CredentialsFileError(
            f"cannot read credentials file {path} (named by ${variable}): "
            f"{error.strerror or error}"
        ) from None
    except UnicodeDecodeError:
        raise CredentialsFileError(
            f"malformed credentials file {path} (named by ${variable}): not UTF-8 text"
        ) from None
