"""Fixtures of the consumer tests: real programs from PyPI, unchanged, against the testing kit.

Each module here runs twice: in this process, where launchpadlib runs on
the real lazr.restfulclient, and once more in a child started as
``python -m wadlclient.lazr_compat -m pytest <module>`` (`on_wadlclient`),
where it runs on wadlclient. ``lazr_client`` says which, and fails a test
that runs on the other one than it was started for.

Here stock launchpadlib logs in a few times per test, each against a fresh
fake: the fakes of a process keep one port and stock wadllib's parse of
their WADL is made once (`tests.stock_wadl`): that parse and its garbage
were half the CPU of these modules.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.stock_wadl import fake_launchpad, stock_wadl_parsed_once

#: The kit's fake on the last one's port, stock wadllib's parse made once (`tests.stock_wadl`).
__all__ = ["fake_launchpad", "stock_wadl_parsed_once"]

#: Set in the child that reruns a module on wadlclient (see `on_wadlclient`).
CLIENT_VARIABLE = "WADLCLIENT_CONSUMERS_CLIENT"


@pytest.fixture(autouse=True)
def programs_forget_their_logins() -> Iterator[None]:
    """ppa-dev-tools' memos emptied after each test, so no test's Launchpad outlives it.

    Its classes memoize their methods (``functools.lru_cache`` on ``self``),
    which keeps every ``Lp`` it made, and the launchpadlib login in it with
    the whole parsed WADL (about 100,000 objects), alive to the end of the
    process: the collector's full passes walked them for every later test.
    """
    yield
    for name, module in list(sys.modules.items()):
        if name == "ppa" or name.startswith("ppa."):
            for memo in _memos(name, vars(module).values()):
                memo.cache_clear()


def _memos(module: str, values: Iterable[object]) -> Iterator[Any]:
    """The ``lru_cache`` memos of a module's own functions, its classes' methods and properties."""
    for value in values:
        if getattr(value, "__module__", None) == module:
            found = [value, *vars(value).values()] if isinstance(value, type) else [value]
            found = [each.fget if isinstance(each, property) else each for each in found]
            yield from (memo for memo in found if callable(getattr(memo, "cache_clear", None)))


@pytest.fixture(scope="session")
def lazr_client() -> str:
    """``"wadlclient"`` or ``"stock"``: whose lazr.restfulclient launchpadlib runs on here."""
    import lazr.restfulclient

    module = sys.modules[lazr.restfulclient.__name__]
    found = "wadlclient" if module.__spec__.name.startswith("wadlclient.") else "stock"
    expected = os.environ.get(CLIENT_VARIABLE, "stock")
    assert found == expected, f"launchpadlib runs on {found}, this run is for {expected}"
    return found


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lazr_client: str) -> Path:
    """A home of the test's own: programs write ~/.lp_creds, ~/.cache, ~/.config there."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home
