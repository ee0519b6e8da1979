"""Record a session against a real service, replay it with no network.

    with recorded_root("session.json", None, "https://api.launchpad.net/", version="devel") as lp:
        ...                      # every exchange is written to session.json when the root closes
    with replayed_root("session.json", None, "https://api.launchpad.net/", version="devel") as lp:
        ...                      # the same calls, answered from the file; nothing is sent

Both are `Sender` s in wadlclient's transport pipeline (`wadlclient.http`),
below redirects, authorization, retries and the cache, so what is recorded
is exactly what crossed the wire. The file (`recording_file`) holds every
exchange scrubbed (`scrub`): credential headers, values named like secrets
in requests and answers, and the credentials themselves wherever they
appear; the WADL is stored once beside it. A replayed request is matched
by method, URL and body, scrubbed the same way, in the order recorded; one
that was not recorded raises `UnrecordedRequest` naming it, and a file
that is not a sound recording `RecordingError` naming it.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import re
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlsplit

from wadlclient.errors import TransportError
from wadlclient.headers import Headers
from wadlclient.http import Transport
from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.pool import ConnectionPool
from wadlclient.http.sender import Sender
from wadlclient.objects import ServiceRoot
from wadlclient.testing.recording_file import (
    FORMAT,
    RecordedExchange,
    RecordingError,
    is_wadl,
    read_recording,
    sidecar_body,
    write_recording,
)
from wadlclient.testing.routing import as_asked
from wadlclient.testing.scrub import SCRUBBED, Scrubber, credentials_of, secret_name

__all__ = [
    "FORMAT",
    "RECORD_VARIABLE",
    "REPLAY_VARIABLE",
    "SCRUBBED",
    "Recording",
    "RecordingError",
    "RecordingSender",
    "ReplaySender",
    "UnrecordedRequest",
    "read_recording",
    "recorded_root",
    "replayed_root",
    "scrub",
    "sender_from_environment",
]

#: Record every exchange of launchpadlib (or lazr.restfulclient) on wadlclient into this file.
RECORD_VARIABLE = "WADLCLIENT_RECORD"
#: Answer every exchange of launchpadlib on wadlclient from this recording, sending nothing.
REPLAY_VARIABLE = "WADLCLIENT_REPLAY"


class UnrecordedRequest(TransportError):
    """A replayed session asked for something the recording does not hold."""


def scrub(text: str) -> str:
    """``text`` (a URL, a form or text body) with every value named like a secret replaced."""
    return Scrubber().url(text)


def _media_type(headers: Any) -> str:
    return str(headers.get("content-type") or "")


def _request_body(request: Request, scrubber: Scrubber) -> dict[str, str] | None:
    return _body(request.body, _media_type(request.headers), scrubber)


def _body(
    content: bytes | None, media_type: str, scrubber: Scrubber, *, secret_answer: bool = False
) -> dict[str, str] | None:
    """A body as scrubbed text when it is UTF-8, else as base64 (kept as it is)."""
    if not content:
        return None
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(content).decode("ascii")}
    return {"text": scrubber.body(text, media_type, secret_answer=secret_answer)}


def _asks_for_a_secret(request: Request) -> bool:
    """Whether the request calls a named operation named like a secret (``issueAccessToken``)."""
    pairs = parse_qsl(urlsplit(request.url).query)
    if request.body and "form" in _media_type(request.headers):
        pairs += parse_qsl(request.body.decode("utf-8", "replace"))
    return any(name == "ws.op" and secret_name(value) for name, value in pairs)


def _as_asked(request: Request, response: Response) -> tuple[Request, Response]:
    """An exchange with a routed fake as made with the address the code asked for (`routed_to`)."""
    url = as_asked(request.url)
    if url == request.url:
        return request, response
    return (
        Request(request.method, url, request.headers, _bytes_as_asked(request.body)),
        Response(
            response.status,
            response.reason,
            Headers([(name, as_asked(value)) for name, value in response.headers.items()]),
            _bytes_as_asked(response.content) or b"",
            as_asked(response.url),
        ),
    )


def _bytes_as_asked(content: bytes | None) -> bytes | None:
    """A body with a routed fake's address as asked; one that is not UTF-8 as it is."""
    if not content:
        return content
    try:
        return as_asked(content.decode("utf-8")).encode("utf-8")
    except UnicodeDecodeError:
        return content


