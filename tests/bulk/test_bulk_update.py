"""`wadlclient.bulk.update`: each entry read fresh, changed, saved; a report of each (issue 31).

Against the example service over loopback; the wire is read from its journal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from cookbook_service.testing import RunningService
from wadlclient import BulkPolicy, PreconditionFailed, ServiceRoot, bulk

from .conftest import SEARCH, generated, instructions


def methods(service: RunningService) -> list[str]:
    return [entry.method for entry in service.journal.entries()]


def done(recipe: Any) -> None:
    recipe.instructions = "Done in bulk."


def test_every_entry_a_search_finds_is_changed_though_the_changes_move_the_search(
    recipes: RunningService,
) -> None:
    before = generated(recipes)
    with ServiceRoot(None, recipes.base_url) as root:
        report = bulk.update(root.cookbooks.find_recipes(search=SEARCH), done)

    assert report.ok and len(report) == len(before) == 40
    assert [r.status for r in report] == ["changed"] * 40
    assert generated(recipes) == []
    assert methods(recipes).count("PATCH") == 40
    assert report.counts() == {"changed": 40, "writes": 40}


def test_an_entry_that_already_holds_the_change_is_unchanged_and_sent_nothing(
    recipes: RunningService,
) -> None:
    with ServiceRoot(None, recipes.base_url) as root:
        first = root.recipes[:3]
        recipes.store.update_recipe(first[1].id, {"instructions": "Done in bulk."})

        report = bulk.update(first, done)

    assert [r.status for r in report] == ["changed", "unchanged", "changed"]
    assert methods(recipes).count("PATCH") == 2


def test_a_dry_run_reads_and_sends_no_write(recipes: RunningService) -> None:
    with ServiceRoot(None, recipes.base_url) as root:
        entries = root.recipes[:5]
        recipes.journal.clear()

        report = bulk.update(entries, done, dry_run=True)

    assert [r.status for r in report] == ["would change"] * 5
    assert report.results[0].changes == {"instructions": "Done in bulk."}
    assert set(methods(recipes)) == {"GET"}
    assert "dry run: nothing sent" in str(report)
    with pytest.raises(ValueError, match="dry run"):
        report.retry()


def test_someone_elses_change_between_read_and_save_is_read_again_and_the_change_applied_again(
    recipes: RunningService,
) -> None:
    calls: list[str] = []

    def append_note(recipe: Any) -> None:
        calls.append(recipe.instructions)
        if len(calls) == 1:  # someone else edits it after our read: our save meets a 412
            recipes.store.update_recipe(recipe.id, {"instructions": "Edited elsewhere."})
        recipe.instructions = recipe.instructions + " Checked."

    with ServiceRoot(None, recipes.base_url) as root:
        entry = root.recipes[0]
        recipes.journal.clear()
        report = bulk.update([entry], append_note)

    assert report.results[0].status == "changed" and report.results[0].writes == 2
    assert calls[1] == "Edited elsewhere."
    assert instructions(recipes, entry.id) == "Edited elsewhere. Checked."
    patches = [e.status for e in recipes.journal.entries() if e.method == "PATCH"]
    assert patches == [412, 209]


def test_an_entry_that_keeps_changing_fails_after_the_conflicts_allowed(
    recipes: RunningService,
) -> None:
    def contested(recipe: Any) -> None:
        recipes.store.update_recipe(recipe.id, {"instructions": f"Edit {recipe.http_etag}"})
        recipe.instructions = "Mine."

    with ServiceRoot(None, recipes.base_url) as root:
        entry = root.recipes[0]
        recipes.journal.clear()
        report = bulk.update([entry], contested, policy=BulkPolicy(conflicts=2))

    (result,) = report.failed
    assert isinstance(result.error, PreconditionFailed) and result.writes == 3
    assert [e.status for e in recipes.journal.entries() if e.method == "PATCH"] == [412] * 3
    assert f"failed {result.item}: HTTP Error 412" in str(report)


def test_a_change_that_raises_fails_its_entry_only(recipes: RunningService) -> None:
    def picky(recipe: Any) -> None:
        if recipe.id % 2:
            raise LookupError(f"no rule for recipe {recipe.id}")
        done(recipe)

    with ServiceRoot(None, recipes.base_url) as root:
        report = bulk.update(root.recipes[:6], picky)

    assert [r.status for r in report] == ["failed", "changed"] * 3
    assert all(isinstance(r.error, LookupError) for r in report.failed)
    assert not report.ok


def test_retry_sends_the_failed_entries_only(recipes: RunningService) -> None:
    refused: set[int] = set()

    def first_time_odd_fails(recipe: Any) -> None:
        if recipe.id % 2 and recipe.id not in refused:
            refused.add(recipe.id)
            raise RuntimeError("not yet")
        done(recipe)

    with ServiceRoot(None, recipes.base_url) as root:
        report = bulk.update(root.recipes[:6], first_time_odd_fails)
        recipes.journal.clear()
        again = report.retry()

    assert [r.item for r in again] == [r.item for r in report.failed]
    assert again.ok and [r.status for r in again] == ["changed"] * 3
    patched = [e.path for e in recipes.journal.entries() if e.method == "PATCH"]
    assert sorted(patched) == sorted(urlsplit(r.item).path for r in report.failed)


def test_the_report_saves_every_item_as_json(recipes: RunningService, tmp_path: Path) -> None:
    def picky(recipe: Any) -> None:
        if recipe.id == 2:
            raise LookupError("no rule")
        done(recipe)

    with ServiceRoot(None, recipes.base_url) as root:
        report = bulk.update(root.recipes[:3], picky)

    saved = json.loads(Path(report.save(tmp_path / "report.json")).read_text())
    assert saved["counts"] == {"changed": 2, "failed": 1, "writes": 2}
    assert [item["status"] for item in saved["items"]] == ["changed", "failed", "changed"]
    assert saved["items"][1]["error"] == {"type": "LookupError", "message": "no rule"}
    assert saved["items"][0]["changes"] == {"instructions": "Done in bulk."}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_at_most_four_saves_are_in_flight_by_default(slow_recipes: RunningService) -> None:
    with ServiceRoot(None, slow_recipes.base_url) as root:
        entries = root.recipes[:20]
        slow_recipes.journal.clear()
        report = bulk.update(entries, done)

    assert report.ok
    saves = [e for e in slow_recipes.journal.entries() if e.method == "PATCH"]
    assert most_at_once(saves) == 4


def test_a_minimum_interval_still_saves_every_entry(slow_recipes: RunningService) -> None:
    with ServiceRoot(None, slow_recipes.base_url) as root:
        entries = root.recipes[:6]
        slow_recipes.journal.clear()
        report = bulk.update(entries, done, policy=BulkPolicy(min_interval=0.01))

    assert report.ok
    assert len([e for e in slow_recipes.journal.entries() if e.method == "PATCH"]) == 6


def most_at_once(entries: list[Any]) -> int:
    """The most requests that were in the service at one moment."""
    events = sorted([(e.started, 1) for e in entries] + [(e.answered, -1) for e in entries])
    busy = peak = 0
    for _when, change in events:
        busy += change
        peak = max(peak, busy)
    return peak


def test_progress_shows_a_bar_on_stderr(
    recipes: RunningService, capfd: pytest.CaptureFixture[str]
) -> None:
    with ServiceRoot(None, recipes.base_url) as root:
        entries = root.recipes[:4]
        bulk.update(entries, done, progress=True)

    assert "bulk update:   0%|          | 0/4" in capfd.readouterr().err


def test_a_policy_that_cannot_work_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(ValueError, match="at least 1 write"):
        bulk.update([], done, policy=BulkPolicy(writes=0))


def test_ctrl_c_stops_the_run_with_the_report_of_every_write_sent(recipes: RunningService) -> None:
    def three_then_ctrl_c(entries: list[Any]) -> Any:
        yield from entries
        raise KeyboardInterrupt

    with ServiceRoot(None, recipes.base_url) as root:
        entries = root.recipes[:3]
        recipes.journal.clear()
        with pytest.raises(KeyboardInterrupt) as caught:
            bulk.update(three_then_ctrl_c(entries), done)

    report = caught.value.bulk_report  # type: ignore[attr-defined]
    assert report.interrupted and not report.ok and "interrupted" in str(report)
    assert {r.status for r in report} <= {"changed"}
    assert methods(recipes).count("PATCH") == len(report) <= 3


@pytest.mark.parametrize("retry_after", ["\u00b2", "soon", "-3"])  # "²": str.isdigit() yes
def test_a_retry_after_that_is_no_number_of_seconds_leaves_the_backoff_to_the_policy(
    retry_after: str,
) -> None:
    policy = BulkPolicy(backoff_base=0.5, backoff_max=30.0)

    assert 0.0 <= policy.backoff(1, retry_after) <= 0.5
    assert policy.backoff(1, "7") == 7.0
