"""``wadlclient stubgen`` exits as every command does (docs/cli.md's table), in one line."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from wadlclient.cli import main

Capsys = pytest.CaptureFixture[str]


def stubgen(capsys: Capsys, source: str, output: Path, *more: str) -> tuple[int, str]:
    """``wadlclient stubgen SOURCE --output OUTPUT --name typed MORE...``: status, stderr's line."""
    status = main(["stubgen", source, "--output", str(output), "--name", "typed", *more])
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) <= 1, err
    return status, err[0] if err else ""


def test_a_missing_wadl_file_is_a_usage_error(tmp_path: Path, capsys: Capsys) -> None:
    missing = tmp_path / "missing.wadl"

    status, err = stubgen(capsys, str(missing), tmp_path)

    assert status == 2
    assert err == f"wadlclient: SERVICE {str(missing)!r}: no such address or WADL file"


def test_a_file_that_is_not_wadl_exits_1(tmp_path: Path, capsys: Capsys) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body>not WADL</body></html>")

    status, err = stubgen(capsys, str(page), tmp_path / "out")

    assert status == 1
    assert err.startswith("wadlclient: ")
    assert not (tmp_path / "out").exists()


def test_an_unreachable_service_exits_3(tmp_path: Path, capsys: Capsys) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]

    status, err = stubgen(capsys, f"http://127.0.0.1:{port}/", tmp_path, "--retries", "0")

    assert status == 3
    assert err.startswith(f"wadlclient: GET http://127.0.0.1:{port}/1.0/: could not connect")


def test_an_output_whose_parent_is_missing_is_an_error_and_nothing_is_made(
    launchpad_wadl_path: Path, tmp_path: Path, capsys: Capsys
) -> None:
    typo = tmp_path / "exmaples" / "typed_out"

    status, err = stubgen(capsys, str(launchpad_wadl_path), typo)

    assert status == 2
    assert err == f"wadlclient: --output {typo}: no directory {typo.parent} to make it in"
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_a_file_is_an_error(
    launchpad_wadl_path: Path, tmp_path: Path, capsys: Capsys
) -> None:
    (tmp_path / "file").write_text("")

    status, err = stubgen(capsys, str(launchpad_wadl_path), tmp_path / "file")

    assert status == 2
    assert err == f"wadlclient: --output {tmp_path / 'file'}: not a directory"


def test_a_missing_output_directory_in_an_existing_one_is_made(
    cookbook_service: Any, tmp_path: Path, capsys: Capsys
) -> None:
    status = main(["stubgen", cookbook_service.base_url, "--output", str(tmp_path / "new"),
                   "--name", "typed"])  # fmt: skip

    assert status == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 'new' / 'typed'}\n"
    assert sorted(p.name for p in (tmp_path / "new" / "typed").iterdir()) == [
        "__init__.py", "__init__.pyi", "py.typed",
    ]  # fmt: skip


def test_a_name_that_is_not_a_module_name_starts_with_wadlclient(
    launchpad_wadl_path: Path, tmp_path: Path, capsys: Capsys
) -> None:
    status = main(["stubgen", str(launchpad_wadl_path), "--output", str(tmp_path),
                   "--name", "not-a-module"])  # fmt: skip

    assert status == 2
    assert capsys.readouterr().err == "wadlclient: --name 'not-a-module' is not a module name\n"


@pytest.mark.skipif(not Path("/proc/self/mem").is_file(), reason="needs Linux's /proc")
def test_a_wadl_file_that_cannot_be_read_is_a_usage_error(tmp_path: Path, capsys: Capsys) -> None:
    # A file whose reading fails even for root: /proc/self/mem at offset 0 (EIO).
    status, err = stubgen(capsys, "/proc/self/mem", tmp_path / "out")

    assert status == 2
    assert err == "wadlclient: SERVICE '/proc/self/mem': Input/output error"
    assert not (tmp_path / "out").exists()
