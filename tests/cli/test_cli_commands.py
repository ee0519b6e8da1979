"""``wadlclient COMMAND ...``: the version, exit statuses, one-line messages, top-level entries."""

from __future__ import annotations

import json
import os
import socket
import sys
import types
from argparse import Namespace
from typing import Any

import pytest
from tests.cli.forked_commands import ForkedCommands

from cookbook_service.testing import FEATURED_COOKBOOK, PUBLIC_RECIPE_COUNT
from wadlclient import cli
from wadlclient._version import __version__

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = cli.main(list(argv))
    except SystemExit as exit:  # argparse's own exits (--version, --help, usage errors)
        status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_version_prints_the_package_version(capsys: Capsys) -> None:
    assert run(capsys, "--version") == (0, f"wadlclient {__version__}\n", "")


def test_help_documents_every_exit_status(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "--help")

    assert status == 0
    for code, meaning in cli.EXIT_STATUSES.items():
        assert f"{code:>3}  {meaning}" in out


def test_an_address_without_a_scheme_exits_2_with_one_line(capsys: Capsys) -> None:
    status, out, err = run(capsys, "describe", "127.0.0.1:8080")

    assert (status, out) == (2, "")
    assert one_line(err) == (
        "wadlclient: SERVICE must be an http:// or https:// address, not '127.0.0.1:8080'"
    )


def test_a_negative_limit_is_a_usage_error(capsys: Capsys, cookbook_service: Any) -> None:
    status, _, err = run(capsys, "get", cookbook_service.base_url, "recipes", "--limit", "-1")

    assert status == 2
    assert "Traceback" not in err
    assert "argument --limit: must be 0 or more, not -1" in err.strip().splitlines()[-1]


def test_an_unreachable_service_exits_3(capsys: Capsys) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]

    status, _, err = run(capsys, "describe", f"http://127.0.0.1:{port}/")

    assert status == 3
    assert one_line(err).startswith(f"wadlclient: GET http://127.0.0.1:{port}/1.0/: could not")


def test_basic_without_a_password_or_a_terminal_exits_4(
    cookbook_service: Any, forked_commands: ForkedCommands
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WADLCLIENT_PASSWORD"}
    # Its stdin is /dev/null, as a job's; a child of tests/cli/forked_commands.py.
    done, _ = forked_commands.run("describe", cookbook_service.base_url, "--basic", "ada", env=env)

    assert done.returncode == 4
    assert one_line(done.stderr) == (
        "wadlclient: no password for ada: set WADLCLIENT_PASSWORD or run in a terminal"
    )


def test_a_missing_credentials_file_exits_4(capsys: Capsys, cookbook_service: Any) -> None:
    status, _, err = run(
        capsys, "describe", cookbook_service.base_url, "--credentials", "/no/such/creds.ini"
    )

    assert status == 4
    assert one_line(err).startswith("wadlclient: cannot read credentials file /no/such/creds.ini")


def test_get_resolves_a_top_level_entry_and_paths_under_it(
    capsys: Capsys, cookbook_service: Any
) -> None:
    status, out, _ = run(capsys, "get", cookbook_service.base_url, "featured_cookbook")
    assert status == 0
    assert json.loads(out)["name"] == FEATURED_COOKBOOK

    status, out, _ = run(
        capsys, "get", cookbook_service.base_url, "featured_cookbook/recipes", "--limit", "1"
    )
    assert status == 0
    assert len(json.loads(out)["entries"]) == 1


def test_limit_0_walks_every_entry_behind_a_progress_bar(
    capsys: Capsys, cookbook_service: Any
) -> None:
    status, out, err = run(
        capsys, "get", cookbook_service.base_url, "recipes", "--limit", "0", "--progress"
    )

    assert status == 0
    assert len(json.loads(out)["entries"]) == PUBLIC_RECIPE_COUNT
    assert f"/{PUBLIC_RECIPE_COUNT} " in err  # tqdm's "n/total" on stderr


def test_progress_without_tqdm_names_the_extra(
    capsys: Capsys, cookbook_service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # what an install without the extra has

    status, _, err = run(
        capsys, "get", cookbook_service.base_url, "recipes", "--limit", "0", "--progress"
    )

    assert status == 2
    assert one_line(err) == "wadlclient: --progress needs tqdm: pip install 'wadlclient[progress]'"


def _broken(args: Namespace) -> int:
    raise RuntimeError("a bug")


def test_a_command_registers_with_one_line_and_a_bug_is_one_line_exit_70(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = types.ModuleType("extra_commands")
    module.BROKEN = cli.Command("broken", "always fails", lambda parser: None, _broken)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "extra_commands", module)
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "extra_commands:BROKEN"))

    status, _, err = run(capsys, "broken")

    assert status == 70
    assert one_line(err) == "wadlclient: internal error: RuntimeError: a bug"
