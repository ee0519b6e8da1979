"""Run lazr.restfulclient's own test suite with wadlclient installed as lazr.restfulclient.

    python -m tests.lazr.restfulclient_suite [-v] [doc-or-module-name ...]

The suite is the installed lazr.restfulclient distribution's own: its
``tests/`` modules and its ``docs/*.rst`` doctests, which drive lazr.restful's
example web service. Only the client is replaced: ``lazr.restfulclient`` and
its modules resolve to wadlclient's compatibility layer, and the suite's
``tests`` package is loaded from the real distribution's files.

How the service gets on the wire. The suite registers the example
service's WSGI application with ``wsgi_intercept.add_wsgi_intercept(host,
port, make_app)`` and expects httplib2 to hand requests for that host to
it in-process. wadlclient does not send through httplib2, so this runner
replaces ``add_wsgi_intercept``/``remove_wsgi_intercept``: each registered
application is served by a real HTTP server on a loopback port, and
``socket.create_connection`` to the registered host and port connects to
that loopback port instead. wadlclient's own pool then sends every request
over a real socket; the servers' journal proves it (the run fails if the
doctests sent nothing), and the run fails if ``ServiceRoot`` is not
wadlclient's.

Layers are honoured as zope.testrunner would: the example service's ZCML
is loaded once before the doctests that need it (the suite's
``WSGILayer``), and never torn down (its layer forbids teardown).

Prints the tally; exits non-zero unless every test passed (and, for
lazr.restfulclient 4.1.0, all of the suite's tests ran).
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import socket
import sys
import threading
import types
import unittest
from collections.abc import Callable, Iterator, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from wsgiref.simple_server import make_server

import wadlclient

wadlclient.install_as_lazr_restfulclient()

from tests.realservice.lazr_example import (  # noqa: E402
    WSGIApp,
    _journaled,
    _QuietHandler,
    _ThreadingServer,
)

#: Tests in lazr.restfulclient's suite, by version: all must run and pass.
EXPECTED = {"4.1.0": 60}

_TESTS_PACKAGE = "lazr.restfulclient.tests"
_TEST_MODULES = ("test_atomicfilecache", "test_error", "test_oauth", "test_docs")


def real_package_dir() -> Path:
    """The installed lazr.restfulclient distribution's package directory (its tests and docs)."""
    distribution = importlib.metadata.distribution("lazr.restfulclient")
    return Path(str(distribution.locate_file("lazr/restfulclient")))


class _TestsFinder(importlib.abc.MetaPathFinder):
    """Finds ``lazr.restfulclient.tests`` in the real distribution; its modules follow."""

    def __init__(self, tests_dir: Path) -> None:
        self._tests_dir = tests_dir

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _TESTS_PACKAGE:
            return None
        return importlib.util.spec_from_file_location(
            fullname,
            self._tests_dir / "__init__.py",
            submodule_search_locations=[str(self._tests_dir)],
        )


