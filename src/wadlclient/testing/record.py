"""Record a session against a real service, replay it with no network.

    with recorded_root("session.json", None, "https://api.launchpad.net/", version="devel") as lp:
        ...                      # every exchange is written to session.json when the root closes
    with replayed_root("session.json", None, "https://api.launchpad.net/", version="devel") as lp:
        ...                      # the same calls, answered from the file; nothing is sent

Both are `Sender` s in wadlclient's transport pipeline (`wadlclient.http`),
below redirects, authorization, retries and the cache, so what is recorded
is exactly what crossed the wire. The file is indented JSON, one object
per exchange, with credentials scrubbed: ``Authorization``, cookies, and
OAuth tokens, secrets and signatures in URLs and bodies. A replayed
request is matched by method, URL and body, in the order recorded; one
that was not recorded raises `UnrecordedRequest` naming it.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import re
import tempfile
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from wadlclient.errors import TransportError
from wadlclient.headers import Headers
from wadlclient.http import Transport
from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.pool import ConnectionPool
from wadlclient.http.sender import Sender
from wadlclient.objects import ServiceRoot

__all__ = [
    "FORMAT",
    "RECORD_VARIABLE",
    "REPLAY_VARIABLE",
    "Recording",
    "RecordingSender",
    "ReplaySender",
    "UnrecordedRequest",
    "recorded_root",
    "replayed_root",
    "sender_from_environment",
]

#: The format a recording file names in its ``format`` field; another is refused.
FORMAT = "wadlclient-recording/1"
#: Record every exchange of launchpadlib (or lazr.restfulclient) on wadlclient into this file.
RECORD_VARIABLE = "WADLCLIENT_RECORD"
#: Answer every exchange of launchpadlib on wadlclient from this recording, sending nothing.
REPLAY_VARIABLE = "WADLCLIENT_REPLAY"
SCRUBBED = "<scrubbed>"
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
_SECRET_PARAMS = re.compile(
    r"((?:oauth_token_secret|oauth_token|oauth_signature|oauth_verifier|access_token|password)"
    r"(?:=|%3D|\"\s*:\s*\"))[^&\s\",]*"
)


class UnrecordedRequest(TransportError):
    """A replayed session asked for something the recording does not hold."""


def scrub(text: str) -> str:
    """``text`` with every OAuth token, secret, signature and password value replaced."""
    return _SECRET_PARAMS.sub(lambda m: m.group(1) + SCRUBBED, text)


def _headers(headers: Headers) -> dict[str, str]:
    return {
        name: SCRUBBED if name.lower() in _SECRET_HEADERS else scrub(value)
        for name, value in headers.items()
    }


def _body(content: bytes | None) -> dict[str, str] | None:
    """A body as readable text when it is UTF-8, else as base64."""
    if not content:
        return None
    try:
        return {"text": scrub(content.decode("utf-8"))}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(content).decode("ascii")}


def _content(body: dict[str, str] | None) -> bytes:
    if body is None:
        return b""
    if "base64" in body:
        return base64.b64decode(body["base64"])
    return body["text"].encode("utf-8")


def _key(method: str, url: str, body: dict[str, str] | None) -> tuple[str, str, str]:
    return method, scrub(url), json.dumps(body, sort_keys=True)


class Recording:
    """The exchanges recorded into one file, from one sender or several (a process's roots)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._exchanges: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add(self, request: Request, response: Response) -> None:
        exchange = {
            "method": request.method,
            "url": scrub(request.url),
            "request_headers": _headers(request.headers),
            "request_body": _body(request.body),
            "status": response.status,
            "reason": response.reason,
            "headers": _headers(response.headers),
            "body": _body(response.content),
        }
        with self._lock:
            self._exchanges.append(exchange)

    def write(self) -> None:
        """Write every exchange so far, whole and atomically (a reader never sees half a file)."""
        with self._lock:
            document = {"format": FORMAT, "exchanges": list(self._exchanges)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".recording-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(document, out, indent=1)
            os.replace(temporary, self.path)
        except BaseException:
            os.unlink(temporary)
            raise


class RecordingSender:
    """Sends through ``inner`` (a new connection pool by default) and keeps every exchange.

    The file is written, whole and atomically, when the sender closes.
    """

    def __init__(
        self, path: str | Path, inner: Sender | None = None, *, recording: Recording | None = None
    ) -> None:
        self.recording = recording if recording is not None else Recording(path)
        self.path = self.recording.path
        self._inner = inner if inner is not None else ConnectionPool()

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        response = self._inner.send(request, timeout=timeout)
        self.recording.add(request, response)
        return response

    def close(self) -> None:
        self._inner.close()
        self.recording.write()


class ReplaySender:
    """Answers from a recording, in the order recorded; never opens a connection."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{self.path}: not a readable recording ({error})") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ValueError(f"{self.path}: not a recording of format {FORMAT!r}")
        self._answers: dict[tuple[str, str, str], deque[dict[str, Any]]] = {}
        for exchange in document["exchanges"]:
            key = _key(exchange["method"], exchange["url"], exchange["request_body"])
            self._answers.setdefault(key, deque()).append(exchange)
        self._lock = threading.Lock()

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        key = _key(request.method, request.url, _body(request.body))
        with self._lock:
            queue = self._answers.get(key)
            exchange = queue.popleft() if queue else None
        if exchange is None:
            again = " again" if queue is not None else ""
            raise UnrecordedRequest(
                f"{request.method} {scrub(request.url)}{again}: not in the recording {self.path}"
            )
        return Response(
            exchange["status"],
            exchange["reason"],
            Headers(exchange["headers"]),
            _content(exchange["body"]),
            request.url,
        )

    def close(self) -> None:
        """Nothing to release."""


def _root_with(sender: Sender, *args: Any, **kwargs: Any) -> ServiceRoot:
    """A `ServiceRoot` whose transport sends through ``sender``."""

    class Root(ServiceRoot):
        def make_transport(self, authorizer: Any, cache: Any, **options: Any) -> Transport:
            return Transport(authorizer=authorizer, cache=cache, sender=sender, **options)

    return Root(*args, **kwargs)


def recorded_root(path: str | Path, *args: Any, **kwargs: Any) -> ServiceRoot:
    """``ServiceRoot(*args, **kwargs)``, every exchange written to ``path`` when it closes."""
    return _root_with(RecordingSender(path), *args, **kwargs)


def replayed_root(path: str | Path, *args: Any, **kwargs: Any) -> ServiceRoot:
    """``ServiceRoot(*args, **kwargs)`` answered from the recording at ``path``, offline."""
    return _root_with(ReplaySender(path), *args, **kwargs)


_T = TypeVar("_T")
_shared_lock = threading.Lock()
_recordings: dict[Path, Recording] = {}
_replays: dict[Path, ReplaySender] = {}


def sender_from_environment(inner: Sender) -> Sender:
    """``inner`` recorded (``WADLCLIENT_RECORD``), or a replay instead (``WADLCLIENT_REPLAY``).

    For programs that create their roots themselves (launchpadlib's): the
    compatibility layer passes its pool through this. Every root of the
    process shares one recording, written when a root closes and at exit,
    and one replay, so that answers are replayed in the order recorded.
    """
    record, replay = os.environ.get(RECORD_VARIABLE), os.environ.get(REPLAY_VARIABLE)
    if record and replay:
        raise ValueError(f"{RECORD_VARIABLE} and {REPLAY_VARIABLE} are both set: choose one")
    if replay:
        inner.close()
        return _shared_replay(Path(replay).resolve())
    if record:
        return RecordingSender(record, inner, recording=_shared_recording(Path(record).resolve()))
    return inner


def _shared_recording(path: Path) -> Recording:
    return _shared(_recordings, path, _recording_written_at_exit)


def _shared_replay(path: Path) -> ReplaySender:
    return _shared(_replays, path, ReplaySender)


def _recording_written_at_exit(path: Path) -> Recording:
    recording = Recording(path)
    atexit.register(recording.write)
    return recording


def _shared(table: dict[Path, _T], path: Path, make: Callable[[Path], _T]) -> _T:
    """The one ``table`` holds for ``path``, made on first use (by any thread, once)."""
    with _shared_lock:
        found = table.get(path)
        if found is None:
            found = table[path] = make(path)
        return found
