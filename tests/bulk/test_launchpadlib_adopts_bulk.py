"""A launchpadlib bot, run on wadlclient, misses no task; changing its loop makes it a bulk change.

The bot runs in a child process, as users run it (``python -m
wadlclient.lazr_compat bot.py``), against the testing kit's fake of
Launchpad (its devel WADL): its search, whose results the bot's own saves
shrink, is answered afresh on every page. One child on wadlclient runs
both versions of the bot in turn, each on a fake of its own; the stock
version runs in the test's process, whose lazr.restfulclient is the real one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wadlclient.testing import launchpad_wadl

BOT = Path(__file__).with_name("lp_triage.py")
#: Two pages of the fake's 75: the bot's saves shrink the search before the second.
TASKS = 100


def run_bot(mode: str, home: Path) -> list[dict[str, Any]]:
    """The bot in a child on wadlclient, once per comma-separated mode: what each run printed."""
    wadl = home / "devel.wadl"
    wadl.write_bytes(launchpad_wadl())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", str(BOT), str(wadl), mode, str(TASKS)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()[-len(mode.split(",")) :]
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def on_wadlclient(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The bot's loop and its bulk version, run in turn by one child on wadlclient."""
    loop, bulk = run_bot("loop,bulk", tmp_path_factory.mktemp("home"))
    return {"loop": loop, "bulk": bulk}


def test_the_bots_loop_on_wadlclient_triages_every_task(
    on_wadlclient: dict[str, dict[str, Any]],
) -> None:
    result = on_wadlclient["loop"]

    assert "wadlclient" in result["lazr"]
    assert result["ran"] == result["triaged"] == result["saves"] == TASKS


def test_the_same_loop_on_stock_lazr_restfulclient_skips_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # This process's lazr.restfulclient is the stock one: the bot runs here, with a home of its own.
    from tests.bulk.lp_triage import triage

    monkeypatch.setenv("HOME", str(tmp_path))
    result = triage(launchpad_wadl(), "loop", TASKS)

    assert "wadlclient" not in result["lazr"]
    assert result["triaged"] < TASKS  # the problem the walk solves, as launchpadlib users meet it


def test_the_bot_with_its_loop_changed_to_bulk_update_triages_every_task(
    on_wadlclient: dict[str, dict[str, Any]],
) -> None:
    result = on_wadlclient["bulk"]

    assert result["ran"] == {
        "counts": {"changed": TASKS, "writes": TASKS}, "ok": True, "type": "BulkReport",
    }  # fmt: skip
    assert result["triaged"] == result["saves"] == TASKS