class LoopbackIntercepts:
    """wsgi_intercept's registry, served over real sockets on loopback.

    ``add(host, port, make_app)`` starts a threaded HTTP server for the
    application on a free loopback port; connections to ``(host, port)``
    go there while it is registered.
    """

    def __init__(self) -> None:
        self._servers: dict[tuple[str, int], _ThreadingServer] = {}
        self._journals: list[Callable[[], int]] = []
        self._connect = socket.create_connection
        self.served = 0

    def add(self, host: str, port: int, make_app: Callable[[], WSGIApp]) -> None:
        self.remove(host, port)
        app = self._counted(_journaled(_with_reason_phrases(make_app())))
        server = make_server(
            "127.0.0.1", 0, app, server_class=_ThreadingServer, handler_class=_QuietHandler
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._servers[(host, port)] = server

    def remove(self, host: str, port: int) -> int:
        server = self._servers.pop((host, port), None)
        if server is None:
            return 0
        server.shutdown()
        server.server_close()
        return 1

    def _counted(self, app: WSGIApp) -> WSGIApp:
        def counting(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            self.served += 1
            return app(environ, start_response)

        return counting

    def create_connection(
        self, address: tuple[Any, int], *args: Any, **kwargs: Any
    ) -> socket.socket:
        """``socket.create_connection``, sending registered hosts to their loopback server."""
        host, port = address
        name = host.decode("ascii") if isinstance(host, bytes) else host
        server = self._servers.get((name, port))
        if server is not None:
            address = ("127.0.0.1", server.server_address[1])
        return self._connect(address, *args, **kwargs)


def _with_reason_phrases(app: WSGIApp) -> WSGIApp:
    """``app``, its bare statuses (``"502"``) given a reason phrase as wsgiref requires.

    wsgi_intercept passes a status without one through; the suite's own
    applications send such statuses.
    """

    def completed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if status.strip().isdigit():
                code = int(status)
                phrase = HTTPStatus(code).phrase if code in HTTPStatus._value2member_map_ else ""
                status = f"{code} {phrase or 'Unknown'}"
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return completed


def _install_intercepts(intercepts: LoopbackIntercepts) -> None:
    import wsgi_intercept

    wsgi_intercept.add_wsgi_intercept = intercepts.add
    wsgi_intercept.remove_wsgi_intercept = intercepts.remove
    socket.create_connection = intercepts.create_connection  # type: ignore[assignment]


def _check_served_by_wadlclient() -> None:
    """The suite must exercise wadlclient, not the real lazr.restfulclient."""
    from lazr.restfulclient.resource import ServiceRoot

    if not issubclass(ServiceRoot, wadlclient.ServiceRoot):
        raise SystemExit(f"lazr.restfulclient's ServiceRoot is not wadlclient's: {ServiceRoot}")


def _load_suite(docs_dir: Path) -> unittest.TestSuite:
    """The suite as lazr.restfulclient's ``test_docs.load_tests`` builds it, from the real files."""
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for name in _TEST_MODULES:
        module = importlib.import_module(f"{_TESTS_PACKAGE}.{name}")
        if name == "test_docs":
            module.find_doctests = _doc_finder(docs_dir)
        suite.addTests(loader.loadTestsFromModule(module))
    return suite


def _doc_finder(docs_dir: Path) -> Callable[..., list[str]]:
    """``test_docs.find_doctests``, looking in the real distribution's ``docs/``."""

    def find_doctests(suffix: str, ignore_suffix: str | None = None) -> list[str]:
        return [
            str(path)
            for path in sorted(docs_dir.iterdir())
            if path.name.endswith(suffix)
            and not (ignore_suffix is not None and path.name.endswith(ignore_suffix))
        ]

    return find_doctests


def _flatten(suite: unittest.TestSuite) -> Iterator[tuple[unittest.TestCase, Any]]:
    """Every test with the layer it runs in (a suite's ``layer`` covers its tests)."""

    def walk(item: Any, layer: Any) -> Iterator[tuple[unittest.TestCase, Any]]:
        layer = getattr(item, "layer", layer)
        if isinstance(item, unittest.TestSuite):
            for child in item:
                yield from walk(child, layer)
        else:
            yield item, layer

    yield from walk(suite, None)


def _set_up_layer(layer: Any, done: set[Any]) -> None:
    """Set a layer up after its bases, each once (zope.testrunner's order)."""
    if layer is None or layer is object or layer in done:
        return
    for base in layer.__bases__:
        _set_up_layer(base, done)
    if "setUp" in vars(layer):
        layer.setUp()
    done.add(layer)


def _selected(test: unittest.TestCase, names: Sequence[str]) -> bool:
    return not names or any(name in test.id() for name in names)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    names = [arg for arg in argv if arg != "-v"]
    _check_served_by_wadlclient()
    package_dir = real_package_dir()
    sys.meta_path.insert(0, _TestsFinder(package_dir / "tests"))
    intercepts = LoopbackIntercepts()
    _install_intercepts(intercepts)

    version = importlib.metadata.version("lazr.restfulclient")
    tests = [
        pair for pair in _flatten(_load_suite(package_dir / "docs")) if _selected(pair[0], names)
    ]
    result = unittest.TextTestRunner(verbosity=2 if verbose else 1, stream=sys.stdout).run(
        _layered(tests)
    )
    passed = result.testsRun - len(result.failures) - len(result.errors) - len(result.skipped)
    print(
        f"lazr.restfulclient {version} suite on wadlclient (resource.ServiceRoot from "
        f"wadlclient, {intercepts.served} requests over loopback): {passed} passed, "
        f"{len(result.failures)} failed, {len(result.errors)} errors, {len(result.skipped)} skipped"
    )
    if intercepts.served == 0 and any(layer is not None for _, layer in tests):
        print("no request reached the loopback servers: the suite did not use wadlclient's pool")
        return 1
    expected = EXPECTED.get(version)
    if not names and expected is not None and result.testsRun != expected:
        print(f"expected {expected} tests for lazr.restfulclient {version}, ran {result.testsRun}")
        return 1
    return 0 if result.wasSuccessful() else 1


def _layered(tests: list[tuple[unittest.TestCase, Any]]) -> unittest.TestSuite:
    """The tests in order, each layer set up (once) just before its first test."""
    done: set[Any] = set()
    suite = unittest.TestSuite()
    for test, layer in tests:
        suite.addTest(_LayerSetUp(layer, done))
        suite.addTest(test)
    return suite


class _LayerSetUp(unittest.TestSuite):
    """Not a test: sets up a layer when the run reaches it."""

    def __init__(self, layer: Any, done: set[Any]) -> None:
        super().__init__()
        self._layer = layer
        self._done = done

    def run(self, result: Any, debug: bool = False) -> Any:
        _set_up_layer(self._layer, self._done)
        return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
