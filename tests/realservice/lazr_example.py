"""lazr.restful's own example web service (``lazr.restful.example.base``), served on loopback.

It is the reference server of the dialect, not ours: the one place where
its real behaviour (security-filtered pages, its WADL, its error texts) can
be seen on the wire. ``python -m tests.realservice.lazr_example --serve
PORT[:BATCH] ...`` loads its ZCML once and serves its WSGI application with
wsgiref on threads on each port, pages of BATCH there (as shipped without),
prints ``serving <url> ...`` once it listens, and keeps a journal per port
of the requests it answered, read as JSON at ``/__journal__`` (a path
outside the service). ``LazrExample`` starts it in a subprocess, so the
Zope component registry it fills stays out of the test process;
``lazr_examples`` starts one serving several page sizes (loading the ZCML
costs most of a start).
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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
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


def _configured(inner: WSGIApp, port: int, batch_size: int | None) -> WSGIApp:
    """``inner`` answering as the service on ``port`` with pages of ``batch_size``.

    lazr.restful reads its address and page size from one configuration
    utility at each request: each port's requests set them, one at a time.
    """
    from lazr.restful.interfaces import IWebServiceConfiguration
    from zope.component import getUtility

    config = getUtility(IWebServiceConfiguration)
    shipped = config.default_batch_size

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with _ONE_AT_A_TIME:
            config.port = port
            config.default_batch_size = shipped if batch_size is None else batch_size
            return list(inner(environ, start_response))

    return app


#: The ports' requests, answered one at a time (they share the configuration).
_ONE_AT_A_TIME = threading.Lock()


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


def _serve_option(text: str) -> tuple[int, int | None]:
    port, _, batch = text.partition(":")
    return int(port), int(batch) if batch else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--serve", type=_serve_option, action="append", required=True, metavar="PORT[:BATCH]",
        help="a port to serve on, and the server's page size there when a client asks for none",
    )  # fmt: skip
    args = parser.parse_args()
    first_port, _ = args.serve[0]
    inner = _application(first_port, None)
    servers = [
        make_server(
            "127.0.0.1",
            port,
            _journaled(_configured(inner, port, batch)),
            server_class=_ThreadingServer,
            handler_class=_QuietHandler,
        )
        for port, batch in args.serve
    ]
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("serving " + " ".join(f"http://127.0.0.1:{port}/" for port, _ in args.serve), flush=True)
    servers[0].serve_forever()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LazrExample:
    """The example service in a subprocess: ``with LazrExample() as service: service.url``.

    `lazr_examples` gives several, one process serving them all.
    """

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
        """The requests answered so far on this service's port, in order."""
        with urlopen(self.url + "__journal__", timeout=10) as answer:
            entries: list[dict[str, str]] = json.load(answer)
        return entries

    def __enter__(self) -> LazrExample:
        self._process = _start([self], self.start_timeout)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            _stop(self._process)
            self._process = None


def _start(services: list[LazrExample], start_timeout: float) -> subprocess.Popen[str]:
    """One process serving ``services``, each given a free port, once it listens."""
    command = [sys.executable, "-m", "tests.realservice.lazr_example"]
    for service in services:
        service.port = _free_port()
        batch = "" if service.batch_size is None else f":{service.batch_size}"
        command += ["--serve", f"{service.port}{batch}"]
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert process.stdout is not None
    deadline = time.monotonic() + start_timeout
    line = process.stdout.readline()
    if not line.startswith("serving") or time.monotonic() > deadline:
        rest = process.stdout.read() if process.poll() is not None else ""
        _stop(process)
        raise RuntimeError(f"lazr.restful's example service did not start: {line}{rest}")
    return process


def _stop(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait()
    if process.stdout is not None:
        process.stdout.close()


@contextmanager
def lazr_examples(*batch_sizes: int | None) -> Iterator[list[LazrExample]]:
    """The example service with each of ``batch_sizes`` (None: as shipped), from one process."""
    services = [LazrExample(batch_size=batch) for batch in batch_sizes]
    process = _start(services, services[0].start_timeout)
    try:
        yield services
    finally:
        _stop(process)


if __name__ == "__main__":
    main()
