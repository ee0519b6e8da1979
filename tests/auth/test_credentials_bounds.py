"""An open file handed to ``load`` is read no further than a credentials file may hold.

Issue 40, point 4. ``load_from_path`` refuses what is not a small regular file before opening
it (tests/auth/test_credentials_environment.py); ``load`` is handed a file
the caller opened, which may never end.
"""

from __future__ import annotations

import pytest

from wadlclient.auth import OAuthAuthorizer
from wadlclient.auth.credentials_file import MAX_CREDENTIALS_BYTES
from wadlclient.errors import CredentialsFileError


def test_loading_from_an_open_file_that_never_ends_is_one_error() -> None:
    authorizer = OAuthAuthorizer("placeholder")

    with (
        open("/dev/zero", encoding="utf-8") as endless,
        pytest.raises(CredentialsFileError) as caught,
    ):
        authorizer.load(endless)

    assert str(caught.value) == (
        f"cannot read credentials file /dev/zero: it holds more than {MAX_CREDENTIALS_BYTES} "
        "characters, more than any credentials file"
    )
