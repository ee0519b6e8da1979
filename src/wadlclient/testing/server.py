"""The fake on the wire: the standard library's threading HTTP server on loopback.

The standard library rather than the cookbook service's Starlette and
uvicorn: a user's test suite needs no extra dependency, and the server is
listening as soon as the constructor returns (no event loop to start).
"""

from __future__ import annotations

import selectors
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from wadlclient.testing.errors import HTTPException
from wadlclient.testing.journal import FakeJournal, Served
from wadlclient.testing.request_head import LeanHeadHandler
from wadlclient.testing.resources import Answer, Call, Resources
from wadlclient.testing.wadls import LAUNCHPAD_VERSIONS

__all__ = ["FakeServer", "LoopbackHTTPServer"]

#: The largest request body the fake reads; a bigger one is refused (413).
MAX_BODY = 16 * 1024 * 1024
FORM = "application/x-www-form-urlencoded"


#: How the server waits for a connection or its shutdown (a module name, so a test can count).
_Selector = getattr(selectors, "PollSelector", selectors.SelectSelector)


class LoopbackHTTPServer(ThreadingHTTPServer):
    """The standard library's threading server, with a listen queue that takes a burst.

    Its queue of 5 drops the connections beyond the fifth of a burst (a
    prefetch or the look-ahead opens up to 32 at once); each dropped one
    is tried again by the client's kernel only a second later.

    It sleeps until a connection or `shutdown` wakes it: the standard
    library's server looks for a shutdown every half second (a suite that
    stops a server per test would wait that long each time), and looking
    every few milliseconds instead costs an idle server CPU all its life.
    """

    request_queue_size = 128
    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._wake, self._waker = socket.socketpair()
        self._stopping = False
        self._stopped = threading.Event()
        try:
            super().__init__(*args, **kwargs)
        except BaseException:
            self._close_wakers()
            raise

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Answer connections until `shutdown` (``poll_interval`` is not used: nothing polls)."""
        self._stopped.clear()
        try:
            with _Selector() as selector:
                selector.register(self, selectors.EVENT_READ)
                selector.register(self._wake, selectors.EVENT_READ)
                while not self._stopping:
                    ready = [key.fileobj for key, _ in selector.select()]
                    if self._wake in ready:
                        self._wake.recv(64)
                    if self._stopping:
                        break
                    if self in ready:
                        self._handle_request_noblock()  # type: ignore[attr-defined]
                    self.service_actions()
        finally:
            self._stopping = False
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop `serve_forever` (running in another thread) and wait until it has."""
        self._stopping = True
        self._waker.send(b"x")
        self._stopped.wait()

    def server_close(self) -> None:
        super().server_close()
        self._close_wakers()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone mid-connection (reset, broken pipe) is routine: no traceback on stderr.

        A client killed, or one that closes a connection with an answer
        unread, resets it; the standard library prints each as an error.
        Any other error is printed as before.
        """
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    def _close_wakers(self) -> None:
        self._wake.close()
        self._waker.close()


class FakeServer:
    """Serves ``resources`` (and the WADL at the root) under ``/<version>/`` on 127.0.0.1."""

    def __init__(
        self,
        version_path: str,
        wadl: bytes,
        journal: FakeJournal,
        *,
        launchpad: bool = False,
        port: int = 0,
    ) -> None:
        self.version_path = version_path
        self.wadl = wadl
        self.journal = journal
        self.launchpad = launchpad
        self.resources: Resources | None = None
        #: Files served as they are at a path below the root (`FakeService.add_file`).
        self.files: dict[str, tuple[str, bytes]] = {}
        self._server = LoopbackHTTPServer(("127.0.0.1", port), _handler_for(self))
        self.port = int(self._server.server_address[1])
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()

    def answer(self, call: Call) -> Answer:
        """The answer to one call; a refusal becomes its status and one-line message."""
        accept = call.header("Accept") or ""
        if call.path == "" and call.method in ("GET", "HEAD") and "wadl" in accept:
            media_type = next(t.split(";")[0].strip() for t in accept.split(",") if "wadl" in t)
            return Answer(200, self.wadl, media_type)
        if call.path in self.files and call.method in ("GET", "HEAD"):
            media_type, data = self.files[call.path]
            return Answer(200, data, media_type)
        assert self.resources is not None
        try:
            with self.resources.store.lock:
                return self.resources.answer(call)
        except HTTPException as problem:
            return Answer(problem.status, (problem.message + "\n").encode("utf-8"))


def _wrong_version(server: FakeServer, path: str) -> Answer:
    """A 404 naming the version asked for and the one served, never another version's root."""
    serves = server.version_path.strip("/")
    asked = path.strip("/").split("/")[0]
    if server.launchpad and asked in LAUNCHPAD_VERSIONS:
        make = f"make the fake from launchpad_wadl({asked!r})"
    else:
        make = "make the fake from that version's WADL"
    message = (
        f"This fake serves version {serves!r} ({server.version_path}) only; the code under "
        f"test asked for {path!r}. To test it, {make}; or log in with version={serves!r}.\n"
    )
    return Answer(404, message.encode("utf-8"))


