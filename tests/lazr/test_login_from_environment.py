"""launchpadlib's ``login_with`` in a container: credentials from $WADLCLIENT_CREDENTIALS.

The child process is container-like: its HOME cannot hold a directory
(/dev/null), the only keyring backend fails on any use, stdin is closed
(a prompt would fail at once), and nothing names a credentials file. It
runs unchanged launchpadlib code under ``python -m wadlclient.lazr_compat``
against the Launchpad-like loopback service, whose journal shows the
token every request was signed with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.lazr.lpservice import LoopbackServer

SCENARIOS = Path(__file__).with_name("lp_scenarios.py")
CREDENTIALS = (
    "[1]\nconsumer_key = ci-bot\nconsumer_secret = \n"
    "access_token = ci-token\naccess_secret = ci-secret\n"
)


def run_in_container(
    server: LoopbackServer,
    credentials: str | None,
    timeout: float = 60,
    cache: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """The scenario in a container-like child; ``cache``: its $WADLCLIENT_CACHE."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("HOME", "LP_CREDENTIALS_FILE", "WADLCLIENT_CREDENTIALS", "WADLCLIENT_CACHE")
    }
    env |= {
        "PYTHONPATH": os.pathsep.join(sys.path),
        "HOME": "/dev/null",  # no directory can be made under it, even by root
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    if credentials is not None:
        env["WADLCLIENT_CREDENTIALS"] = credentials
    if cache is not None:
        env["WADLCLIENT_CACHE"] = cache
    command = [sys.executable, "-m", "wadlclient.lazr_compat", str(SCENARIOS),
               "login_from_environment", server.service_root, "-"]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=timeout, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_login_with_reads_the_credentials_from_the_variable_with_no_keyring_and_no_home(
    launchpad_like: LoopbackServer,
) -> None:
    result = answer(run_in_container(launchpad_like, CREDENTIALS))

    assert result["store"] == "EnvironmentCredentialStore"
    assert result["people"] == ["ada", "alan", "grace"]
    tokens = {exchange.token for exchange in launchpad_like.state.journal}
    assert tokens == {"ci-token"}


def test_the_variable_may_name_a_credentials_file(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    path = tmp_path / "lp-credentials"
    path.write_text(CREDENTIALS)

    result = answer(run_in_container(launchpad_like, str(path)))

    assert result["people"] == ["ada", "alan", "grace"]
    assert {exchange.token for exchange in launchpad_like.state.journal} == {"ci-token"}


def test_credentials_issued_to_a_named_consumer_serve_login_with_its_application_name(
    launchpad_like: LoopbackServer,
) -> None:
    # login_with("ci-bot") asks for the system-wide consumer; launchpadlib alone
    # would drop these credentials and start an interactive authorization.
    result = answer(run_in_container(launchpad_like, CREDENTIALS.replace("ci-bot", "other-bot")))

    assert result["people"] == ["ada", "alan", "grace"]
    assert {exchange.token for exchange in launchpad_like.state.journal} == {"ci-token"}


def test_malformed_credentials_in_the_variable_are_one_line_naming_it_never_quoting_it(
    launchpad_like: LoopbackServer,
) -> None:
    done = run_in_container(launchpad_like, CREDENTIALS.replace("access_secret", "secret"))

    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        "wadlclient.errors.CredentialsFileError: malformed credentials file "
        "in $WADLCLIENT_CREDENTIALS: no access_secret in section [1]"
    )
    assert "ci-secret" not in done.stderr
    assert launchpad_like.state.journal == []


def test_a_token_the_service_calls_expired_fails_at_once_naming_the_variable_and_no_prompt(
    launchpad_like: LoopbackServer,
) -> None:
    # launchpadlib alone answers 401 "Expired token" with its authorization
    # engine: a request token from the web root, then a browser or a prompt.
    launchpad_like.state.expired_tokens.add("ci-token")

    done = run_in_container(launchpad_like, CREDENTIALS, timeout=30)

    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == (
        "wadlclient.errors.CredentialsRefused: the service refused the OAuth credentials in "
        "$WADLCLIENT_CREDENTIALS: the token has expired, was revoked or was never issued there; "
        "make new credentials and put them in $WADLCLIENT_CREDENTIALS "
        "(see 'Credentials in CI' in wadlclient's docs)"
    )
    assert "ci-secret" not in done.stderr + done.stdout
    sent = [(exchange.method, exchange.token, exchange.status)
            for exchange in launchpad_like.state.journal]  # fmt: skip
    assert sent == [("GET", "ci-token", 401)]  # the WADL, refused; nothing after it


def test_a_token_that_expires_after_login_fails_the_next_call_the_same_way(
    launchpad_like: LoopbackServer,
) -> None:
    launchpad_like.state.expires_after["ci-token"] = 2  # the root's WADL and JSON, then no more

    done = run_in_container(launchpad_like, CREDENTIALS, timeout=30)

    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].startswith(
        "wadlclient.errors.CredentialsRefused: the service refused the OAuth credentials in "
        "$WADLCLIENT_CREDENTIALS: "
    )
    sent = [(exchange.path, exchange.status) for exchange in launchpad_like.state.journal]
    assert sent == [("/1.0/", 200), ("/1.0/", 200), ("/1.0/people?ws.size=150", 401)]


def test_without_the_variable_the_same_container_cannot_log_in(
    launchpad_like: LoopbackServer,
) -> None:
    done = run_in_container(launchpad_like, None)

    assert done.returncode != 0
    assert launchpad_like.state.journal == []
