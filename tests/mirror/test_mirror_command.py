"""``wadlclient mirror``: the report, ``--quiet``, Ctrl-C, one line per failure, progress."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.cli import main
from wadlclient.mirror import mirror
from wadlclient.mirror.progress import TerminalProgress

from .conftest import RECIPES, SOURCE


def arguments(service: RunningService, out: Path, *extra: str) -> list[str]:
    return ["mirror", service.base_url, "cookbooks", "--out", str(out), "--op", "find_recipes",
            "--arg", "search=Generated", "--since-arg", "modified_since",
            "--since-field", "date_last_modified", *extra]  # fmt: skip


def test_the_command_prints_the_report_and_saves_it_as_json(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments(service, tmp_path / "m", "--report", str(tmp_path / "r.json"))) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"{RECIPES} entries (full run): {RECIPES} new, 0 changed, 0 removed"
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved["counts"] == {"new": RECIPES, "changed": 0, "removed": 0}
    assert len(saved["new"]) == RECIPES


def test_quiet_prints_nothing(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments(service, tmp_path / "m", "--quiet")) == 0
    assert capsys.readouterr() == ("", "")


def test_another_mirrors_directory_is_one_line_of_error(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments(service, tmp_path / "m", "--quiet")) == 0
    status = main(["mirror", service.base_url, "recipes", "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert status == 2
    assert err == f"wadlclient: {tmp_path / 'm'} holds a mirror of 'cookbooks' " \
        "(op find_recipes, jsonl); give another directory\n"  # fmt: skip


def test_work_that_cannot_be_imported_is_one_line_of_error(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(arguments(service, tmp_path / "m", "--work", "no_such_module:f"))
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("wadlclient: work 'no_such_module:f': cannot import 'no_such_module'")
    assert err.count("\n") == 1


class InterruptAfter:
    """A progress display whose user presses Ctrl-C once ``limit`` entries are committed."""

    def __init__(self, limit: int) -> None:
        self.limit, self.seen = limit, 0

    def start(self, total: int | None) -> None: ...

    def advance(self, entries: int) -> None:
        self.seen += entries
        if self.seen >= self.limit:
            raise KeyboardInterrupt

    def finish(self) -> None: ...


def test_after_ctrl_c_a_run_goes_on_and_writes_every_entry_once(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        with pytest.raises(KeyboardInterrupt):
            mirror(root, "cookbooks", tmp_path, progress=InterruptAfter(150), **SOURCE)
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
    rows = [json.loads(line) for line in (tmp_path / "entries.jsonl").read_text().splitlines()]
    assert len({row["self_link"] for row in rows}) == len(rows) == RECIPES == report.entries


def test_the_progress_line_shows_entries_pages_rate_and_time_left() -> None:
    progress = TerminalProgress(io.StringIO(), page_size=150)
    progress.start(total=1000)
    progress.advance(300)
    line = progress.line()
    assert line.startswith("300/1000 entries, 2 pages, ")
    assert line.endswith("s left")
