"""Launchpad's devel API, typed: correct code checks clean, each typo is an error.

``launchpad/devel_flows.py`` uses the devel-only operations
(``requestBuilds``, ``rock_recipes``, ``git_repositories.getByPath``)
through `wadlclient.launchpad` and launchpadlib; ``launchpad/real_client.py``
is launchpadlib code in a build tool's shape (``me`` read after a login,
`pathlib.Path` directories, lazr's ``Entry`` and ``Collection`` in
annotations). ``mypy --strict`` and pyright in strict mode, both for
Python 3.10, find nothing in either and exactly the typos of
``launchpad/devel_typos.py``.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.once_per_run import key_of, made_once
from tests.typed.mypy_cache import MypyCache

HERE = Path(__file__).resolve().parent / "launchpad"
FLOWS, CLIENT, TYPOS = HERE / "devel_flows.py", HERE / "real_client.py", HERE / "devel_typos.py"


def _marked(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if "# error" in line]


@pytest.fixture(scope="module")
def mypy_errors(mypy_cache: MypyCache) -> list[tuple[str, int, str]]:
    """``mypy --strict`` for Python 3.10 on the three modules: each error's file, line, message."""
    with mypy_cache(HERE) as cache:
        done = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.10",
             "--cache-dir", str(cache), "--no-error-summary", "--hide-error-context",
             *map(str, (FLOWS, CLIENT, TYPOS))],
            cwd=HERE, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
    assert not done.stderr, done.stderr
    found = []
    for line in done.stdout.splitlines():
        if ": error: " in line:
            where, message = line.split(": error: ", 1)
            name, number = where.rsplit(":", 1)
            found.append((Path(name).name, int(number), message))
    return found


def _pyright(where: Path) -> None:
    """Run pyright in strict mode for Python 3.10 on copies of the three modules in ``where``."""
    for source in (FLOWS, CLIENT, TYPOS):
        (where / source.name).write_text(source.read_text())
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.10"}
    (where / "pyrightconfig.json").write_text(json.dumps(config))
    done = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable],
        cwd=where, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.stdout.startswith("{"), done.stdout + done.stderr
    (where / "report.json").write_text(done.stdout)


@pytest.fixture(scope="session")
def pyright_errors(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """pyright's errors on the three modules, from one run shared by the pytest-xdist workers."""
    if importlib.util.find_spec("pyright") is None:
        pytest.skip("pyright is not installed: the lint extra installs it (make test does)")
    key = key_of([FLOWS, CLIENT, TYPOS])
    where = made_once(tmp_path_factory, f"pyright-devel-{key}", _pyright)
    report = json.loads((where / "report.json").read_text())
    diagnostics: list[dict[str, Any]] = report["generalDiagnostics"]
    return [d for d in diagnostics if d["severity"] == "error"]


def _line(diagnostic: dict[str, Any]) -> tuple[str, int]:
    return Path(diagnostic["file"]).name, diagnostic["range"]["start"]["line"] + 1


def test_mypy_strict_finds_nothing_wrong_in_correct_devel_code(
    mypy_errors: list[tuple[str, int, str]],
) -> None:
    assert [e for e in mypy_errors if e[0] != TYPOS.name] == []


def test_pyright_strict_finds_nothing_wrong_in_correct_devel_code(
    pyright_errors: list[dict[str, Any]],
) -> None:
    assert [d for d in pyright_errors if _line(d)[0] != TYPOS.name] == []


def test_mypy_strict_reports_each_typo_in_its_words(
    mypy_errors: list[tuple[str, int, str]],
) -> None:
    field, option, parameter, operation, collection, on_launchpadlib = _marked(TYPOS)

    assert [(line, message) for name, line, message in mypy_errors if name == TYPOS.name] == [
        (field, '"Snap" has no attribute "store_chanels"; maybe "store_channels"?  [attr-defined]'),
        (option, "Incompatible return value type (got \"Literal['Updatess']\", expected "
                 "\"Literal['Release', 'Security', 'Updates', 'Proposed', 'Backports']\")"
                 "  [return-value]"),
        (parameter, 'Unexpected keyword argument "chanels" for "requestBuilds" of "Snap"; '
                    'did you mean "channels"?  [call-arg]'),
        (operation, '"Snaps" has no attribute "findByOwnr"; maybe "findByOwner"?  [attr-defined]'),
        (collection, '"ServiceRoot" has no attribute "rock_recipies"; maybe "rock_recipes"?'
                     "  [attr-defined]"),
        (on_launchpadlib, '"GitRepositories" has no attribute "getByPth"; maybe "getByPath"?'
                          "  [attr-defined]"),
    ]  # fmt: skip


def test_pyright_strict_reports_each_typo_by_its_rule(pyright_errors: list[dict[str, Any]]) -> None:
    field, option, parameter, operation, collection, on_launchpadlib = _marked(TYPOS)
    typos = [d for d in pyright_errors if _line(d)[0] == TYPOS.name]

    assert sorted({_line(d)[1] for d in typos}) == _marked(TYPOS)
    found = {(_line(d)[1], d["rule"], d["message"].splitlines()[0]) for d in typos}
    assert {
        (field, "reportAttributeAccessIssue",
         'Cannot access attribute "store_chanels" for class "Snap"'),
        (option, "reportReturnType",
         "Type \"Literal['Updatess']\" is not assignable to return type \"Pocket\""),
        (parameter, "reportCallIssue", 'No parameter named "chanels"'),
        (operation, "reportAttributeAccessIssue",
         'Cannot access attribute "findByOwnr" for class "Snaps"'),
        (collection, "reportAttributeAccessIssue",
         'Cannot access attribute "rock_recipies" for class "ServiceRoot"'),
        (on_launchpadlib, "reportAttributeAccessIssue",
         'Cannot access attribute "getByPth" for class "GitRepositories"'),
    } <= found  # fmt: skip
