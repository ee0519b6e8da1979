"""Launchpad's facts in the typed package: lookups never None, list params typed; typos caught.

``Person.getPPAByName``, ``Distribution.getSeries``,
``DistroSeries.getDistroArchSeries``, ``processors.getByName``... raise
Launchpad's ``NotFoundError`` (HTTP 404) for nothing found; the WADL says
they answer an entry, and the facts table (`wadlclient.facts.launchpad`'s
``FOUND_OR_404``) says never null, so the typed package types them ``X``,
not ``X | None``; a list param (``processors``) takes entries or links, one
or a sequence, as the table says. ``launchpad/lp_cli.py``, a command-line
client's lookups written with no None check, checks clean under ``mypy
--strict`` and pyright in strict mode but for its marked mistakes.
"""

from __future__ import annotations

from typing import Any

from tests.typed.checkers import LAUNCHPAD

from wadlclient.facts.launchpad import FOUND_OR_404
from wadlclient.stubgen.fixups import LAUNCHPAD as FIXUPS

CLI = LAUNCHPAD / "lp_cli.py"
MARKED = [n for n, line in enumerate(CLI.read_text().splitlines(), 1) if "# error" in line]


def test_the_fixups_type_every_lookup_of_the_facts_table_as_found_or_404() -> None:
    assert FIXUPS.found_or_404 == frozenset(FOUND_OR_404)
    assert {("person", "getPPAByName"), ("distribution", "getSeries")} <= FIXUPS.found_or_404


def test_mypy_strict_finds_no_false_error_in_a_cli_and_still_catches_its_mistakes(
    launchpad_mypy_errors: dict[str, list[tuple[int, str]]],
) -> None:
    errors = launchpad_mypy_errors.get(CLI.name, [])

    assert [line for line, _ in errors] == MARKED, errors
    assert 'List item 0 has incompatible type "int"' in errors[0][1]
    assert '"Archive" has no attribute "getBuildRecord"' in errors[1][1]


def test_pyright_strict_finds_no_false_error_in_a_cli_and_still_catches_its_mistakes(
    launchpad_pyright: dict[str, list[dict[str, Any]]],
) -> None:
    errors = [d for d in launchpad_pyright.get(CLI.name, []) if d["severity"] == "error"]

    assert sorted({d["range"]["start"]["line"] + 1 for d in errors}) == MARKED, errors
    assert any('"getBuildRecord"' in str(d["message"]) for d in errors)
