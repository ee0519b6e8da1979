"""How the typed tests run mypy and pyright, so every run of a checker in a test run is alike.

Every mypy run takes the project's own configuration (``pyproject.toml``:
strict, Python 3.10, the lowest the project supports), the same options as
``make lint``'s run: so one cache serves them all, seeded from the one
``make lint`` leaves. mypy checks each cached module against its source hash
and options, so a cache, however seeded, reports what a cold run would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"
LAUNCHPAD = Path(__file__).resolve().parent / "launchpad"
SCRIPTS = Path(__file__).resolve().parent / "scripts"
#: The launchpadlib code both checkers check: devel code, a build tool's models, their typos,
#: a command-line client's found-or-404 lookups.
LAUNCHPAD_CHECKED = (
    LAUNCHPAD / "devel_flows.py",
    LAUNCHPAD / "real_client.py",
    LAUNCHPAD / "devel_typos.py",
    LAUNCHPAD / "craft_models.py",
    LAUNCHPAD / "typos.py",
    LAUNCHPAD / "lp_cli.py",
    LAUNCHPAD / "web_bot.py",
)


#: The scripts test_stubgen.py checks: against the package stubgen writes for the example
#: service (``cookbook_typed``), and the plain API.
STUBGEN_SCRIPTS = (
    SCRIPTS / "typed_ok.py",
    SCRIPTS / "typed_mistakes.py",
    SCRIPTS / "typed_rules.py",
    SCRIPTS / "plain_api.py",
)

#: Where the typed tests' mypy run writes the packages stubgen makes for it, in its directory.
COOKBOOK_PACKAGE, LAUNCHPAD_PACKAGE = "stubgen-cookbook", "stubgen-launchpad"


def run_mypy(cache: Path, targets: tuple[Path, ...], cwd: Path, mypypath: tuple[Path, ...]) -> str:
    """mypy in a subprocess, as a user runs it, with the project's configuration; its output."""
    env = {**os.environ, "MYPYPATH": os.pathsep.join(map(str, mypypath))} if mypypath else None
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--strict",
         "--python-version", "3.10", "--cache-dir", str(cache), "--no-error-summary",
         "--hide-error-context", *map(str, targets)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert not done.stderr, done.stderr
    return done.stdout


def split_output(output: str, *places: Path, cwd: Path) -> tuple[list[str], list[str]]:
    """mypy's lines about files under ``places`` (relative to ``cwd`` or not); the rest."""
    ours: list[str] = []
    rest: list[str] = []
    for line in output.splitlines():
        where = (cwd / line.split(":", 1)[0]).resolve()
        (ours if any(where.is_relative_to(place) for place in places) else rest).append(line)
    return ours, rest


def errors_by_file(output: str) -> dict[str, list[tuple[int, str]]]:
    """mypy's errors in ``output``: each file's name to its (line, message) pairs, in order."""
    found: dict[str, list[tuple[int, str]]] = {}
    for line in output.splitlines():
        if ": error: " in line:
            where, message = line.split(": error: ", 1)
            name, number = where.rsplit(":", 1)
            found.setdefault(Path(name).name, []).append((int(number), message))
    return found


def run_pyright(where: Path) -> None:
    """pyright, strict, for Python 3.10, on copies of the launchpad modules in ``where``.

    One process for all of them: each is checked on its own, so each test reads its files'
    diagnostics from the one ``report.json``.
    """
    for source in LAUNCHPAD_CHECKED:
        (where / source.name).write_text(source.read_text())
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.10",
              "include": [source.name for source in LAUNCHPAD_CHECKED]}  # fmt: skip
    (where / "pyrightconfig.json").write_text(json.dumps(config))
    done = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable],
        cwd=where, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.stdout.startswith("{"), done.stdout + done.stderr
    (where / "report.json").write_text(done.stdout)


def diagnostics_by_file(report: Path) -> dict[str, list[dict[str, Any]]]:
    """pyright's diagnostics (every severity) in ``report``, by file name."""
    found: dict[str, list[dict[str, Any]]] = {}
    for diagnostic in json.loads(report.read_text())["generalDiagnostics"]:
        found.setdefault(Path(diagnostic["file"]).name, []).append(diagnostic)
    return found
