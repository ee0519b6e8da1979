"""The mirror's per-entry work: a function called with each entry copied (issue 42, point 4).

The work is named by import path (``mirror_work:note``), so each process
that walks a shard imports it itself; it notes entries in a file the test
reads. Requests are not the point here: the output and the entries worked are.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.mirror import MirrorError, mirror
from wadlclient.mirror.pool import in_processes

from .conftest import RECIPES, SOURCE

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mirror_work


def links_in(path: Path) -> list[str]:
    return [json.loads(line)["self_link"] for line in path.read_text().splitlines()]


@pytest.fixture
def work_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = tmp_path / "worked.txt"
    path.touch()
    monkeypatch.setenv("MIRROR_WORK_LOG", str(path))
    return str(path)


def test_four_local_shards_work_each_entry_once_and_write_what_one_process_writes(
    service: RunningService, tmp_path: Path, work_log: str
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        report = mirror(
            root, "cookbooks", tmp_path / "sharded", shards=4, walk_all=in_processes(4),
            work="mirror_work:note", **SOURCE,
        )  # fmt: skip
        mirror(root, "cookbooks", tmp_path / "single", **SOURCE)

    written = links_in(tmp_path / "sharded" / "entries.jsonl")
    assert report.entries == len(written) == RECIPES
    assert sorted(mirror_work.noted(work_log)) == sorted(written)
    single = (tmp_path / "single" / "entries.jsonl").read_text().splitlines()
    assert sorted((tmp_path / "sharded" / "entries.jsonl").read_text().splitlines()) == sorted(
        single
    )


def test_an_entry_whose_work_failed_is_worked_again_by_the_next_run(
    service: RunningService, tmp_path: Path, work_log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mirror_work, "_seen", 0)
    with ServiceRoot(None, service.base_url) as root:
        with pytest.raises(mirror_work.Crash) as crash:
            mirror(root, "cookbooks", tmp_path, work="mirror_work:note_until_the_fifth", **SOURCE)
        report = mirror(root, "cookbooks", tmp_path, work="mirror_work:note", **SOURCE)

    written = links_in(tmp_path / "entries.jsonl")
    worked = Counter(mirror_work.noted(work_log))
    assert report.entries == len(written) == len(set(written)) == RECIPES
    assert sorted(worked) == sorted(written)
    assert set(worked.values()) == {1}  # the entry that failed was not written: worked now
    assert str(crash.value) in worked


@pytest.mark.parametrize(
    ("work", "why"),
    [("mirror_work", "package.module:function"), ("no_such_module:f", "cannot import"),
     ("mirror_work:nothing", "has no 'nothing'")],
)  # fmt: skip
def test_work_that_names_nothing_callable_is_one_clear_error_before_any_request(
    service: RunningService, tmp_path: Path, work: str, why: str
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        service.journal.clear()
        with pytest.raises(MirrorError, match=why):
            mirror(root, "cookbooks", tmp_path, work=work, **SOURCE)
    assert len(service.journal) == 0
    assert not (tmp_path / "entries.jsonl").exists()
