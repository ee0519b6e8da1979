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

from pathlib import Path
from typing import Any

import pytest
from tests.typed.checkers import LAUNCHPAD as HERE
from tests.typed.checkers import LAUNCHPAD_CHECKED

FLOWS, CLIENT, TYPOS = HERE / "devel_flows.py", HERE / "real_client.py", HERE / "devel_typos.py"
#: The modules test_launchpad_typed.py checks in the same runs.
THEIRS = {p.name for p in LAUNCHPAD_CHECKED} - {FLOWS.name, CLIENT.name, TYPOS.name}


def _marked(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if "# error" in line]


@pytest.fixture
def mypy_errors(
    launchpad_mypy_errors: dict[str, list[tuple[int, str]]],
) -> list[tuple[str, int, str]]:
    """``mypy --strict`` for Python 3.10 on the three modules: each error's file, line, message.

    The run checked test_launchpad_typed.py's modules too: their errors are its to judge.
    """
    return [
        (name, line, message)
        for name, errors in launchpad_mypy_errors.items()
        if name not in THEIRS
        for line, message in errors
    ]


@pytest.fixture
def pyright_errors(launchpad_pyright: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """pyright's errors on the three modules (strict, Python 3.10)."""
    return [
        diagnostic
        for name, diagnostics in launchpad_pyright.items()
        if name not in THEIRS
        for diagnostic in diagnostics
        if diagnostic["severity"] == "error"
    ]


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
