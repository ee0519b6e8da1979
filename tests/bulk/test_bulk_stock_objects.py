"""`bulk.update` given stock launchpadlib objects: one error up front, naming the way out.

Stock lazr.restfulclient (what launchpadlib runs on) reads the example
service here; its collection, or a list of its entries, handed to
`bulk.update` is refused before anything is sent, with the command that
runs the same script on wadlclient's layer.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from lazr.restfulclient.resource import ServiceRoot as StockServiceRoot

from cookbook_service.testing import RunningService
from wadlclient import bulk


def _write(recipe: object) -> None:
    recipe.instructions = "Stir."  # type: ignore[attr-defined]


def test_a_stock_collection_is_refused_before_any_request(
    recipes: RunningService, tmp_path: Path
) -> None:
    stock = StockServiceRoot(None, recipes.url(), cache=str(tmp_path))
    collection = stock.recipes
    recipes.journal.clear()

    with pytest.raises(TypeError, match=r"python -m wadlclient\.lazr_compat") as refused:
        bulk.update(collection, _write)

    assert "stock launchpadlib" in str(refused.value)
    assert recipes.journal.entries() == []


def test_stock_entries_are_refused_once_not_failed_one_by_one(
    recipes: RunningService, tmp_path: Path
) -> None:
    stock = StockServiceRoot(None, recipes.url(), cache=str(tmp_path))
    entries = list(itertools.islice(stock.recipes, 3))
    recipes.journal.clear()

    with pytest.raises(TypeError, match=r"python -m wadlclient\.lazr_compat"):
        bulk.update(entries, _write)

    assert [entry.method for entry in recipes.journal.entries()] == []


def test_an_error_of_the_walk_still_comes_with_the_report() -> None:
    """Looking at the first entry must not change how a failing walk is reported."""

    def failing_walk():  # type: ignore[no-untyped-def]
        raise ConnectionError("the walk broke")
        yield

    with pytest.raises(ConnectionError) as stopped:
        bulk.update(failing_walk(), _write)

    assert stopped.value.bulk_report.results == ()  # type: ignore[attr-defined]
