"""A recording keeps no secret: named like one, or equal to a credential the session holds.

A real HTTP server on loopback (the hostile server, scripted) asks for and
answers secrets in every place a service can put them; the session is
recorded through wadlclient's transport, then replayed with the server
unused. Every secret is a distinct string, so a search of every file the
recorder wrote finds any that escaped.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.server import Exchange, HostileServer, running_server

from wadlclient import AccessToken, BasicHttpAuthorizer, OAuthAuthorizer
from wadlclient.auth import SIGNATURE_HMAC_SHA1
from wadlclient.errors import HTTPError
from wadlclient.http import Transport
from wadlclient.testing import FakeService
from wadlclient.testing.record import RecordingSender, ReplaySender, recorded_root, replayed_root
from wadlclient.testing.scrub import secret_name

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def server() -> Iterator[HostileServer]:
    """A scriptable server of this test's own."""
    yield from running_server()


def written(directory: Path) -> str:
    """Every file the recorder wrote, as one text."""
    return "\n".join(path.read_text("utf-8") for path in sorted(directory.iterdir()))


def exchanges(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text("utf-8"))["exchanges"])


# -- by name ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["password", "Password", "PASSWD", "passphrase", "secret", "client_secret", "clientSecret",
     "access_secret", "oauth_token_secret", "token", "oauth_token", "access_token", "csrf-token",
     "X-Auth-Token", "key", "api_key", "apiKey", "x-api-key", "X-API-KEY", "private_key",
     "signature", "oauth_signature", "oauth_verifier", "password_confirmation", "secret_value"],
)  # fmt: skip
def test_a_name_that_looks_like_a_secret_is_one(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize(
    "name",
    ["ws.op", "ws.start", "display_name", "keys", "tokens", "key_type", "signing_key_fingerprint",
     "ssh_keys_collection_link", "gpg_keys_collection_link", "signature_link", "self_link",
     "oauth_signature_method", "oauth_consumer_key_link", "keywords", "http_etag", "id"],
)  # fmt: skip
def test_a_name_that_a_replay_needs_is_not_a_secret(name: str) -> None:
    assert not secret_name(name)


ECHO_PATH = "/1.0/echo"
SECRETS_ANSWERED = (
    "correct horse battery staple", "987654321", "deep secret value", "acc-SECRET-1",
    "oauth-TOKEN-1", "apikey-SECRET", "query-SECRET-1", "header-SECRET-1", "location-SECRET-1",
    "cookie-SECRET-1", "form-TOKEN-2", "form-SECRET-2", "issued-TOKEN-3",
)  # fmt: skip
SECRETS_SENT = (
    "query+SECRET+4", "query SECRET 4", "query-SECRET-5", "nested-SECRET-6", "nested-SECRET-6b",
    "correct horse, battery staple 7", "123456789", "nested SECRET 8", "form+SECRET+9",
    "form SECRET 9", "form%26SECRET10", "form&SECRET10",
)  # fmt: skip


def serve_secrets(server: HostileServer) -> None:
    """Routes answering secrets in a JSON body, headers, a form body and an operation's answer."""

    def echo(exchange: Exchange) -> None:
        document = {
            "self_link": server.url + ECHO_PATH,
            "ssh_keys_collection_link": server.url + "/1.0/~ada/sshkeys",
            "keys": ["k1"],
            "key_type": "rsa",
            "display_name": "Ada",
            "password": "correct horse battery staple",
            "Password": 987654321,
            "client_secret": {"nested": ["deep secret value"]},
            "access_secret": "acc-SECRET-1",
            "oauth_token": "oauth-TOKEN-1",
            "apiKey": "apikey-SECRET",
            "note": "see https://example.com/?api_key=query-SECRET-1&page=2",
        }
        headers = [
            ("X-Api-Key", "header-SECRET-1"),
            ("Location", server.url + "/1.0/next?access_token=location-SECRET-1&page=2"),
            ("Set-Cookie", "session=cookie-SECRET-1"),
        ]
        exchange.send(200, json.dumps(document).encode(), headers)

    def form(exchange: Exchange) -> None:
        body = b"oauth_token=form-TOKEN-2&oauth_token_secret=form-SECRET-2&lp.context=none"
        exchange.send(200, body, content_type=FORM)

    def operation(exchange: Exchange) -> None:
        exchange.json("issued-TOKEN-3")  # what issueAccessToken answers: the token, bare

    server.routes.update({ECHO_PATH: echo, "/1.0/form": form, "/1.0/token": operation})


def send_secrets(transport: Transport, url: str) -> list[Any]:
    """Requests carrying secrets in a query (nested in another value too), JSON and forms."""
    query = (
        "?token=query+SECRET+4&api_key=query-SECRET-5&ws.op=getThing"
        "&next=https%3A%2F%2Fx%2F%3Fpassword%3dnested-SECRET-6%26page%3D2"
        "&again=password%3Dnested-SECRET-6b"
    )
    json_body = {"password": "correct horse, battery staple 7", "api_key": 123456789,
                 "secret": {"a": ["nested SECRET 8"]}, "keep": "visible-1"}  # fmt: skip
    answers = [
        transport.request("GET", url + ECHO_PATH + query, follow_redirects=False),
        transport.request("POST", url + ECHO_PATH, body=json.dumps(json_body),
                          content_type="application/json", follow_redirects=False),
        transport.request("POST", url + "/1.0/form", body="Password=form+SECRET+9"
                          "&passwd=form%26SECRET10&keep=visible-2", content_type=FORM),
        transport.request("POST", url + "/1.0/token", body="ws.op=issueAccessToken&description=ci",
                          content_type=FORM),
    ]  # fmt: skip
    return [(a.status, a.headers.get("location"), a.content) for a in answers]


def test_values_named_like_secrets_are_scrubbed_whole_in_requests_and_answers(
    server: HostileServer, tmp_path: Path
) -> None:
    serve_secrets(server)
    path = tmp_path / "session.json"

    with Transport(sender=RecordingSender(path)) as transport:
        send_secrets(transport, server.url)

    text = written(tmp_path)
    assert [s for s in SECRETS_ANSWERED + SECRETS_SENT if s in text] == []
    first, posted, form, issued = exchanges(path)
    assert json.loads(first["body"]["text"]) == {
        "self_link": server.url + ECHO_PATH,
        "ssh_keys_collection_link": server.url + "/1.0/~ada/sshkeys",
        "keys": ["k1"], "key_type": "rsa", "display_name": "Ada",
        "password": "<scrubbed>", "Password": "<scrubbed>", "client_secret": "<scrubbed>",
        "access_secret": "<scrubbed>", "oauth_token": "<scrubbed>", "apiKey": "<scrubbed>",
        "note": "see https://example.com/?api_key=<scrubbed>&page=2",
    }  # fmt: skip
    assert first["url"] == server.url + ECHO_PATH + (
        "?token=<scrubbed>&api_key=<scrubbed>&ws.op=getThing"
        "&next=https%3A%2F%2Fx%2F%3Fpassword%3d<scrubbed>%26page%3D2&again=password%3D<scrubbed>"
    )
    assert first["headers"]["x-api-key"] == first["headers"]["set-cookie"] == "<scrubbed>"
    assert first["headers"]["location"].endswith("/1.0/next?access_token=<scrubbed>&page=2")
    assert json.loads(posted["request_body"]["text"]) == {
        "password": "<scrubbed>", "api_key": "<scrubbed>", "secret": "<scrubbed>",
        "keep": "visible-1",
    }  # fmt: skip
    assert form["request_body"]["text"] == "Password=<scrubbed>&passwd=<scrubbed>&keep=visible-2"
    assert form["body"]["text"] == (
        "oauth_token=<scrubbed>&oauth_token_secret=<scrubbed>&lp.context=none"
    )
    assert issued["body"]["text"] == '"<scrubbed>"'


def test_a_scrubbed_session_replays_other_secrets_without_the_server(
    server: HostileServer, tmp_path: Path
) -> None:
    serve_secrets(server)
    path = tmp_path / "session.json"
    with Transport(sender=RecordingSender(path)) as transport:
        recorded = send_secrets(transport, server.url)
    served = len(server.journal())

    with Transport(sender=ReplaySender(path)) as transport:
        replayed = send_secrets(transport, server.url)

    assert len(server.journal()) == served == 4  # the replay sent nothing
    assert [(status, location) for status, location, _ in replayed] == [
        (status, location and location.replace("location-SECRET-1", "<scrubbed>"))
        for status, location, _ in recorded
    ]
    assert json.loads(replayed[0][2])["display_name"] == "Ada"
    assert json.loads(replayed[3][2]) == "<scrubbed>"


# -- by value: the credentials of the session ----------------------------------------------

OAUTH_SECRETS = ("consumer-SECRET-a", "token-KEY-b-1234", "token-SECRET-c")


def echo_credentials(server: HostileServer) -> None:
    """Routes that echo the caller's credentials under names that say nothing of secrets."""

    def sent(exchange: Exchange) -> str:
        scheme, _, value = exchange.hit.headers.get("authorization", "").partition(" ")
        return base64.b64decode(value).decode() if scheme == "Basic" else value

    def echo(exchange: Exchange) -> None:
        said = sent(exchange)
        exchange.json({"you_sent": said, "parts": said.split(","), "path": exchange.hit.path})

    def oops(exchange: Exchange) -> None:
        said = "bad signature for " + sent(exchange)
        exchange.send(400, said.encode(), content_type="text/plain")

    server.routes.update({"/1.0/echo": echo, "/1.0/oops": oops})
    server.routes["/1.0/tokens/token-KEY-b-1234"] = echo


@pytest.mark.parametrize(
    ("authorizer", "secrets"),
    [
        (OAuthAuthorizer("kitchen", "consumer-SECRET-a", AccessToken("token-KEY-b-1234",
                                                                     "token-SECRET-c")),
         OAUTH_SECRETS),
        (BasicHttpAuthorizer("ada", "basic-PASSWORD-d"), ("basic-PASSWORD-d",)),
    ],
    ids=["oauth-plaintext", "basic"],
)  # fmt: skip
def test_credentials_sent_are_scrubbed_wherever_the_service_echoes_them(
    server: HostileServer, tmp_path: Path, authorizer: Any, secrets: tuple[str, ...]
) -> None:
    echo_credentials(server)
    path = tmp_path / "session.json"
    sender = RecordingSender(path)  # it learns the credentials from the Authorization header

    with Transport(authorizer=authorizer, sender=sender, auth_origin=server.url) as transport:
        echoed = transport.request("GET", server.url + "/1.0/echo").content
        with pytest.raises(HTTPError) as refused:
            transport.request("GET", server.url + "/1.0/oops")
        transport.request("GET", server.url + "/1.0/tokens/token-KEY-b-1234")

    assert all(secret.encode() in echoed for secret in secrets)  # the service did echo them
    # An error never holds them (issue 40): its body is kept with what the client sent hidden.
    assert [secret for secret in secrets if secret.encode() in refused.value.content] == []
    assert b"<hidden>" in refused.value.content
    text = written(tmp_path)
    assert [secret for secret in secrets if secret in text] == []


def test_the_recording_replays_a_path_that_held_a_credential(
    server: HostileServer, tmp_path: Path
) -> None:
    echo_credentials(server)
    path = tmp_path / "session.json"
    authorizer = OAuthAuthorizer("kitchen", "", AccessToken("token-KEY-b-1234", "token-SECRET-c"))
    with Transport(authorizer=authorizer, sender=RecordingSender(path)) as transport:
        transport.request("GET", server.url + "/1.0/tokens/token-KEY-b-1234")
    assert exchanges(path)[0]["url"] == server.url + "/1.0/tokens/<scrubbed>"

    with Transport(sender=ReplaySender(path)) as transport:  # no credentials at all now
        answer = transport.request("GET", server.url + "/1.0/tokens/token-KEY-b-1234")

    assert answer.json()["path"] == "/1.0/tokens/<scrubbed>"
    assert len(server.journal()) == 1


def test_secrets_of_an_hmac_authorizer_never_on_the_wire_are_scrubbed_too(
    server: HostileServer, tmp_path: Path
) -> None:
    token = AccessToken("token-KEY-h-1234", "token-SECRET-h")
    authorizer = OAuthAuthorizer(
        "kitchen", "consumer-SECRET-h", token, signature_method=SIGNATURE_HMAC_SHA1
    )
    root_url = server.serve_root()
    document = {"motd": "your secrets: consumer-SECRET-h token-SECRET-h",
                "recipes_collection_link": root_url + "recipes"}  # fmt: skip
    server.serve_root(document=document)
    path = tmp_path / "session.json"

    with recorded_root(path, authorizer, server.url, version="1.0") as root:
        root.recipes  # noqa: B018

    assert "token-SECRET-h" not in written(tmp_path)
    assert "consumer-SECRET-h" not in written(tmp_path)
    with replayed_root(path, None, server.url, version="1.0") as root:
        assert root.recipes is not None


# -- a launchpadlib program, unchanged ------------------------------------------------------

LP_SECRETS = ("consumer-SECRET-lp", "token-KEY-lp-1234", "token-SECRET-lp-1234")


def run_logged_in(
    option: str, path: Path, root: str, version: str
) -> subprocess.CompletedProcess[str]:
    credentials = (
        "[1]\nconsumer_key = recorder\nconsumer_secret = consumer-SECRET-lp\n"
        "access_token = token-KEY-lp-1234\naccess_secret = token-SECRET-lp-1234\n"
    )
    environment = {**os.environ, "WADLCLIENT_CREDENTIALS": credentials}
    script = Path(__file__).with_name("lp_logged_in_script.py")
    return subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", option, str(path), str(script), root,
         version],
        capture_output=True, text=True, timeout=60, check=False, env=environment,
    )  # fmt: skip


def test_a_launchpadlib_session_keeps_no_credential_even_where_the_service_echoes_one(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    with FakeService(launchpad_wadl_bytes) as fake:
        fake.add("people", name="ada", display_name="token-SECRET-lp-1234")  # echoed back
        recorded = run_logged_in("--record", path, fake.service_root, fake.version)
        root, version = fake.service_root, fake.version
    assert recorded.returncode == 0, recorded.stderr
    assert json.loads(recorded.stdout) == ["token-SECRET-lp-1234"]

    replayed = run_logged_in("--replay", path, root, version)

    assert [secret for secret in LP_SECRETS if secret in written(tmp_path)] == []
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == ["<scrubbed>"]
