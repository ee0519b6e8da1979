"""OAuth credentials from an environment variable: CI jobs and containers, no keyring, no file.

``WADLCLIENT_CREDENTIALS`` holds either a credentials file's content (the
INI text lazr.restfulclient and launchpadlib write, starting with its
``[1]`` section) or the path of such a file. Errors name the variable and
what is wrong, never a value from it.

Credentials read here carry where they came from (``credentials_source``,
``"$WADLCLIENT_CREDENTIALS"``): when the service refuses them, nobody is
there to make new ones, so the login fails at once with
`credentials_refused`'s error instead of asking.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping

from wadlclient.auth.credentials_file import CREDENTIALS_FILE_VERSION, read_credentials
from wadlclient.errors import CredentialsFileError, CredentialsRefused, HTTPError

__all__ = ["CREDENTIALS_VARIABLE", "credentials_from_environment", "credentials_refused"]

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


def credentials_refused(
    source: str, credentials: object = None, refusal: HTTPError | None = None
) -> CredentialsRefused:
    """The one-line error for credentials from ``source`` (``"$WADLCLIENT_CREDENTIALS"``) refused.

    ``refusal`` (the 401, when known) adds the URL and the server's first
    line, unless that line holds a secret of ``credentials`` (an OAuth
    authorizer or launchpadlib's ``Credentials``): a server may echo a
    PLAINTEXT signature, and this message goes to logs.
    """
    where = ""
    if refusal is not None:
        said = refusal.server_message()
        if any(secret in said for secret in _secrets_of(credentials)):
            said = ""
        where = f" ({refusal.url or 'the service'} answered {refusal.status}"
        where += f": {said})" if said else ")"
    return CredentialsRefused(
        f"the service refused the OAuth credentials in {source}{where}: the token has "
        f"expired, was revoked or was never issued there; make new credentials and put "
        f"them in {source} (see 'Credentials in CI' in wadlclient's docs)"
    )


def _secrets_of(credentials: object) -> list[str]:
    """The non-empty consumer and token secrets an authorizer or Credentials holds."""
    holders = (getattr(credentials, "consumer", None), getattr(credentials, "access_token", None))
    found = [getattr(holder, "secret", None) for holder in holders]
    return [secret for secret in found if isinstance(secret, str) and secret]
