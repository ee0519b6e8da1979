"""`wadlclient get`: a cut-short JSONL walk says so, --progress walks, mistakes are one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cookbook_service.testing import PUBLIC_RECIPE_COUNT
from wadlclient import cli

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = cli.main(list(argv))
    except SystemExit as exit:  # argparse's own exits (usage errors)
        status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_jsonl_stopped_by_the_default_limit_says_so_on_stderr(
    capsys: Capsys, cookbook_service_factory: Any
) -> None:
    service = cookbook_service_factory(seed_recipes=10)
    total = json.loads(run(capsys, "get", service.base_url, "recipes", "--limit", "1")[1])

    status, out, err = run(capsys, "get", service.base_url, "recipes", "--jsonl")

    assert status == 0
    assert len(out.splitlines()) == 10 < total["total_size"]
    assert (
        f"wadlclient get: printed the first 10 of {total['total_size']} entries "
        "(the default --limit); --limit 0 prints them all"
    ) in err.splitlines()


def test_jsonl_with_a_limit_of_ones_own_or_all_says_nothing(
    capsys: Capsys, cookbook_service: Any
) -> None:
    limited = run(capsys, "get", cookbook_service.base_url, "recipes", "--jsonl", "--limit", "3")
    every = run(capsys, "get", cookbook_service.base_url, "recipes", "--jsonl", "--limit", "0")

    # (An earlier ``-v`` in this process may have left the walk's INFO line on stderr.)
    assert [
        (status, len(out.splitlines()), "printed the first" in err)
        for status, out, err in (limited, every)
    ] == [(0, 3, False), (0, PUBLIC_RECIPE_COUNT, False)]


def test_progress_alone_walks_every_entry_behind_a_bar(
    capsys: Capsys, cookbook_service: Any
) -> None:
    status, out, err = run(capsys, "get", cookbook_service.base_url, "recipes", "--progress")

    assert status == 0
    assert len(json.loads(out)["entries"]) == PUBLIC_RECIPE_COUNT
    assert f"/{PUBLIC_RECIPE_COUNT} " in err  # tqdm's "n/total" on stderr


def test_progress_with_a_limit_says_why_it_shows_no_bar(
    capsys: Capsys, cookbook_service: Any
) -> None:
    status, out, err = run(
        capsys, "get", cookbook_service.base_url, "recipes", "--progress", "--limit", "2"
    )

    assert status == 0
    assert len(json.loads(out)["entries"]) == 2
    assert (
        "wadlclient get: --progress shows no bar with --limit 2: the entries come in one "
        "slice, not a walk (--limit 0 walks them all, with the bar)"
    ) in err.splitlines()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["get"], "wadlclient get: the following arguments are required: SERVICE"),
        (["bogus"], "wadlclient: argument COMMAND: invalid choice: 'bogus'"),
        (["get", "http://x/", "recipes", "--limit", "-1"], "wadlclient get: argument --limit"),
        (["describe", "http://x/", "--nope"], "wadlclient: unrecognized arguments: --nope"),
        ([], "wadlclient: the following arguments are required: COMMAND"),
    ],
)
def test_a_command_line_mistake_is_one_line_and_a_pointer_to_help(
    capsys: Capsys, argv: list[str], said: str
) -> None:
    status, out, err = run(capsys, *argv)

    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(said)
    assert err.rstrip().endswith("--help)")