class Recording:
    """The exchanges recorded into one file, from one sender or several (a process's roots).

    It scrubs, besides values named like secrets, every credential it
    holds: those given (`hold`, `hold_authorizer`) and those the requests'
    ``Authorization`` headers carry. A file is scrubbed with every
    credential known when it is written, whichever exchange revealed it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._raw: list[tuple[Request, Response]] = []
        self._scrubber = Scrubber()
        self._lock = threading.Lock()

    def hold(self, *credentials: str) -> None:
        """Scrub these values wherever they appear."""
        with self._lock:
            self._scrubber.hold(*credentials)

    def hold_authorizer(self, authorizer: object) -> None:
        """Scrub the secrets ``authorizer`` holds (an OAuth or Basic authorizer, or none)."""
        self.hold(*credentials_of(authorizer))

    def add(self, request: Request, response: Response) -> None:
        request, response = _as_asked(request, response)
        with self._lock:
            self._scrubber.learn(request.headers)
            self._raw.append((request, response))

    def write(self) -> None:
        """Write every exchange so far, whole and atomically (a reader never sees half a file)."""
        files: dict[str, bytes] = {}
        with self._lock:
            exchanges = [self._exchange(sent, answer, files) for sent, answer in self._raw]
        write_recording(self.path, exchanges, files)

    def _exchange(
        self, request: Request, response: Response, files: dict[str, bytes]
    ) -> dict[str, Any]:
        scrubber = self._scrubber
        media_type = _media_type(response.headers)
        body: dict[str, str] | None
        if response.content and is_wadl(media_type):
            content = scrubber.values(response.content)
            body, name = sidecar_body(content)
            files[name] = content
        else:
            body = _body(
                response.content, media_type, scrubber, secret_answer=_asks_for_a_secret(request)
            )
        return {
            "method": request.method,
            "url": scrubber.url(request.url),
            "request_headers": scrubber.headers(request.headers.items()),
            "request_body": _request_body(request, scrubber),
            "status": response.status,
            "reason": response.reason,
            "headers": scrubber.headers(response.headers.items()),
            "body": body,
        }


class RecordingSender:
    """Sends through ``inner`` (a new connection pool by default) and keeps every exchange.

    The file is written, whole and atomically, when the sender closes.
    Each request goes without its conditions (``If-None-Match``,
    ``If-Modified-Since``): an answer recorded is whole, never a 304 that
    only a warm cache could use, so the recording replays on a fresh
    machine (the client takes a 200 to a revalidation as a new version).
    """

    def __init__(
        self, path: str | Path, inner: Sender | None = None, *, recording: Recording | None = None
    ) -> None:
        self.recording = recording if recording is not None else Recording(path)
        self.path = self.recording.path
        self._inner = inner if inner is not None else ConnectionPool()

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        request = _unconditional(request)
        response = self._inner.send(request, timeout=timeout)
        self.recording.add(request, response)
        return response

    def close(self) -> None:
        self._inner.close()
        self.recording.write()


_CONDITIONS = ("if-none-match", "if-modified-since")


def _unconditional(request: Request) -> Request:
    """``request`` without the headers that would let the server answer 304."""
    if not any(name in request.headers for name in _CONDITIONS):
        return request
    headers = request.headers.copy()
    for name in _CONDITIONS:
        headers.pop(name, None)
    return Request(request.method, request.url, headers, request.body)


_Key = tuple[str, str, str]


class ReplaySender:
    """Answers from a recording, in the order recorded; never opens a connection.

    Requests are matched on their form scrubbed by name, the recording's
    too (so a recording made by an older scrubber still matches); where the
    recording scrubbed a credential, ``<scrubbed>`` matches any text.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._names = Scrubber()
        self._exchanges = read_recording(self.path)
        self._used = [False] * len(self._exchanges)
        self._exact: dict[_Key, deque[int]] = {}
        self._patterns: list[tuple[int, re.Pattern[str]]] = []
        for number, exchange in enumerate(self._exchanges):
            key = self._recorded_key(exchange)
            self._exact.setdefault(key, deque()).append(number)
            if any(SCRUBBED in part for part in key):
                self._patterns.append((number, _pattern(key)))
        self._lock = threading.Lock()

    def _recorded_key(self, exchange: RecordedExchange) -> _Key:
        body = exchange.request_body
        if body is not None and "text" in body:
            media_type = _media_type(Headers(exchange.request_headers))
            body = {"text": self._names.body(body["text"], media_type)}
        return _key(exchange.method, self._names.url(exchange.url), body)

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        key = _key(
            request.method, self._names.url(request.url), _request_body(request, self._names)
        )
        with self._lock:
            number = self._take(key)
        if number is None:
            raise UnrecordedRequest(
                f"{request.method} {scrub(request.url)}{' again' if key in self._exact else ''}: "
                f"not in the recording {self.path}{self._hint(request.url)}"
            )
        exchange = self._exchanges[number]
        if exchange.status == 304 and not any(name in request.headers for name in _CONDITIONS):
            raise UnrecordedRequest(
                f"{request.method} {scrub(request.url)}: the recording {self.path} holds only "
                "a 304 Not Modified for it: it was recorded on a warm cache; record it again "
                "with this version of wadlclient (a recording now stores whole answers)"
            )
        headers = Headers(exchange.headers)
        if exchange.content and is_wadl(_media_type(headers)):
            from wadlclient.testing.models import warm_for

            warm_for(exchange.content, request.url)  # a kept model of Launchpad's: no parse
        return Response(exchange.status, exchange.reason, headers, exchange.content, request.url)

    def _hint(self, url: str) -> str:
        """Why the recording may not answer ``url``: another address, or a warm cache."""
        asked = urlsplit(url)
        origins = {urlsplit(exchange.url)[:2] for exchange in self._exchanges}
        if origins and asked[:2] not in origins:
            recorded = ", ".join(sorted(f"{scheme}://{netloc}/" for scheme, netloc in origins))
            return f" (it was recorded for {recorded}, another address)"
        if any(exchange.status == 304 for exchange in self._exchanges):
            return " (it was recorded on a warm cache: its 304s hold nothing to replay)"
        return ""

    def _take(self, key: _Key) -> int | None:
        """The first unused exchange recorded for ``key``: exactly, else through a scrubbed part."""
        for number in self._exact.get(key, ()):
            if not self._used[number]:
                self._used[number] = True
                return number
        joined = "\n".join(key)
        for number, pattern in self._patterns:
            if not self._used[number] and pattern.fullmatch(joined):
                self._used[number] = True
                return number
        return None

    def close(self) -> None:
        """Nothing to release."""


