"""A saved bulk report read back in a later process: `retry` works there; a bad file is one error.

The report of a real bulk change on the example service (some entries
failing) is saved, loaded back as it was, and retried in a child process,
which changes the failed entries only (the service's journal counts the
writes). Damaged, edited and hostile files (wrong schema, not JSON, too
large, a FIFO, a directory, a device) each give one `ReportFileError`
naming the file, without blocking or reading more than the cap.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot, bulk
from wadlclient.bulk import ReportFileError, load_report

CHILD = Path(__file__).with_name("report_retry_child.py")


def not_yet_for_every_third(recipe: Any) -> None:
    if recipe.id % 3 == 0:
        raise ValueError(f"not yet: recipe {recipe.id}")
    recipe.instructions = "Done in bulk."


@pytest.fixture
def saved(recipes: RunningService, tmp_path: Path) -> tuple[bulk.BulkReport, Path]:
    """A report of 12 entries, 4 of them failed, saved to a file."""
    with ServiceRoot(None, recipes.base_url) as root:
        report = bulk.update(root.recipes[:12], not_yet_for_every_third)
    path = Path(report.save(tmp_path / "report.json"))
    return report, path


def test_a_saved_report_loads_back_as_it_was(saved: tuple[bulk.BulkReport, Path]) -> None:
    report, path = saved

    loaded = load_report(path)

    assert loaded.to_json() == report.to_json()
    assert str(loaded) == str(report)
    assert [r.item for r in loaded.failed] == [r.item for r in report.failed]
    assert len(report.failed) == 4


def test_a_later_process_retries_the_failed_entries_only(
    saved: tuple[bulk.BulkReport, Path], recipes: RunningService
) -> None:
    report, path = saved
    recipes.journal.clear()

    child = subprocess.run(
        [sys.executable, str(CHILD), str(path), recipes.base_url],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip

    retried = json.loads(child.stdout)
    assert [item["item"] for item in retried["items"]] == [r.item for r in report.failed]
    assert retried["counts"] == {"changed": 4, "writes": 4}
    patched = [e.path for e in recipes.journal.entries() if e.method == "PATCH"]
    assert sorted(patched) == sorted(urlsplit(r.item).path for r in report.failed)


def test_retrying_a_loaded_report_needs_the_root_and_the_change(
    saved: tuple[bulk.BulkReport, Path],
) -> None:
    _, path = saved

    with pytest.raises(ValueError, match=r"root= .* change="):
        load_report(path).retry()


def test_a_bulk_calls_report_says_it_cannot_be_retried_from_the_file(tmp_path: Path) -> None:
    def odd(number: int) -> int:
        if number % 2:
            raise ValueError("odd")
        return number

    path = bulk.call(range(4), odd).save(tmp_path / "calls.json")

    with pytest.raises(ValueError, match=r"run bulk\.call on them again"):
        load_report(path, root=object(), change=odd).retry()


def _valid(saved: tuple[bulk.BulkReport, Path]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(saved[1].read_text())
    return document


EDITS = {
    "a list": lambda d: [d],
    "no operation": lambda d: {k: v for k, v in d.items() if k != "operation"},
    "an unknown operation": lambda d: {**d, "operation": "bulk delete"},
    "items not a list": lambda d: {**d, "items": {"0": d["items"][0]}},
    "an item not an object": lambda d: {**d, "items": ["x"]},
    "an unknown status": lambda d: {**d, "items": [{**d["items"][0], "status": "done"}]},
    "a negative position": lambda d: {**d, "items": [{**d["items"][0], "position": -1}]},
    "a position as text": lambda d: {**d, "items": [{**d["items"][0], "position": "0"}]},
    "a failure without its error": lambda d: {
        **d,
        "items": [{k: v for k, v in d["items"][2].items() if k != "error"}],
    },
    "dry_run as text": lambda d: {**d, "dry_run": "no"},
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_report_that_is_no_longer_one_is_one_clear_error(
    saved: tuple[bulk.BulkReport, Path], tmp_path: Path, edit: str
) -> None:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(EDITS[edit](_valid(saved))))

    with pytest.raises(ReportFileError, match=f"bulk report {path} is not a report saved"):
        load_report(path)


@pytest.mark.parametrize(
    ("content", "cause"),
    [
        (b'{"operation": "bulk upd', "is not JSON"),
        (b"\xff\xfe not text", "is not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|is not JSON"),
    ],
)
def test_a_damaged_report_is_one_clear_error(tmp_path: Path, content: bytes, cause: str) -> None:
    path = tmp_path / "damaged.json"
    path.write_bytes(content)

    with pytest.raises(ReportFileError, match=cause):
        load_report(path)


def test_a_report_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(bulk.MAX_REPORT_BYTES + 1)  # sparse: nothing to read, only its size

    with pytest.raises(ReportFileError, match="larger than"):
        load_report(path)


def test_a_smaller_cap_can_be_asked_for(saved: tuple[bulk.BulkReport, Path]) -> None:
    with pytest.raises(ReportFileError, match="larger than 100 bytes"):
        load_report(saved[1], max_bytes=100)


def _load_in_a_thread(path: Path) -> BaseException | None:
    """``load_report(path)``'s error, from a thread that must end at once (never blocks)."""
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_report(path)
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(timeout=30)  # a generous bound for a loaded machine: it returns in microseconds
    assert outcome, f"load_report({path}) blocked"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    os.mkfifo(path)

    error = _load_in_a_thread(path)

    assert isinstance(error, ReportFileError) and "not a regular file" in str(error)


@pytest.mark.parametrize("kind", ["a directory", "a device", "missing"])
def test_what_is_not_a_regular_file_is_one_clear_error(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "report.json"
    if kind == "a directory":
        path.mkdir()
    elif kind == "a device":
        path.symlink_to("/dev/zero")

    error = _load_in_a_thread(path)

    assert isinstance(error, ReportFileError) and str(path) in str(error)
