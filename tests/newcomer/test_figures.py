"""Figures the docs quote from the benchmarks are the ones benchmarks/RESULTS.md holds.

A figure written with two or three decimals and a unit (``4.49 s``,
``0.642 s``) is a measured
one: it must be a cell of RESULTS.md's tables, so a new benchmark run that
changes it makes the page that quotes it fail here rather than go stale.
"""

from __future__ import annotations

import re

import pytest

from .docblocks import ROOT

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
#: Pages that quote the benchmarks' figures.
QUOTING = ["docs/far-away.md"]
FIGURE = re.compile(r"(?<![\d.])(\d+\.\d{2,3}) s\b")


def cells() -> set[str]:
    """Every figure with a unit in seconds in RESULTS.md's tables."""
    return set(re.findall(r"\| (\d+\.\d{2,3}) s \|", RESULTS.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", QUOTING)
def test_the_measured_figures_a_page_quotes_are_in_the_results(page: str) -> None:
    quoted = FIGURE.findall((ROOT / page).read_text(encoding="utf-8"))

    assert quoted, f"{page} quotes no figure: drop it from QUOTING"
    assert sorted(set(quoted) - cells()) == []