def _key(method: str, url: str, body: dict[str, str] | None) -> _Key:
    return method, url, json.dumps(body, sort_keys=True)


def _pattern(key: _Key) -> re.Pattern[str]:
    """A key whose ``<scrubbed>`` parts match any text (a credential scrubbed when recorded)."""
    parts = re.escape("\n".join(key)).split(re.escape(SCRUBBED))
    return re.compile(".*?".join(parts), re.DOTALL)


def _root_with(sender: Sender, *args: Any, **kwargs: Any) -> ServiceRoot:
    """A `ServiceRoot` whose transport sends through ``sender``."""

    class Root(ServiceRoot):
        def make_transport(self, authorizer: Any, cache: Any, **options: Any) -> Transport:
            if isinstance(sender, RecordingSender):
                sender.recording.hold_authorizer(authorizer)
            return Transport(authorizer=authorizer, cache=cache, sender=sender, **options)

    return Root(*args, **kwargs)


def recorded_root(path: str | Path, *args: Any, **kwargs: Any) -> ServiceRoot:
    """``ServiceRoot(*args, **kwargs)``, every exchange written to ``path`` when it closes.

    The root starts from an empty cache of its own (a temporary directory,
    as ``cache=None`` makes), whatever ``cache`` says: an answer a warm
    cache would give without asking is asked for and recorded, so that the
    recording replays on a fresh machine.
    """
    if len(args) > 2:
        args = (*args[:2], None, *args[3:])
    else:
        kwargs["cache"] = None
    return _root_with(RecordingSender(path), *args, **kwargs)


def replayed_root(path: str | Path, *args: Any, **kwargs: Any) -> ServiceRoot:
    """``ServiceRoot(*args, **kwargs)`` answered from the recording at ``path``, offline."""
    return _root_with(ReplaySender(path), *args, **kwargs)


_T = TypeVar("_T")
_shared_lock = threading.Lock()
_recordings: dict[Path, Recording] = {}
_replays: dict[Path, ReplaySender] = {}


def sender_from_environment(inner: Sender, authorizer: object = None) -> Sender:
    """``inner`` recorded (``WADLCLIENT_RECORD``), or a replay instead (``WADLCLIENT_REPLAY``).

    For programs that create their roots themselves (launchpadlib's): the
    compatibility layer passes its pool through this. Every root of the
    process shares one recording, written when a root closes and at exit,
    and one replay, so that answers are replayed in the order recorded.
    The recording scrubs the secrets of ``authorizer`` too.
    """
    record, replay = os.environ.get(RECORD_VARIABLE), os.environ.get(REPLAY_VARIABLE)
    if record and replay:
        raise ValueError(f"{RECORD_VARIABLE} and {REPLAY_VARIABLE} are both set: choose one")
    if replay:
        inner.close()
        return _shared_replay(Path(replay).resolve())
    if record:
        recording = _shared_recording(Path(record).resolve())
        recording.hold_authorizer(authorizer)
        return RecordingSender(record, inner, recording=recording)
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
