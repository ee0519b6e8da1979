"""Every error class of the library and of the lazr layer goes through pickle into another process.

A process pool or a Celery result hands an error to another process by
pickling it (botocore #636: an error whose ``__init__`` takes other
arguments than its ``args`` breaks the pool). Every exception class under
``src/wadlclient`` is found by importing every module, one example of each
is made (`EXAMPLES`: a class without one fails here), pickled, and
unpickled in a real child process, which reports what it got: the class,
the message and the fields a handler reads. The pickled bytes hold none
of the credentials the client sent, even where the server quoted them.
"""

from __future__ import annotations

import base64
import importlib
import json
import pickle
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest

import wadlclient
from wadlclient import BasicHttpAuthorizer, OAuthAuthorizer
from wadlclient.auth import AccessToken
from wadlclient.errors import RestfulError
from wadlclient.headers import Headers
from wadlclient.http.models import Response
from wadlclient.redact import hold_sent, redacted

PASSWORD = "PICKLE-pa55word-1"
TOKEN_SECRET = "PICKLE-t0ken-s3cret-2"
BASIC = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
SECRETS = (PASSWORD, TOKEN_SECRET, BASIC)
URL = "http://127.0.0.1:9/1.0/recipes/1"
ECHO = f"refused: Basic {BASIC} (password {PASSWORD}, token secret {TOKEN_SECRET})"


def _response(status: int) -> Response:
    """An answer whose body and headers quote the credentials sent."""
    headers = Headers({"content-type": "text/plain", "x-echo": f"Basic {BASIC}"})
    return Response(status, "Refused", headers, ECHO.encode(), url=URL)


def _lazr(name: str) -> Callable[[], BaseException]:
    def make() -> BaseException:
        from wadlclient.lazr.restfulclient import errors

        cls = getattr(errors, name)
        if issubclass(cls, errors.ResponseError):
            answer = errors.LazrResponse(401, "Refused", {"x-echo": f"Basic {BASIC}"})
            return cls(answer, ECHO.encode())  # type: ignore[no-any-return]
        return cls(ECHO)  # type: ignore[no-any-return]

    return make


def _http(name: str) -> Callable[[], BaseException]:
    def make() -> BaseException:
        from wadlclient import errors

        error = getattr(errors, name)(_response(401), ECHO.encode(), method="GET")
        error.attempts, error.elapsed = 3, 1.5
        return error  # type: ignore[no-any-return]

    return make


def _transport(name: str) -> Callable[[], BaseException]:
    def make() -> BaseException:
        from wadlclient import errors
        from wadlclient.testing.record import UnrecordedRequest

        cls = UnrecordedRequest if name == "UnrecordedRequest" else getattr(errors, name)
        error = cls(f"GET {URL}: {ECHO}", URL, "GET")
        error.attempts = 2
        return error  # type: ignore[no-any-return]

    return make


def _transport_in(module: str, name: str) -> Callable[[], BaseException]:
    def make() -> BaseException:
        error = getattr(importlib.import_module(module), name)(f"GET {URL}: {ECHO}", URL, "GET")
        error.attempts = 2
        return error  # type: ignore[no-any-return]

    return make


def _replayed(message: str) -> BaseException:
    from wadlclient.webhooks.errors import ReplayedDelivery

    return ReplayedDelivery(message, "2f6d3a4c-delivery")


def _message(module: str, name: str) -> Callable[[], BaseException]:
    return lambda: getattr(importlib.import_module(module), name)(ECHO)  # type: ignore[no-any-return]


