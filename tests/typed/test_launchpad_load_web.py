"""``load_web`` typed: ``kind`` says which class the typed package returns.

``launchpad/web_bot.py`` (a bot loading pasted addresses with
``lp.load_web(text, "bug_task")``) checks clean under ``mypy --strict`` and
pyright in strict mode but for its one marked typo.
"""

from __future__ import annotations

from typing import Any

from tests.typed.checkers import LAUNCHPAD

BOT = LAUNCHPAD / "web_bot.py"
MARKED = [n for n, line in enumerate(BOT.read_text().splitlines(), 1) if "# error" in line]


def test_mypy_strict_types_load_web_by_kind_and_catches_the_typo(
    launchpad_mypy_errors: dict[str, list[tuple[int, str]]],
) -> None:
    errors = launchpad_mypy_errors.get(BOT.name, [])

    assert [line for line, _ in errors] == MARKED, errors
    assert '"BugTask" has no attribute "statuss"' in errors[0][1]


def test_pyright_strict_types_load_web_by_kind_and_catches_the_typo(
    launchpad_pyright: dict[str, list[dict[str, Any]]],
) -> None:
    errors = [d for d in launchpad_pyright.get(BOT.name, []) if d["severity"] == "error"]

    assert sorted({d["range"]["start"]["line"] + 1 for d in errors}) == MARKED, errors
    assert any('"statuss"' in str(d["message"]) for d in errors)