def _read_call(handler: LeanHeadHandler, server: FakeServer) -> Call | Answer:
    version_path = server.version_path
    split = urlsplit(handler.path)
    headers = handler.fields
    length_text = headers.get("content-length", "0") or "0"
    if not (length_text.isascii() and length_text.isdigit()) or int(length_text) > MAX_BODY:
        return Answer(
            413,
            b"The request body is too large for the fake (or its length is not a number).\n",
            headers={"Connection": "close"},  # its body is left unread: the connection ends
        )
    body = handler.rfile.read(int(length_text)) if int(length_text) else b""
    if not split.path.startswith(version_path):
        return _wrong_version(server, split.path)
    path = unquote(split.path[len(version_path) :]).rstrip("/")
    query = parse_qs(split.query, keep_blank_values=True)
    call = Call(handler.command, path, query, headers, body)
    if headers.get("content-type", "").split(";")[0].strip() == FORM:
        call.form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return call


def _served(call: Call, answer: Answer) -> Served:
    body: Any = call.body or None
    if call.form:
        body = call.form
    elif call.body and (call.header("Content-Type") or "").startswith("application/json"):
        body = call.body.decode("utf-8", "replace")
    auth = call.header("Authorization")
    return Served(
        method=call.method,
        path=call.path,
        query=call.query,
        status=answer.status,
        ws_op=call.value("ws.op"),
        body=body,
        if_match=call.header("If-Match"),
        if_none_match=call.header("If-None-Match"),
        auth_scheme=auth.split(" ", 1)[0] if auth else None,
        accept=call.header("Accept"),
        anonymous=call.anonymous,
        message=answer.body.decode("utf-8", "replace").strip() if answer.status >= 400 else "",
    )


def _handler_for(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(LeanHeadHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True
        #: Headers and body buffered, sent together once the request is served (the standard
        #: library writes each to the socket as made): one send per answer, not two.
        wbufsize = 64 * 1024

        def _serve(self) -> None:
            read = _read_call(self, server)
            if isinstance(read, Answer):
                answer = read
                message = answer.body.decode("utf-8", "replace").strip()
                server.journal.record(
                    Served(self.command, self.path, {}, answer.status, message=message)
                )
            else:
                answer = server.answer(read)
                server.journal.record(_served(read, answer))
            self.send_response(answer.status)
            if answer.status != 304:
                self.send_header("Content-Type", answer.media_type)
                self.send_header("Content-Length", str(len(answer.body)))
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD" and answer.status != 304:
                self.wfile.write(answer.body)

        do_GET = do_HEAD = do_POST = do_PATCH = do_PUT = do_DELETE = _serve

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the journal holds what a test needs."""

    return Handler