def _examples() -> dict[str, Callable[[], BaseException]]:
    from wadlclient.bounded_read import FileRefused
    from wadlclient.bulk.saved import SavedError
    from wadlclient.errors import ConnectionDropped, TransportError
    from wadlclient.http.pool import _Stale
    from wadlclient.http.retry import RetryExhausted
    from wadlclient.testing.errors import HTTPException
    from wadlclient.testing.request_head import BadHead

    lazr = "wadlclient.lazr.restfulclient.errors"
    found: dict[str, Callable[[], BaseException]] = {}
    for name in ("HTTPError", "UnexpectedResponseError", "ClientError", "BadRequest",
                 "Unauthorized", "NotFound", "MethodNotAllowed", "Conflict", "Gone",
                 "PreconditionFailed", "ServerError"):  # fmt: skip
        found[f"wadlclient.errors.{name}"] = _http(name)
    for name in ("TransportError", "ConnectError", "TransportTimeout", "ConnectionDropped",
                 "UnrecordedRequest"):  # fmt: skip
        module = "wadlclient.testing.record" if name == "UnrecordedRequest" else "wadlclient.errors"
        found[f"{module}.{name}"] = _transport(name)
    for module, name in [
        ("wadlclient.errors", "RestfulError"), ("wadlclient.errors", "Redacted"),
        ("wadlclient.errors", "WADLError"), ("wadlclient.errors", "ResponseError"),
        ("wadlclient.errors", "CredentialsError"), ("wadlclient.errors", "CredentialsFileError"),
        ("wadlclient.errors", "CredentialsRefused"), ("wadlclient.errors", "CacheError"),
        ("wadlclient.http.wire", "BodyTooLarge"), ("wadlclient.http.wire", "InvalidURL"),
        ("wadlclient.testing.recording_file", "RecordingError"),
        ("wadlclient.cli.base", "UsageError"),
        ("wadlclient.bulk.saved", "ReportFileError"),
        ("wadlclient.errors", "CredentialsNeeded"), ("wadlclient.errors", "WalkTokenError"),
        ("wadlclient.errors", "WebAddressError"), ("wadlclient.mirror.state", "MirrorError"),
        ("wadlclient.fleet.checkpoints", "ShardBusy"),
        ("wadlclient.fleet.checkpoints", "ShardTaken"),
        ("wadlclient.fleet.work", "FleetError"), ("wadlclient.lazr_compat", "_FakeRefused"),
        ("wadlclient.testing.seeding", "SeedError"), ("wadlclient.webhooks.errors", "WebhookError"),
        ("wadlclient.webhooks.errors", "BodyNotBytes"),
        ("wadlclient.webhooks.errors", "WebhookSetupError"),
        ("wadlclient.webhooks.errors", "MalformedDelivery"),
        ("wadlclient.webhooks.errors", "InvalidSignature"),
        ("wadlclient.webhooks.errors", "SignatureMissing"),
        ("wadlclient.webhooks.errors", "SignatureMismatch"),
        ("wadlclient.webhooks.errors", "ReplayStoreUnavailable"),
    ]:  # fmt: skip
        found[f"{module}.{name}"] = _message(module, name)
    for name in ("RestfulError", "CredentialsError", "CredentialsFileError", "ResponseError",
                 "UnexpectedResponseError", "HTTPError", "ClientError", "Unauthorized",
                 "NotFound", "MethodNotAllowed", "BadRequest", "Conflict",
                 "PreconditionFailed", "ServerError"):  # fmt: skip
        found[f"{lazr}.{name}"] = _lazr(name)
    dropped = ConnectionDropped(f"GET {URL}: dropped", URL, "GET", retried=True)
    found["wadlclient.errors.ConnectionDropped"] = lambda: dropped
    found["wadlclient.http.pool._Stale"] = lambda: _Stale(TransportError(ECHO, URL, "GET"))
    found["wadlclient.http.retry.RetryExhausted"] = lambda: RetryExhausted(_response(503))
    found["wadlclient.testing.errors.HTTPException"] = lambda: HTTPException(401, ECHO)
    found["wadlclient.testing.request_head.BadHead"] = lambda: BadHead(HTTPStatus.BAD_REQUEST, ECHO)
    # a refusal in the library's own words: it quotes no server, so holds nothing to hide
    found["wadlclient.bounded_read.FileRefused"] = lambda: FileRefused(27, "it holds 9 bytes")
    found["wadlclient.http.routes.RouteRefused"] = _transport_in("wadlclient.http.routes",
                                                                 "RouteRefused")
    found["wadlclient.webhooks.errors.ReplayedDelivery"] = lambda: _replayed(ECHO)
    found["wadlclient.bulk.saved.SavedError"] = lambda: SavedError("Unauthorized", ECHO)
    return found


EXAMPLES = _examples()


