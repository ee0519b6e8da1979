"""OAuth credentials from an environment variable: CI jobs and containers, no keyring, no file.

``WADLCLIENT_CREDENTIALS`` holds either a credentials file's content (the
INI text lazr.restfulclient and launchpadlib write, starting with its
``[1]`` section, on several lines or one) or the path of such a file.
Errors name the variable and what is wrong, never a value from it: a CI
log is often public, and a secret may be in the variable by mistake.

Credentials read here carry where they came from (``credentials_source``,
``"$WADLCLIENT_CREDENTIALS"``): when the service refuses them, nobody is
there to make new ones, so the login fails at once with
`credentials_refused`'s error instead of asking.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Mapping

from wadlclient.auth.credentials_file import (
    CREDENTIALS_FILE_VERSION,
    FILE_KEYS,
    read_credentials,
    read_credentials_path,
)
from wadlclient.errors import CredentialsFileError, CredentialsRefused, HTTPError

__all__ = ["CREDENTIALS_VARIABLE", "credentials_from_environment", "credentials_refused"]

#: The environment variable read for credentials.
CREDENTIALS_VARIABLE = "WADLCLIENT_CREDENTIALS"


def credentials_from_environment(
    variable: str = CREDENTIALS_VARIABLE, environ: Mapping[str, str] | None = None
) -> dict[str, str] | None:
    """The four credential values the variable holds or points to; None when unset or empty.

    Content is told from a path by its look: it starts with ``[`` or
    names one of the file's keys (``access_token = ...``), which no path
    does. It is read whatever became of its line breaks (kept, written
    ``\\n``, or joined into one line by a CI secret store or an unquoted
    ``$(cat file)``). A path has ``~`` expanded but never ``$VARIABLES``. Raises
    `CredentialsFileError` (one line, no secret) for a file that cannot be
    read or content that is malformed: it names the variable, never the
    value, which may be a secret put in the wrong place.
    """
    value = (os.environ if environ is None else environ).get(variable, "")
    if not value.strip():
        return None
    text = _as_file_text(value)
    if text is not None:
        return read_credentials(io.StringIO(text), f"in ${variable}")
    if _looks_like_content(value):
        raise CredentialsFileError(
            f"${variable} holds neither a credentials file's content (it starts with "
            f"[{CREDENTIALS_FILE_VERSION}]) nor a file's path"
        )
    return read_credentials_path(os.path.expanduser(value.strip()), f"named by ${variable}")


# A pattern, compiled by `re` when first used: most starts set no credentials variable.
_KEY = r"\b(" + "|".join(FILE_KEYS) + r")\s*[=:]\s*"


def _looks_like_content(value: str) -> bool:
    text = value.strip()
    return text.startswith("[") or "\n" in text or "\r" in text or bool(re.search(_KEY, text))


def _as_file_text(value: str) -> str | None:
    """``value`` as a credentials file's lines, when it is credentials with the section header."""
    text = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\n" not in text and "\\n" in text:
        text = text.replace("\\r\\n", "\n").replace("\\n", "\n")
    header = f"[{CREDENTIALS_FILE_VERSION}]"
    if not text.startswith(header):
        return None
    if "\n" in text:
        return text + "\n"
    parts = re.split(_KEY, text[len(header) :])
    # parts: [before the first key, key, value, key, value, ...]
    if parts[0].strip() or len(parts) < 3:
        return text + "\n"  # not the one-line form: the parser says what is wrong
    pairs = zip(parts[1::2], parts[2::2], strict=True)
    lines = [f"{key} = {found.strip()}" for key, found in pairs]
    return "\n".join([header, *lines, ""])


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
