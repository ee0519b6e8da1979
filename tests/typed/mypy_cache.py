"""The type of the ``mypy_cache`` fixture (conftest.py), for the tests' annotations."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

#: ``mypy_cache(cwd)``: the run's cache for mypy run in ``cwd``, held until left.
MypyCache = Callable[[Path], AbstractContextManager[Path]]
