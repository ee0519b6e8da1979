"""The type of the ``mypy_cache`` fixture (conftest.py), for the tests' annotations."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

#: ``mypy_cache(*options)``: the run's cache for mypy runs with these options, held until left.
MypyCache = Callable[..., AbstractContextManager[Path]]
