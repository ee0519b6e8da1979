"""launchpadlib's ``login_with`` in a container: credentials from $WADLCLIENT_CREDENTIALS.

The child process is container-like: its HOME cannot hold a directory
(/dev/null), the only keyring backend fails on any use, stdin is closed
(a prompt would fail at once), and nothing names a credentials file. It
runs unchanged launchpadlib code under ``python -m wadlclient.lazr_compat``
against the Launchpad-like loopback service, whose journal shows the
token every request was signed with. One child runs every case of
`CASES` in turn, as CI jobs on one container would, each with its own
variable and service (`containers`): the tests only read what each sent
and saw. A login that raised gives the line its crash would end on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.lazr.lpservice import LaunchpadLike, LoopbackServer

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
    args = ["login_from_environment", server.service_root, "-"]
    return _container(args, credentials, timeout, cache)


def _container(
    args: list[str], credentials: str | None, timeout: float, cache: str | None
) -> subprocess.CompletedProcess[str]:
    """``lp_scenarios.py ARGS`` in a container-like child."""
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
    command = [sys.executable, "-m", "wadlclient.lazr_compat", str(SCENARIOS), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=timeout, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


#: Each case of `containers`: its $WADLCLIENT_CREDENTIALS (None: unset; FILE: a file holding
#: `CREDENTIALS`), and how its service is set up before the run.
CASES: dict[str, tuple[str | None, Callable[[LaunchpadLike], None]]] = {
    "variable": (CREDENTIALS, lambda state: None),
    "file": ("FILE", lambda state: None),
    # login_with("ci-bot") asks for the system-wide consumer; launchpadlib alone
    # would drop these credentials and start an interactive authorization.
    "named_consumer": (CREDENTIALS.replace("ci-bot", "other-bot"), lambda state: None),
    "malformed": (CREDENTIALS.replace("access_secret", "secret"), lambda state: None),
    # launchpadlib alone answers 401 "Expired token" with its authorization
    # engine: a request token from the web root, then a browser or a prompt.
    "expired": (CREDENTIALS, lambda state: state.expired_tokens.add("ci-token")),
    # The root's WADL and JSON are answered, then no more.
    "expires_later": (CREDENTIALS, lambda state: state.expires_after.update({"ci-token": 2})),
    # Last: without credentials, launchpadlib tries its keyring and its prompt.
    "unset": (None, lambda state: None),
}

Ran = dict[str, tuple[LoopbackServer, dict[str, Any]]]


@pytest.fixture(scope="module")
def containers(
    launchpad_wadl_bytes: bytes, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Ran]:
    """The `CASES`, run in turn by one container-like child, each on a service of its own."""
    path = tmp_path_factory.mktemp("credentials") / "lp-credentials"
    path.write_text(CREDENTIALS)
    with ExitStack() as stack:
        servers: list[LoopbackServer] = []
        cases: list[tuple[str, str | None]] = []
        for credentials, set_up in CASES.values():
            server = stack.enter_context(LoopbackServer(launchpad_wadl_bytes))
            set_up(server.state)
            servers.append(server)
            cases.append((server.service_root, str(path) if credentials == "FILE" else credentials))
        results = answer(_container(["containers", json.dumps(cases)], None, 120, None))
        yield dict(zip(CASES, zip(servers, results, strict=True), strict=True))


def logged_in(containers: Ran, case: str) -> tuple[LoopbackServer, dict[str, Any]]:
    """A case's service and what its login found; a login that raised fails its own test."""
    server, result = containers[case]
    assert "raised" not in result, result["traceback"]
    return server, result


def crashed(containers: Ran, case: str) -> tuple[LoopbackServer, str, str]:
    """A case's service, the line its crash ends on, and all the crash prints."""
    server, result = containers[case]
    assert "raised" in result, result
    return server, result["raised"], result["traceback"]


def test_login_with_reads_the_credentials_from_the_variable_with_no_keyring_and_no_home(
    containers: Ran,
) -> None:
    server, result = logged_in(containers, "variable")

    assert result["store"] == "EnvironmentCredentialStore"
    assert result["people"] == ["ada", "alan", "grace"]
    tokens = {exchange.token for exchange in server.state.journal}
    assert tokens == {"ci-token"}


def test_the_variable_may_name_a_credentials_file(containers: Ran) -> None:
    server, result = logged_in(containers, "file")

    assert result["people"] == ["ada", "alan", "grace"]
    assert {exchange.token for exchange in server.state.journal} == {"ci-token"}


def test_credentials_issued_to_a_named_consumer_serve_login_with_its_application_name(
    containers: Ran,
) -> None:
    server, result = logged_in(containers, "named_consumer")

    assert result["people"] == ["ada", "alan", "grace"]
    assert {exchange.token for exchange in server.state.journal} == {"ci-token"}


def test_malformed_credentials_in_the_variable_are_one_line_naming_it_never_quoting_it(
    containers: Ran,
) -> None:
    server, last, printed = crashed(containers, "malformed")

    assert last == (
        "wadlclient.errors.CredentialsFileError: malformed credentials file "
        "in $WADLCLIENT_CREDENTIALS: no access_secret in section [1]"
    )
    assert "ci-secret" not in printed
    assert server.state.journal == []


def test_a_token_the_service_calls_expired_fails_at_once_naming_the_variable_and_no_prompt(
    containers: Ran,
) -> None:
    server, last, printed = crashed(containers, "expired")

    assert last == (
        "wadlclient.errors.CredentialsRefused: the service refused the OAuth credentials in "
        "$WADLCLIENT_CREDENTIALS: the token has expired, was revoked or was never issued there; "
        "make new credentials and put them in $WADLCLIENT_CREDENTIALS "
        "(see 'Credentials in CI' in wadlclient's docs)"
    )
    assert "ci-secret" not in printed
    sent = [(exchange.method, exchange.token, exchange.status)
            for exchange in server.state.journal]  # fmt: skip
    assert sent == [("GET", "ci-token", 401)]  # the WADL, refused; nothing after it


def test_a_token_that_expires_after_login_fails_the_next_call_the_same_way(
    containers: Ran,
) -> None:
    server, last, _printed = crashed(containers, "expires_later")

    assert last.startswith(
        "wadlclient.errors.CredentialsRefused: the service refused the OAuth credentials in "
        "$WADLCLIENT_CREDENTIALS: "
    )
    sent = [(exchange.path, exchange.status) for exchange in server.state.journal]
    assert sent == [("/1.0/", 200), ("/1.0/", 200), ("/1.0/people?ws.size=150", 401)]


def test_without_the_variable_the_same_container_cannot_log_in(containers: Ran) -> None:
    server, _last, _printed = crashed(containers, "unset")

    assert server.state.journal == []
