"""A mirror's second run writes and reports only what changed (issue 42, point 3)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import httpx

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot
from wadlclient.mirror import mirror, mirror_changes

from .conftest import RECIPES, SOURCE, requests


def web_client() -> httpx.Client:
    """A client of the loopback service: plain HTTP, so no CA bundle to load (70 ms of CPU)."""
    return httpx.Client(verify=False)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def change_some(
    service: RunningService, *, delete: bool = True
) -> tuple[set[str], set[str], set[str]]:
    """5 recipes changed, 10 added, 10 deleted, over HTTP where the service allows it."""
    rows, _ = service.store.recipes(0, 2 * RECIPES, sees_private=False, search="Generated")
    ids = [int(row["id"]) for row in rows]
    changed = {service.url(f"recipes/{n}") for n in ids[100:105]}
    deleted = {service.url(f"recipes/{n}") for n in ids[200:210]} if delete else set()
    with web_client() as web:
        for link in changed:
            web.patch(link, json={"instructions": "Generated, and changed."}).raise_for_status()
        for link in deleted:
            web.delete(link).raise_for_status()
    added = {
        service.url(f"recipes/{service.store.add_recipe(1, 1, f'Generated anew {n}.')}")
        for n in range(10)
    }
    return changed, added, deleted


def test_the_first_run_writes_every_entry_once_as_json_lines(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
    written = lines(tmp_path / "entries.jsonl")
    links = [row["self_link"] for row in written]
    assert len(links) == len(set(links)) == RECIPES == report.entries == len(report.new)
    assert all(str(row["date_last_modified"]).endswith("+00:00") for row in written)
    assert str(written[0]["dish_link"]).startswith(service.base_url)


def test_a_second_run_reports_exactly_the_changed_added_and_deleted(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", tmp_path, **SOURCE)
        changed, added, deleted = change_some(service)
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
    assert {row["self_link"] for row in report.changed} == changed
    assert {row["self_link"] for row in report.new} == added
    assert {row["self_link"] for row in report.removed} == deleted
    links = [row["self_link"] for row in lines(tmp_path / "entries.jsonl")]
    assert len(links) == len(set(links)) == RECIPES
    assert added <= set(links) and not deleted & set(links)


def test_with_the_servers_filter_a_second_run_reads_only_the_changed_pages(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", tmp_path, **SOURCE)
        changed, added, _ = change_some(service, delete=False)
        service.journal.clear()
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
        sent = requests(service)
    assert report.mode == "since"
    assert {row["self_link"] for row in report.changed} == changed
    assert {row["self_link"] for row in report.new} == added
    # The 15 changed entries fit one page (150); beside it: the operation's first call
    # and the count of the whole (it adds up: no deletion, so no listing).
    assert len(sent) <= 1 + 3, [(e.path, e.query) for e in sent]
    assert not [e for e in sent if "/recipes/" in e.path], "no entry request"


def test_with_no_change_and_the_filter_a_run_sends_at_most_three_requests(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", tmp_path, **SOURCE)
        with web_client() as web:
            web.patch(service.url("recipes/30"), json={"instructions": "Generated!"})
        service.journal.clear()
        report = mirror(root, "cookbooks", tmp_path, **SOURCE)
        sent = requests(service)
    assert [row["self_link"] for row in report.changed] == [service.url("recipes/30")]
    assert not report.new and not report.removed
    # the filtered call and its one page of changes, then the count of the whole
    assert len(sent) <= 1 + 3, [(e.path, e.query) for e in sent]


def test_without_the_filter_a_run_reads_the_pages_once_and_no_entry(
    service: RunningService, tmp_path: Path
) -> None:
    plain = {"op": "find_recipes", "args": {"search": "Generated"}}
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", tmp_path, **plain)
        service.journal.clear()
        report = mirror(root, "cookbooks", tmp_path, **plain)
        sent = requests(service)
    assert report.mode == "full" and not (report.new or report.changed or report.removed)
    assert not [e for e in sent if "/recipes/" in e.path]
    pages = [e for e in sent if "ws.size=150" in e.query]
    assert len(pages) == -(-RECIPES // 150)
    assert len(sent) <= len(pages) + 1


def test_csv_has_a_column_per_field_in_the_wadls_order(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        mirror(root, "cookbooks", tmp_path, format="csv", **SOURCE)
        change_some(service)
        mirror(root, "cookbooks", tmp_path, format="csv", **SOURCE)
    with open(tmp_path / "entries.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    header = list(rows[0])
    assert header[:3] == ["self_link", "resource_type_link", "http_etag"]
    assert header[3:] == [
        "id", "instructions", "private", "date_last_modified", "dish_link", "cookbook_link",
    ]  # fmt: skip
    assert len({row["self_link"] for row in rows}) == len(rows) == RECIPES
    assert {row["private"] for row in rows} == {"false"}


def test_a_sync_job_is_a_loop_over_the_changes(service: RunningService, tmp_path: Path) -> None:
    other_system: dict[str, object] = {}
    with ServiceRoot(None, service.base_url) as root:
        for kind, row in mirror_changes(root, "cookbooks", tmp_path, **SOURCE):
            assert kind == "new"
            other_system[str(row["self_link"])] = row["instructions"]
        changed, added, deleted = change_some(service)
        for kind, row in mirror_changes(root, "cookbooks", tmp_path, **SOURCE):
            if kind == "removed":
                del other_system[str(row["self_link"])]
            else:
                other_system[str(row["self_link"])] = row["instructions"]
    assert len(other_system) == RECIPES
    assert all(other_system[link] == "Generated, and changed." for link in changed)
    assert added <= set(other_system) and not deleted & set(other_system)
