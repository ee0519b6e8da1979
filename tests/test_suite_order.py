"""The suite's order: the longest tests first (tests/conftest.py), named by files that exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import LONGEST_FIRST

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module", LONGEST_FIRST)
def test_each_module_run_first_exists(module: str) -> None:
    assert (ROOT / module).is_file(), f"{module} is gone: update LONGEST_FIRST in tests/conftest.py"


def test_the_longest_modules_are_the_first_collected(request: pytest.FixtureRequest) -> None:
    modules = list(dict.fromkeys(item.nodeid.split("::")[0] for item in request.session.items))
    present = [module for module in LONGEST_FIRST if module in modules]

    assert modules[: len(present)] == present
