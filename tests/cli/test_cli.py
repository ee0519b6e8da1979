"""The ``wadlclient`` command, run in-process against the example service."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wadlclient.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def test_describe_lists_collections_entries_and_operations(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, described, _ = run(capsys, "describe", cookbook_service.base_url)

    assert status == 0
    assert set(described["collections"]) == {"recipes", "dishes", "cookbooks"}
    assert "find_recipes" in described["collections"]["cookbooks"]["operations"]
    assert "featured_cookbook" in described["entries"]


def test_get_prints_a_slice_of_a_collection_with_its_size(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, page, _ = run(capsys, "get", cookbook_service.base_url, "recipes", "--limit", "2")

    assert status == 0
    assert len(page["entries"]) == 2
    assert page["total_size"] >= 2
    assert page["entries"][0]["self_link"].endswith("/1.0/recipes/1")


def test_get_of_a_missing_entry_exits_1_with_the_status_line(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, printed, err = run(capsys, "get", cookbook_service.base_url, "cookbooks/No%20such")

    assert status == 1
    assert printed is None
    assert err.strip().startswith("wadlclient: HTTP Error 404: Not Found (GET ")


def test_basic_credentials_come_from_the_environment(
    cookbook_service_factory: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = cookbook_service_factory(auth="basic")
    service.add_user("cli-user", "cli-password")
    monkeypatch.setenv("WADLCLIENT_PASSWORD", "cli-password")

    status, _, _ = run(capsys, "describe", service.base_url, "--basic", "cli-user")

    assert status == 0
    assert [e.auth_scheme for e in service.journal.entries()] == ["Basic", "Basic"]


def test_python_dash_m_wadlclient_runs_the_command_line() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "wadlclient", "--version"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wadlclient ")


def test_get_prints_the_json_the_service_sent(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, book, _ = run(capsys, "get", cookbook_service.base_url, "featured_cookbook")

    assert status == 0
    # Links, dates and numbers as the service wrote them, not as Python objects print.
    assert book["recipes_collection_link"].endswith("/recipes")
    assert book["copyright_date"] == "1961-10-16T00:00:00+00:00"
    assert book["price"] == 18.95
    assert set(book) >= {"self_link", "resource_type_link", "http_etag", "name", "cuisine"}


def test_get_jsonl_prints_each_entry_on_a_line_as_it_arrives(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["get", cookbook_service.base_url, "recipes", "--limit", "0", "--jsonl"])
    out, _ = capsys.readouterr()

    lines = out.splitlines()
    assert status == 0
    assert len(lines) >= 5
    assert [json.loads(line)["self_link"].rsplit("/", 1)[-1] for line in lines[:2]] == ["1", "2"]


def test_a_wrong_password_exits_4(
    cookbook_service_factory: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = cookbook_service_factory(auth="basic")
    service.add_user("cli-user", "cli-password")
    monkeypatch.setenv("WADLCLIENT_PASSWORD", "wrong")

    status, _, err = run(capsys, "describe", service.base_url, "--basic", "cli-user")

    assert status == 4
    assert "401" in err


@pytest.mark.parametrize("path", ["http://[::1", "ftp://example.com/x"])
def test_a_malformed_path_exits_2_naming_it(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    status, _, err = run(capsys, "get", cookbook_service.base_url, path)

    assert status == 2
    assert repr(path) in err


@pytest.mark.parametrize("where", ["before", "after"])
def test_verbose_is_accepted_before_or_after_the_command(
    cookbook_service: Any, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    import logging

    http_log = logging.getLogger("wadlclient.http")
    level = http_log.level
    argv = ["describe", cookbook_service.base_url]
    argv = ["-v", *argv] if where == "before" else [*argv, "-v"]
    try:
        status, _, _ = run(capsys, *argv)
        assert status == 0
        assert http_log.level == logging.DEBUG
    finally:
        http_log.setLevel(level)
