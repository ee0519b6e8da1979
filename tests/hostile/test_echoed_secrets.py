"""A server that sends the client's credentials back never gets them shown (issue 40).

The hostile server answers 400 and 401 with the request's
``Authorization`` header, the password and the token's secret in its
body and in a header of its own, as a careless or malicious service
would. Every credential the client holds is then searched for in the
raised error (``str``, ``repr``, traceback, pickle), in a bulk report
(``str`` and the JSON `BulkReport.save` writes), in the lazr layer's
error text, in the CLI's error line, and in the log at DEBUG.
"""

from __future__ import annotations

import base64
import json
import logging
import pickle
import re
import traceback
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.server import Exchange, HostileServer, recipe

from wadlclient import AccessToken, BasicHttpAuthorizer, HttpAuthorizer, OAuthAuthorizer, bulk
from wadlclient.errors import HTTPError, RestfulError
from wadlclient.http import Transport
from wadlclient.lazr.restfulclient.errors import from_engine

PASSWORD = "ECHO-pa55word-7"
TOKEN_SECRET = "ECHO-t0ken-s3cret-8"
CONSUMER_SECRET = "ECHO-c0nsumer-9"
TOKEN_KEY = "ECHO-token-key-10"
BEARER = "ECHO-bearer-11"
BASIC_TOKEN = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
SECRETS = (PASSWORD, TOKEN_SECRET, CONSUMER_SECRET, TOKEN_KEY, BEARER, BASIC_TOKEN)


class Bearer(HttpAuthorizer):
    """An authorizer of the caller's own: it names no secret, it only sends one."""

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: object, headers: MutableMapping[str, str]
    ) -> None:
        headers["Authorization"] = f"Bearer {BEARER}"


AUTHORIZERS = {
    "basic": lambda: BasicHttpAuthorizer("ada", PASSWORD),
    "oauth": lambda: OAuthAuthorizer("app", CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET)),
    "oauth-hmac": lambda: OAuthAuthorizer(
        "app", CONSUMER_SECRET, AccessToken(TOKEN_KEY, TOKEN_SECRET), signature_method="HMAC-SHA1"
    ),
    "bearer": Bearer,
}


def echo(status: int) -> Any:
    """A route answering ``status`` with what the request's credentials are, quoted back."""

    def answer(exchange: Exchange) -> None:
        sent = exchange.hit.headers.get("authorization", "")
        scheme, _, credentials = sent.partition(" ")
        quoted = [sent, credentials]
        if scheme == "Basic":
            pair = base64.b64decode(credentials).decode()
            quoted += [pair, pair.partition(":")[2]]
        quoted += [value for _, value in re.findall(r'(oauth_\w+)="([^"]*)"', credentials)]
        body = {"message": f"Refused credentials {sent}", "you sent": quoted}
        exchange.send(status, json.dumps(body).encode(), [("X-Echo", sent)])

    return answer


def leaks(*places: str | bytes) -> list[str]:
    """The secrets found in ``places`` (as they are, or in a bytes pickle)."""
    found = []
    for secret in SECRETS:
        for place in places:
            text = place.decode("latin-1") if isinstance(place, bytes) else place
            if secret in text:
                found.append(secret)
                break
    return found


def shown(error: BaseException) -> list[str | bytes]:
    """Everything a script or a log could show of ``error``, and its pickle."""
    return [
        str(error),
        repr(error),
        "".join(traceback.format_exception(error)),
        pickle.dumps(error),
        str(getattr(error, "content", "")),
    ]


@pytest.mark.parametrize("kind", sorted(AUTHORIZERS))
@pytest.mark.parametrize("status", [400, 401])
def test_credentials_a_server_sends_back_are_in_no_error(
    hostile: HostileServer, kind: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    hostile.routes["/echo"] = echo(status)
    with Transport(authorizer=AUTHORIZERS[kind]()) as transport, pytest.raises(HTTPError) as raised:
        transport.request("GET", f"{hostile.url}/echo")

    error = raised.value
    assert error.status == status and "Refused credentials <hidden>" in str(error)
    lazr = from_engine(error)
    assert leaks(*shown(error), *shown(lazr), caplog.text) == []
    assert hostile.journal()[0].headers["authorization"]  # it was sent, and sent back


def test_a_header_of_the_callers_own_is_hidden_too(hostile: HostileServer) -> None:
    hostile.routes["/echo"] = echo(401)
    with Transport() as transport, pytest.raises(HTTPError) as raised:
        transport.request(
            "GET", f"{hostile.url}/echo", headers={"Authorization": f"Bearer {BEARER}"}
        )

    assert leaks(*shown(raised.value)) == []


def test_a_bulk_report_shows_and_saves_no_echoed_credential(
    hostile: HostileServer, make_root: Any, tmp_path: Path
) -> None:
    root = make_root(BasicHttpAuthorizer("ada", PASSWORD))
    url = f"{hostile.url}/1.0/recipes/1"

    def entry(exchange: Exchange) -> None:
        if exchange.hit.method == "PATCH":
            return echo(400)(exchange)
        exchange.json({**recipe(url, 1), "instructions": "Stir."})

    hostile.routes["/1.0/recipes/1"] = entry

    def reword(item: Any) -> None:
        item.instructions = "Stir well."

    report = bulk.update([root.load(url)], reword)
    saved = Path(report.save(tmp_path / "report.json")).read_text()

    assert not report.ok and "<hidden>" in str(report)
    assert leaks(str(report), repr(report), report.to_json(), saved) == []


@pytest.mark.parametrize("command", ["get", "describe"])
def test_the_cli_error_line_shows_no_echoed_credential(
    hostile: HostileServer,
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wadlclient.cli import main

    hostile.serve_root()
    # describe: the root itself refuses; get: the collection does. Each quotes what it was sent.
    hostile.routes["/1.0/" if command == "describe" else "/1.0/recipes"] = echo(401)
    monkeypatch.setenv("WADLCLIENT_PASSWORD", PASSWORD)
    argv = [command, "--basic", "ada", f"{hostile.url}/"]
    if command == "get":
        argv.append("recipes")

    status = main(argv)

    err = capsys.readouterr().err
    assert (status, err[:28]) == (4, "wadlclient: HTTP Error 401: "), err
    assert leaks(err) == []


def test_an_error_made_without_the_transport_still_hides_what_the_client_sent(
    hostile: HostileServer,
) -> None:
    """The secrets are held from the first request on: any later error quoting them hides them."""
    hostile.routes["/ok"] = lambda exchange: exchange.json({})
    with Transport(authorizer=AUTHORIZERS["basic"]()) as transport:
        transport.request("GET", f"{hostile.url}/ok")

    error = RestfulError(f"the server said: {BASIC_TOKEN} / {PASSWORD}")

    assert leaks(str(error), repr(error), pickle.dumps(error)) == []
