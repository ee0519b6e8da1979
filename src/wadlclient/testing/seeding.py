"""A fake Launchpad made from the command line: its version, its port, and a seed file.

A seed file is a Python file that defines ``seed(fake)``: it is called
once with the started `FakeService`, to add entries and register handlers
(``fake.add(...)``, ``@fake.operation(...)``), as a test would. Both
``python -m wadlclient.testing serve`` and ``python -m wadlclient.lazr_compat
--fake`` use it, so one seed serves a long-running fake and a single run.
Whatever is wrong (no such file, a file that fails, no ``seed``, a version
the kit does not ship, a port in use) is one `SeedError` naming it.
"""

from __future__ import annotations

import runpy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wadlclient.errors import RestfulError
from wadlclient.testing.service import FakeService
from wadlclient.testing.wadls import launchpad_wadl

__all__ = ["SeedError", "launchpad_fake", "read_seed"]

Seed = Callable[[FakeService], Any]


class SeedError(RestfulError, ValueError):
    """A fake that cannot be made as asked: the message names the file or option, and why."""


def read_seed(path: str | Path) -> Seed:
    """The ``seed(fake)`` function the file at ``path`` defines."""
    if not Path(path).is_file():
        raise SeedError(f"{path}: no such seed file")
    try:
        names = runpy.run_path(str(path), run_name="wadlclient_seed")
    except Exception as error:  # the seed's own fault, shown in one line
        raise SeedError(f"{path}: the seed file failed: {type(error).__name__}: {error}") from None
    seed = names.get("seed")
    if not callable(seed):
        raise SeedError(f"{path}: a seed file defines seed(fake), called with the fake to fill")
    return seed  # type: ignore[no-any-return]


def launchpad_fake(version: str, seed: str | Path | None = None, *, port: int = 0) -> FakeService:
    """A started fake Launchpad of ``version``, listening on ``port``, filled by ``seed``."""
    try:
        wadl = launchpad_wadl(version)
    except ValueError as error:
        raise SeedError(str(error)) from None
    fill = read_seed(seed) if seed is not None else None
    try:
        fake = FakeService(wadl, port=port).start()
    except OSError as error:
        raise SeedError(str(error.strerror or error)) from None
    if fill is not None:
        try:
            fill(fake)
        except Exception as error:  # the seed's own fault, shown in one line
            fake.close()
            raise SeedError(f"{seed}: seed(fake) failed: {type(error).__name__}: {error}") from None
    return fake