def _home(cls: type) -> str:
    """The module that defines ``cls`` (the lazr layer's classes say they are lazr's)."""
    module = cls.__module__.replace("lazr.restfulclient", "wadlclient.lazr.restfulclient", 1)
    return f"{module}.{cls.__qualname__}"


def every_error_class() -> set[str]:
    """Every exception class defined under src/wadlclient, by where it is defined."""
    found = set()
    for info in pkgutil.walk_packages(wadlclient.__path__, "wadlclient."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException):
                home = _home(value)
                if home.startswith("wadlclient.") and home.rpartition(".")[0] == info.name:
                    found.add(home)
    return found


def test_every_error_class_has_an_example_here() -> None:
    """A new error class fails here until it has an example (and so a pickle test)."""
    assert sorted(every_error_class() - set(EXAMPLES)) == []


def _hold_what_a_client_sends() -> None:
    """What the transport does before each request: hold what the authorizer names and sends."""
    for authorizer in (
        BasicHttpAuthorizer("ada", PASSWORD),
        OAuthAuthorizer("app", "", AccessToken("PICKLE-token-key-3", TOKEN_SECRET)),
    ):
        headers: dict[str, str] = {}
        authorizer.authorizeRequest(URL, "GET", None, headers)
        hold_sent(headers, authorizer.credential_secrets())


FIELDS = ("status", "reason", "url", "method", "attempts", "elapsed", "retried", "message",
          "saved_kind")  # fmt: skip
CHILD = """
import json, pickle, sys
shown = []
for name, data in pickle.load(sys.stdin.buffer):
    error = pickle.loads(data)
    fields = {key: getattr(error, key, None) for key in
              ("status", "reason", "url", "method", "attempts", "elapsed", "retried", "message",
               "saved_kind")}
    content = getattr(error, "content", None)
    fields["content"] = content.decode() if isinstance(content, bytes) else content
    fields["headers"] = dict(getattr(getattr(error, "response", None), "headers", None) or {})
    shown.append([name, type(error).__module__ + "." + type(error).__qualname__, str(error),
                  repr(error), {k: v for k, v in fields.items() if v is not None}])
json.dump(shown, sys.stdout)
"""


def _fields(error: BaseException) -> dict[str, Any]:
    fields = {key: getattr(error, key, None) for key in FIELDS}
    if isinstance(fields["message"], str):
        fields["message"] = redacted(fields["message"])  # as pickled
    content = getattr(error, "content", None)
    fields["content"] = content.decode() if isinstance(content, bytes) else content
    response = getattr(error, "response", None)
    headers = dict(getattr(response, "headers", None) or {})
    fields["headers"] = {name: redacted(value) for name, value in headers.items()}  # as pickled
    return {key: value for key, value in fields.items() if value is not None}


@pytest.fixture(autouse=True)
def _held_as_a_client_holds() -> None:
    """Each test runs where a client has sent its credentials (the suite forgets them after)."""
    _hold_what_a_client_sends()


@pytest.fixture(scope="module")
def pickled() -> dict[str, tuple[BaseException, bytes]]:
    _hold_what_a_client_sends()
    return {name: (make(), pickle.dumps(make())) for name, make in EXAMPLES.items()}


def test_every_error_comes_back_whole_in_another_process(
    pickled: dict[str, tuple[BaseException, bytes]],
) -> None:
    sent = [(name, data) for name, (_, data) in pickled.items()]

    child = subprocess.run(
        [sys.executable, "-c", CHILD], input=pickle.dumps(sent), capture_output=True, check=True
    )

    for name, kind, text, shown_repr, fields in json.loads(child.stdout):
        error = pickled[name][0]
        assert (kind, text, shown_repr) == (
            _home(type(error)).replace("wadlclient.lazr.restfulclient", "lazr.restfulclient"),
            redacted(str(error)),  # the same (a RestfulError's str is redacted already)
            redacted(repr(error)),
        ), name
        assert fields == json.loads(json.dumps(_fields(error))), name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_pickled_error_holds_no_credential(
    pickled: dict[str, tuple[BaseException, bytes]], name: str
) -> None:
    error, data = pickled[name]

    assert [secret for secret in SECRETS if secret.encode() in data] == []
    if isinstance(error, RestfulError):
        assert [secret for secret in SECRETS if secret in str(error) + repr(error)] == []
