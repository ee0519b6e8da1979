"""The typed tests' checkers, run once for the whole test run (every pytest-xdist worker).

mypy: one run checks everything the typed tests ask it about (the launchpad
modules, the stubgen scripts against the package stubgen writes for the
example service, and the package it writes for the Launchpad WADL), and
each test asserts on its own files: one mypy process is about 0.5 s of CPU
before it checks a line. Its cache is the project's configuration's, seeded
from the project's ``.mypy_cache`` when ``make lint`` has left one (copied:
nothing is written back), so wadlclient, its stubs and the standard library
are analysed at most once per run. pyright: one run on the launchpad modules.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
from benchmarks.config import launchpad_published_wadl_path
from tests.once_per_run import key_of, made_once
from tests.typed.checkers import (
    CONFIG,
    COOKBOOK_PACKAGE,
    LAUNCHPAD_CHECKED,
    LAUNCHPAD_PACKAGE,
    ROOT,
    SCRIPTS,
    STUBGEN_SCRIPTS,
    diagnostics_by_file,
    errors_by_file,
    run_mypy,
    run_pyright,
    split_output,
)

from wadlclient.stubgen import generate, load, write_package


def _seed(cache: Path) -> None:
    """Start from ``make lint``'s cache, if any: same mypy, same options, so its modules hold."""
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache, dirs_exist_ok=True)


@pytest.fixture(scope="session")
def typed_mypy(
    tmp_path_factory: pytest.TempPathFactory,
    _cookbook_service_pool: Any,
    launchpad_wadl_path: Path,
) -> Path:
    """The directory of the run's one mypy run: its ``output.txt`` and the packages it checked.

    ``stubgen-cookbook/cookbook_typed``: what stubgen writes for the example service (the
    stubgen scripts import it); ``stubgen-launchpad/launchpad_typed``: what it writes for
    the Launchpad WADL.
    """
    cache = made_once(tmp_path_factory, f"mypy-cache-{key_of(CONFIG)}", _seed)

    def check(where: Path) -> None:
        service = _cookbook_service_pool.get()
        cookbook, launchpad = where / COOKBOOK_PACKAGE, where / LAUNCHPAD_PACKAGE
        typed = generate(*load(service.base_url), "cookbook_typed")
        write_package(cookbook, "cookbook_typed", typed)
        files = generate(*load(str(launchpad_wadl_path)), "launchpad_typed")
        package = write_package(launchpad, "launchpad_typed", files)
        targets = (*LAUNCHPAD_CHECKED, *STUBGEN_SCRIPTS, package)
        (where / "output.txt").write_text(run_mypy(cache, targets, where, (cookbook, launchpad)))

    inputs = (CONFIG, LAUNCHPAD_CHECKED, STUBGEN_SCRIPTS)
    return made_once(tmp_path_factory, f"mypy-typed-{key_of(*inputs)}", check)


@pytest.fixture(scope="session")
def stubgen_mypy_output(typed_mypy: Path) -> list[str]:
    """mypy's lines about the stubgen scripts and the packages stubgen wrote for the run."""
    places = (SCRIPTS, typed_mypy / COOKBOOK_PACKAGE, typed_mypy / LAUNCHPAD_PACKAGE)
    return split_output((typed_mypy / "output.txt").read_text(), *places, cwd=typed_mypy)[0]


@pytest.fixture(scope="session")
def launchpad_mypy_errors(typed_mypy: Path) -> dict[str, list[tuple[int, str]]]:
    """mypy's errors in the launchpad modules (and anything they import), by file name."""
    places = (SCRIPTS, typed_mypy / COOKBOOK_PACKAGE, typed_mypy / LAUNCHPAD_PACKAGE)
    rest = split_output((typed_mypy / "output.txt").read_text(), *places, cwd=typed_mypy)[1]
    return errors_by_file("\n".join(rest))


@pytest.fixture(scope="session")
def launchpad_devel_package(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files stubgen writes from Launchpad's devel WADL as ``make launchpad-typed`` runs it.

    Made once per run (about 0.5 s of CPU): the shipped package is compared with it, and
    the fixups' tests read its stub.
    """

    def make(where: Path) -> None:
        schema, root = load(str(launchpad_published_wadl_path("devel")))
        files = generate(schema, root, "launchpad", untyped="any", fixups="launchpad")
        write_package(where, "launchpad", files)

    package = made_once(tmp_path_factory, "launchpad-devel-package", make) / "launchpad"
    return {path.name: path.read_text(encoding="utf-8") for path in package.iterdir()}


@pytest.fixture(scope="session")
def launchpad_pyright(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """pyright's diagnostics on the launchpad modules, by file name, from one run per test run."""
    if importlib.util.find_spec("pyright") is None:
        pytest.skip("pyright is not installed: the lint extra installs it (make test does)")
    key = key_of(LAUNCHPAD_CHECKED)
    where = made_once(tmp_path_factory, f"pyright-launchpad-{key}", run_pyright)
    return diagnostics_by_file(where / "report.json")
