"""launchpadlib on wadlclient (``python -m wadlclient.lazr_compat``): ``launchpad.load_web``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).with_name("lp_load_web.py")
TEXTS = [
    "https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1",
    "LP: #1",
    "ppa:ada/tools",
    "https://code.launchpad.net/~ada/frob/+git/frob/+merge/7",
    "https://bugs.launchpad.net/frob/+bugs",
]


@pytest.fixture(scope="module")
def launchpadlib_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The script in a child, as users run a launchpadlib program on wadlclient."""
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", str(SCRIPT), *TEXTS],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_launchpadlib_on_wadlclient_loads_what_people_paste(
    launchpadlib_run: dict[str, Any],
) -> None:
    assert "wadlclient" in launchpadlib_run["lazr"]
    assert launchpadlib_run["loaded"][:4] == [
        ["lazr.restfulclient.resource", "ubuntu/+source/hello/+bug/1", TEXTS[0]],
        ["lazr.restfulclient.resource", "bugs/1", "https://bugs.launchpad.net/bugs/1"],
        ["lazr.restfulclient.resource", "~ada/+archive/ubuntu/tools",
         "https://launchpad.net/~ada/+archive/ubuntu/tools"],
        ["lazr.restfulclient.resource", "~ada/frob/+git/frob/+merge/7", TEXTS[3]],
    ]  # fmt: skip


def test_launchpadlib_on_wadlclient_names_what_it_expected(
    launchpadlib_run: dict[str, Any],
) -> None:
    kind, message = launchpadlib_run["loaded"][4]

    assert kind == "WebAddressError"
    assert "+bugs is a page listing many objects" in message
