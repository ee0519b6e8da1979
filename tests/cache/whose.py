"""A small real service whose answer for one URL depends on who asks (issue 30's probes).

Two users, ``ann`` and ``bob``, hold OAuth tokens of one consumer
(verified by the cookbook service's own OAuth code, PLAINTEXT); anyone
else is anonymous. ``GET /<case>`` answers ``{"user": ..., "data": ...}``
for the asker, with the headers of the case (`CASES`): every validator
names the user, so one user's ETag or Last-Modified sent by another shows
in the journal. A request whose validator is the asker's own gets 304.
The journal keeps, per request: path, user, If-None-Match,
If-Modified-Since, status. Tests start one per test (port 0).
"""

from __future__ import annotations

import email.utils
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from cookbook_service.auth import AuthenticationFailed, authenticate_request
from wadlclient import AccessToken, OAuthAuthorizer
from wadlclient.testing.server import LoopbackHTTPServer

CONSUMER = "whose-test"
TOKENS = {"ann": ("ann-token", "ann-secret"), "bob": ("bob-token", "bob-secret")}
#: Bearer tokens (``Authorization: Bearer <token>[, anything]``) -> their user.
BEARERS = {"ann-bearer-5f1c9e": "ann", "bob-bearer-a7d204": "bob"}
HOUR = 3600
_TOKEN = re.compile(r'oauth_token="([^"]*)"')
# Each user's Last-Modified: a day apart, so they never match by chance.
_MODIFIED = {"ann": 1_600_000_000, "bob": 1_600_086_400, "anonymous": 1_600_172_800}


def _etag(user: str) -> dict[str, str]:
    return {"ETag": f'"{user}-v1"'}


def _lifetime(value: str) -> Callable[[str], dict[str, str]]:
    return lambda user: {"Cache-Control": value, **_etag(user)}


#: case -> the headers of its answer for a user (a function of the user's name).
CASES: dict[str, Callable[[str], dict[str, str]]] = {
    "max-age": lambda user: {"Cache-Control": f"max-age={HOUR}"},
    "expires": lambda user: {
        "Expires": email.utils.formatdate(time.time() + HOUR, usegmt=True)
    },
    "private": lambda user: {"Cache-Control": f"private, max-age={HOUR}"},
    "vary-authorization": lambda user: {
        "Cache-Control": f"max-age={HOUR}",
        "Vary": "Accept, Authorization",
    },
    "etag": _etag,
    "last-modified": lambda user: {
        "Last-Modified": email.utils.formatdate(_MODIFIED[user], usegmt=True)
    },
    "no-store": lambda user: {"Cache-Control": "no-store", **_etag(user)},
    "public": _lifetime(f"public, max-age={HOUR}"),
    "s-maxage": _lifetime(f"s-maxage={HOUR}"),
    "must-revalidate": _lifetime(f"must-revalidate, max-age={HOUR}"),
    "public-stale": _lifetime("public"),
    "s-maxage-zero": _lifetime(f"s-maxage=0, max-age={HOUR}"),
    "public-vary-authorization": lambda user: {
        "Cache-Control": f"public, max-age={HOUR}",
        "Vary": "Authorization",
    },
    "vary-user-agent": lambda user: {
        "Cache-Control": f"public, max-age={HOUR}",
        "Vary": "User-Agent",
    },
}
#: The cases whose answer says another principal may be given it.
SHAREABLE = ("public", "s-maxage", "must-revalidate")


@dataclass(frozen=True)
class Seen:
    """One request as the service saw it."""

    path: str
    user: str
    if_none_match: str | None
    if_modified_since: str | None
    status: int


class _Store:
    """The cookbook service's `CredentialStore`, for the two users' tokens."""

    def password_record(self, username: str) -> tuple[str, str] | None:
        return None

    def consumer_secret(self, consumer_key: str) -> str | None:
        return "" if consumer_key == CONSUMER else None

    def token(self, consumer_key: str, token_key: str) -> tuple[str, str] | None:
        for key, secret in TOKENS.values():
            if token_key == key:
                return secret, "write"
        return None


class WhoseService:
    """The running service: ``url(case)``, ``journal``, and who each token is."""

    def __init__(self) -> None:
        self.journal: list[Seen] = []
        self._lock = threading.Lock()
        self._server = LoopbackHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def url(self, case: str) -> str:
        return self.base_url + case

    def seen(self) -> list[Seen]:
        with self._lock:
            return list(self.journal)

    def clear(self) -> None:
        with self._lock:
            self.journal.clear()

    def record(self, seen: Seen) -> None:
        with self._lock:
            self.journal.append(seen)

    def who(self, method: str, path: str, headers: dict[str, str]) -> str:
        """The user the request proves it is ("anonymous" without credentials or a token)."""
        if "authorization" not in headers:
            return "anonymous"
        scheme, _, value = headers["authorization"].partition(" ")
        if scheme == "Bearer":
            user = BEARERS.get(value.partition(",")[0])
            if user is None:
                raise AuthenticationFailed("unknown bearer token")
            return user
        principal = authenticate_request("oauth", method, self.base_url + path, headers, _Store())
        token = _TOKEN.search(headers["authorization"])
        if principal.access == "anonymous" or token is None:
            return "anonymous"
        return next(user for user, (key, _) in TOKENS.items() if key == token.group(1))

    @contextmanager
    def running(self) -> Iterator[WhoseService]:
        thread = threading.Thread(target=self._server.serve_forever, args=(0.01,), daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            thread.join()
            self._server.server_close()


def authorizer(user: str) -> OAuthAuthorizer:
    """An authorizer for ``user`` (``"ann"``, ``"bob"``), or an anonymous one."""
    key, secret = TOKENS.get(user, ("", ""))
    return OAuthAuthorizer(CONSUMER, "", AccessToken(key, secret))


def _handler_for(service: WhoseService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            headers = {name.lower(): value for name, value in self.headers.items()}
            case = self.path.lstrip("/").partition("?")[0]
            try:
                user = service.who("GET", self.path.lstrip("/"), headers)
            except AuthenticationFailed:
                return self._send(401, {}, b"", case, "refused", headers)
            if case not in CASES:
                return self._send(404, {}, b"", case, user, headers)
            answer = {"Date": email.utils.formatdate(usegmt=True), **CASES[case](user)}
            if _not_modified(answer, headers):
                return self._send(304, answer, b"", case, user, headers)
            body = json.dumps({"user": user, "data": f"{user}'s private data"}).encode()
            answer["Content-Type"] = "application/json"
            self._send(200, answer, body, case, user, headers)

        def _send(
            self,
            status: int,
            answer: dict[str, str],
            body: bytes,
            case: str,
            user: str,
            asked: dict[str, str],
        ) -> None:
            service.record(
                Seen(case, user, asked.get("if-none-match"), asked.get("if-modified-since"), status)
            )
            self.send_response(status)
            for name, value in answer.items():
                self.send_header(name, value)
            if status != 304:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def _not_modified(answer: dict[str, str], asked: dict[str, str]) -> bool:
    """Whether the request's validator is the asker's own current one."""
    if "ETag" in answer and asked.get("if-none-match") == answer["ETag"]:
        return True
    return "Last-Modified" in answer and asked.get("if-modified-since") == answer["Last-Modified"]
