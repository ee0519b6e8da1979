"""``import wadlclient`` leaves out what only OAuth signing and credentials files need.

Each check runs in a fresh interpreter, since this test process has imported
everything already.
"""

from __future__ import annotations

import subprocess
import sys


def _modules_loaded_by(code: str, names: tuple[str, ...]) -> list[str]:
    probe = f"import sys\n{code}\nprint(' '.join(n for n in {names!r} if n in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.split()


def test_importing_the_package_does_not_import_oauthlib_or_configparser():
    loaded = _modules_loaded_by("import wadlclient", ("oauthlib", "configparser"))

    assert loaded == []


def test_oauthlib_is_imported_when_an_oauth_authorizer_signs_hmac_sha1():
    code = (
        "import httpx, wadlclient\n"
        "auth = wadlclient.OAuthAuthorizer('k', '', wadlclient.AccessToken('t', 's'),\n"
        "                                  signature_method='HMAC-SHA1')\n"
        "headers = httpx.Headers()\n"
        "auth.authorizeRequest('http://127.0.0.1/1.0/', 'GET', None, headers)\n"
        "assert headers['authorization'].startswith('OAuth ')"
    )

    assert _modules_loaded_by(code, ("oauthlib",)) == ["oauthlib"]


def test_a_plaintext_signature_does_not_import_oauthlib():
    code = (
        "import httpx, wadlclient\n"
        "auth = wadlclient.OAuthAuthorizer('k', '', wadlclient.AccessToken('t', 's'))\n"
        "headers = httpx.Headers()\n"
        "auth.authorizeRequest('http://127.0.0.1/1.0/', 'GET', None, headers)\n"
        "assert 'oauth_signature_method=\"PLAINTEXT\"' in headers['authorization']"
    )

    assert _modules_loaded_by(code, ("oauthlib",)) == []
