"""Launchpad typed out of the box: the shipped package, and launchpadlib code checked by it.

``wadlclient.launchpad`` is stubgen's output for Launchpad's WADL, checked
in; ``launchpadlib-stubs`` types launchpadlib's ``Launchpad`` as its root.
``launchpad/craft_models.py`` is a build tool's Launchpad models written
against launchpadlib: mypy --strict and pyright --strict (for Python 3.10,
as the project's configuration says) accept it with no
ignore comment, find each typo of ``launchpad/typos.py``, and the module
runs on launchpadlib, on wadlclient, against a Launchpad-like service.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.lazr.lpservice import LoopbackServer
from tests.typed.checkers import LAUNCHPAD_CHECKED
from tests.typed.launchpad.service import CraftLike

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "wadlclient" / "launchpad"
HERE = Path(__file__).resolve().parent / "launchpad"
MODELS, TYPOS = HERE / "craft_models.py", HERE / "typos.py"
#: Where typos.py has its typos, and what each checker must say there.
TYPO_LINES = [n for n, line in enumerate(TYPOS.read_text().splitlines(), 1) if "# error" in line]
#: The modules test_launchpad_devel.py checks in the same mypy and pyright runs.
THEIRS = {p.name for p in LAUNCHPAD_CHECKED} - {MODELS.name, TYPOS.name}


def test_the_shipped_package_is_what_stubgen_writes_from_launchpads_devel_wadl(
    launchpad_devel_package: dict[str, str],
) -> None:
    files = launchpad_devel_package

    assert sorted(files) == sorted(p.name for p in SHIPPED.iterdir() if p.is_file())
    for name, text in files.items():
        assert (SHIPPED / name).read_text(encoding="utf-8") == text, (
            f"src/wadlclient/launchpad/{name} is not what Launchpad's devel WADL gives: "
            "run make launchpad-typed"
        )


def test_mypy_strict_accepts_the_models_and_reports_each_typo(
    launchpad_mypy_errors: dict[str, list[tuple[int, str]]],
) -> None:
    reported = [
        (name, line, message)
        for name, errors in launchpad_mypy_errors.items()
        if name not in THEIRS
        for line, message in errors
    ]

    assert [error for error in reported if error[0] == MODELS.name] == []
    assert [line for _, line, _ in reported] == TYPO_LINES, reported
    store, status, parameter = (message for _, _, message in reported)
    assert '"Snap" has no attribute "store_chanels"; maybe "store_channels"?' in store
    assert "Literal['Fix Relased']" in status and "'Fix Released'" in status
    assert 'Unexpected keyword argument "distro_series" for "requestBuild"' in parameter


def test_pyright_strict_accepts_the_models_and_reports_each_typo(
    launchpad_pyright: dict[str, list[dict[str, Any]]],
) -> None:
    diagnostics = [
        d for name, found in launchpad_pyright.items() if name not in THEIRS for d in found
    ]

    def where(d: dict[str, Any]) -> tuple[str, int]:
        return Path(d["file"]).name, d["range"]["start"]["line"] + 1

    assert [d for d in diagnostics if where(d)[0] == MODELS.name] == []
    assert sorted({where(d)[1] for d in diagnostics}) == TYPO_LINES
    rules = {(where(d)[1], d["rule"]) for d in diagnostics if d["severity"] == "error"}
    assert (TYPO_LINES[0], "reportAttributeAccessIssue") in rules
    assert (TYPO_LINES[1], "reportArgumentType") in rules
    assert (TYPO_LINES[2], "reportCallIssue") in rules
    messages = " ".join(str(d["message"]) for d in diagnostics)
    assert '"store_chanels"' in messages and "'Fix Relased'" in messages
    assert 'No parameter named "distro_series"' in messages


def test_the_models_run_on_launchpadlib_on_wadlclient(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    with LoopbackServer(launchpad_wadl_bytes, state=CraftLike()) as server:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(tmp_path)}
        done = subprocess.run(
            [sys.executable, "-m", "wadlclient.lazr_compat", str(HERE / "run_models.py"),
             server.service_root, str(tmp_path)],
            capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        journal = [(e.method, e.path, e.status) for e in server.state.journal]
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])

    assert result["launchpad_class"] == "launchpadlib.launchpad.Launchpad"
    assert result["recipe"] == "daily"
    assert result["build"][1:] == ["Updates", "Needs building"]
    assert result["store_channels"] == ["latest/edge", "latest/beta"]
    assert result["information_type"] == "Public"
    assert result["requests"] == [["Pending", False], ["Completed", True]]
    assert result["triaged"] == "Fix Released"
    assert ("POST", "/1.0/~ada/+recipe/daily", 200) in journal
    assert ("PATCH", "/1.0/bugs/1/tasks/1", 209) in journal
    assert not [exchange for exchange in journal if exchange[2] >= 400]


def test_at_run_time_the_package_holds_three_functions_and_the_classes_stay_in_the_stub() -> None:
    text = (SHIPPED / "__init__.py").read_text()
    assert re.findall(r"^(?:def|class) (\w+)", text, re.MULTILINE) == [
        "connect", "login_anonymously", "typed", "__getattr__",
    ]  # fmt: skip
    assert len(text) < 16_000 < len((SHIPPED / "__init__.pyi").read_text())


def test_enumerations_are_named_after_their_field_unless_two_option_sets_claim_it() -> None:
    stub = (SHIPPED / "__init__.pyi").read_text()
    aliases = set(re.findall(r"^(\w+) = typing\.Literal\[", stub, re.MULTILINE))

    assert {"Pocket", "InformationType", "Importance"} <= aliases
    assert "Status" not in aliases  # bug tasks, build requests, mirrors... each keep their class
    assert {"BugTaskStatus", "CharmRecipeBuildRequestStatus"} <= aliases
    assert "    pocket: Pocket = ...," in stub
