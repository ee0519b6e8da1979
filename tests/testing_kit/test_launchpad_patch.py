"""launchpadlib's logins reach the fake: stock launchpadlib in this process, and on wadlclient."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from launchpadlib.launchpad import Launchpad

from wadlclient.testing import FakeService, launchpad_wadl
from wadlclient.testing.launchpad import patched_launchpad

from . import lp_code

SCENARIO = Path(__file__).with_name("lp_scenario.py")


def test_unchanged_code_logs_in_to_the_fake(fake_launchpad: FakeService) -> None:
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.add("bugs", title="Crash", owner=ada)

    summary = lp_code.bug_summary(1)

    assert summary == "Crash (reported by Ada Lovelace)"
    paths = [(s.path, s.auth_scheme) for s in fake_launchpad.journal if s.path]
    assert paths == [("bugs/1", "OAuth"), ("~ada", "OAuth")]


def test_a_412_conflict_reaches_launchpadlib(fake_launchpad: FakeService) -> None:
    from lazr.restfulclient.errors import PreconditionFailed

    bug = fake_launchpad.add("bugs", title="Crash")
    lp = Launchpad.login_with("triage-bot", "production", version="devel")
    seen = lp.bugs[1]
    fake_launchpad.change(bug, title="Changed elsewhere")

    seen.title = "Mine"
    with pytest.raises(PreconditionFailed):
        seen.lp_save()

    assert bug["title"] == "Changed elsewhere"


def test_login_anonymously_sends_no_token(fake_launchpad: FakeService) -> None:
    fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")

    assert lp_code.display_name("ada") == "Ada Lovelace"
    assert "fake-launchpad-token" not in repr(fake_launchpad.journal.entries())


def test_the_patch_is_undone_after_the_block() -> None:
    before = {
        name: Launchpad.__dict__[name] for name in ("__init__", "login_with", "login_anonymously")
    }

    with FakeService(launchpad_wadl()) as fake, patched_launchpad(fake):
        assert Launchpad.__dict__["login_with"] is not before["login_with"]

    assert {name: Launchpad.__dict__[name] for name in before} == before


def test_launchpadlib_on_wadlclient_reaches_the_fake_too(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", str(SCENARIO)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])

    assert "wadlclient" in result["lazr"]
    assert result["summary"] == "Crash (reported by Ada Lovelace)"
    assert (result["released"], result["status"]) == (["ubuntu"], "Fix Released")
    assert result["anonymous"] == "Ada Lovelace"
    assert ["PATCH", "ubuntu/+bug/1", 209, "OAuth"] in result["journal"]
    assert result["restored"] == "launchpadlib.launchpad"


def test_a_status_change_is_one_patch_on_the_wire(fake_launchpad: FakeService) -> None:
    ubuntu = fake_launchpad.add("distributions", name="ubuntu")
    frobnicator = fake_launchpad.add("projects", name="frobnicator")
    bug = fake_launchpad.add("bugs", title="Crash")
    done = fake_launchpad.add_to(bug, "bug_tasks", bug=bug, status="Fix Committed", target=ubuntu)
    fake_launchpad.add_to(bug, "bug_tasks", bug=bug, status="New", target=frobnicator)

    lp_code.release_fixes(1)

    assert done["status"] == "Fix Released"
    patches = fake_launchpad.journal.requests("PATCH")
    assert [(p.path, json.loads(p.body)) for p in patches] == [
        ("ubuntu/+bug/1", {"status": "Fix Released"})
    ]
