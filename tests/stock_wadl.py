"""Test-process economies for stock launchpadlib on a fake: one WADL parse per document, one port.

Stock lazr.restfulclient parses the WADL at every login
(``Browser.get_wadl_application`` -> ``wadllib.application.Application``):
for Launchpad's 2.2 MB devel WADL some 26,000 elements and 400,000
objects, a quarter to half a second of CPU, and cyclic garbage the
collector's full passes then walk. The consumer tests log in a few times
per test, each test against a fresh fake.

`remember_stock_wadl_parses` makes that parse once per process for a
given (address, document): the same bytes from the same address parse to
the same `Application`, and wadllib's is read-only once made (its only
later writes are the memo of a definition's resolution, the same for
every reader). The stock program still runs unchanged; it merely gets
the object a second parse would have built. Only the test process's
stock lazr.restfulclient is touched, never wadlclient's.

A fake's WADL holds its own address, so each new fake on a new port
would be a new document: `FakeService` is made on the port the last fake
of the process listened on (`fake_on_the_last_port`), a free port when
that one is taken. The fake is fresh for each test as before; only its
port number repeats.

A conftest takes both by importing the fixtures: ``fake_launchpad`` (the
kit's, on the last port) and ``stock_wadl_parsed_once`` (autouse). The
kit's own fixture is still what a project gets, and what
tests/testing_kit/test_pytest_fixture.py checks.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wadlclient.testing import FakeService
from wadlclient.testing.launchpad import patched_launchpad
from wadlclient.testing.pytest_plugin import handler_error_summary

__all__ = [
    "fake_launchpad",
    "fake_on_the_last_port",
    "remember_stock_wadl_parses",
    "stock_wadl_parsed_once",
]

#: (address, document) -> the stock Application parsed from it, newest last.
_PARSED: OrderedDict[tuple[str, bytes], Any] = OrderedDict()

#: How many parsed documents are kept (Launchpad's devel and 1.0 WADLs, on one port or two).
KEPT = 3

#: The port of the last fake `fake_on_the_last_port` made, 0 before the first.
_last_port = 0


def remember_stock_wadl_parses() -> bool:
    """Stock lazr.restfulclient's WADL parses memoized in this process; False on wadlclient's.

    Idempotent: a second call finds the memo in place.
    """
    browser = sys.modules.get("lazr.restfulclient._browser")
    if browser is None:
        import lazr.restfulclient._browser as browser  # type: ignore[import-untyped]
    if browser.__spec__.name.startswith("wadlclient."):
        return False
    parse = browser.Application
    if getattr(parse, "remembered", False):
        return True

    def application(url: str, markup: bytes | str) -> Any:
        key = (str(url), markup if isinstance(markup, bytes) else markup.encode("utf-8"))
        found = _PARSED.get(key)
        if found is None:
            found = _PARSED[key] = parse(url, markup)
            while len(_PARSED) > KEPT:
                _PARSED.popitem(last=False)
        _PARSED.move_to_end(key)
        return found

    application.remembered = True  # type: ignore[attr-defined]
    browser.Application = application
    return True


def fake_on_the_last_port(wadl: bytes | str | Path) -> FakeService:
    """A new `FakeService` of ``wadl``, on the port the previous one of this process had."""
    global _last_port
    fake: FakeService | None = None
    if _last_port:
        try:
            fake = FakeService(wadl, port=_last_port)
        except OSError:
            fake = None
    if fake is None:
        fake = FakeService(wadl)
    _last_port = int(fake.service_root.rsplit(":", 1)[1].rstrip("/"))
    return fake


@pytest.fixture
def fake_launchpad(fake_launchpad_wadl: Path | bytes, tmp_path: Path) -> Iterator[FakeService]:
    """The kit's ``fake_launchpad``, fresh for each test, on the port of the process's last fake.

    With the port, the WADL it serves is the very document the last fake
    served, and stock launchpadlib's parse of it is remembered.
    """
    with (
        fake_on_the_last_port(fake_launchpad_wadl) as fake,
        patched_launchpad(fake, cache=str(tmp_path / "lp-cache")),
    ):
        yield fake
    if fake.handler_errors:
        pytest.fail(handler_error_summary(fake.handler_errors), pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def stock_wadl_parsed_once() -> None:
    """Stock lazr.restfulclient, when it is the one imported here, parses a document once."""
    remember_stock_wadl_parses()
