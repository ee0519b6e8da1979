"""lazr.restful's own example web service (``lazr.restful.example.base``), served on loopback.

It is the reference server of the dialect, not ours: the one place where
its real behaviour (security-filtered pages, its WADL, its error texts) can
be seen on the wire. ``python -m tests.realservice.lazr_example --port N
[--batch-size N]`` loads its ZCML, serves its WSGI application with
wsgiref on threads, prints ``serving <url>`` once it listens, and keeps a
journal of the requests it answered, read as JSON at ``/__journal__`` (a
path outside the service). ``LazrExample`` starts it in a subprocess, so
the Zope component registry it fills stays out of the test process.
"""

from __future__ import annotations

import argparse
import io
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from urllib.request import urlopen
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

REPO_ROOT = Path(__file__).resolve().parents[2]

#: What the WADL request of a client asks for on a real lazr.restful service.
WADL_MEDIA_TYPE = "application/vnd.sun.wadl+xml"

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _application(port: int, batch_size: int | None) -> WSGIApp:
    """The example service's WSGI application, configured to name itself 127.0.0.1:port."""
    import importlib.util

    import lazr.restful
    from zope.component import getUtility
    from zope.configuration import xmlconfig

    spec = importlib.util.find_spec("lazr.restful")
    assert spec is not None and spec.submodule_search_locations
    zcml = Path(next(iter(spec.submodule_search_locations))) / "ftesting.zcml"
    xmlconfig.file(str(zcml), package=lazr.restful)

    from lazr.restful.example.base.root import CookbookServiceRootResource
    from lazr.restful.interfaces import IWebServiceConfiguration
    from lazr.restful.testing.webservice import (
        WebServiceApplication,
        WebServiceTestPublication,
    )

    class Publication(WebServiceTestPublication):  # type: ignore[misc]
        def getApplication(self, request: Any) -> Any:
            return CookbookServiceRootResource()

    config = getUtility(IWebServiceConfiguration)
    config.hostname, config.port = "127.0.0.1", port
    if batch_size is not None:
        config.default_batch_size = batch_size
    return WebServiceApplication({}, Publication)  # type: ignore[no-any-return]


def _journaled(inner: WSGIApp) -> WSGIApp:
    """``inner`` with a journal, and a request body the application can read to its end.

    Zope's publisher reads ``wsgi.input`` to its end, which on wsgiref's
    socket file would wait for a client that is waiting for the answer.
    """
    journal: list[dict[str, str]] = []
    lock = threading.Lock()

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/__journal__":
            with lock:
                body = json.dumps(journal).encode()
            start_response("200 OK", [("Content-Type", "application/json")])
            return [body]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length))
        with lock:
            journal.append(
                {
                    "method": environ["REQUEST_METHOD"],
                    "path": environ.get("PATH_INFO", ""),
                    "query": environ.get("QUERY_STRING", ""),
                }
            )
        return inner(environ, start_response)

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument(
        "--batch-size", type=int, help="the server's page size when a client asks for none"
    )
    args = parser.parse_args()
    app = _journaled(_application(args.port, args.batch_size))
    server = make_server(
        "127.0.0.1", args.port, app, server_class=_ThreadingServer, handler_class=_QuietHandler
    )
    print(f"serving http://127.0.0.1:{args.port}/", flush=True)
    server.serve_forever()


class LazrExample:
    """The example service in a subprocess: ``with LazrExample() as service: service.url``."""

    def __init__(self, *, batch_size: int | None = None, start_timeout: float = 60.0) -> None:
        self.batch_size = batch_size
        self.start_timeout = start_timeout
        self.port = 0
        self._process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """The service's address, without a version (``ServiceRoot`` adds ``1.0/``)."""
        return f"http://127.0.0.1:{self.port}/"

    def journal(self) -> list[dict[str, str]]:
        """The requests answered so far, in order."""
        with urlopen(self.url + "__journal__", timeout=10) as answer:
            entries: list[dict[str, str]] = json.load(answer)
        return entries

    def __enter__(self) -> LazrExample:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        command = [sys.executable, "-m", "tests.realservice.lazr_example", "--port", str(self.port)]
        if self.batch_size is not None:
            command += ["--batch-size", str(self.batch_size)]
        self._process = subprocess.Popen(
            command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert self._process.stdout is not None
        deadline = time.monotonic() + self.start_timeout
        line = self._process.stdout.readline()
        if not line.startswith("serving") or time.monotonic() > deadline:
            rest = self._process.stdout.read() if self._process.poll() is not None else ""
            self.__exit__()
            raise RuntimeError(f"lazr.restful's example service did not start: {line}{rest}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None


if __name__ == "__main__":
    main()
