"""Without the [server] extra, the pytest plugin's fixtures fail with a one-line hint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.testing_kit.users_pytest import NOT_THE_USERS

from cookbook_service.testing import ServerExtraMissing, run_service

USER_TEST = """
def test_uses_the_service(cookbook_service):
    assert cookbook_service.base_url
"""

# Run in a child: uvicorn is made unimportable there, as on an install without the extra; the
# plugins no user's session has (tests/testing_kit/users_pytest.py) are left out.
RUNNER = f"""
import sys
sys.modules["uvicorn"] = None
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *{NOT_THE_USERS!r}, sys.argv[1]]))
"""


def test_fixtures_without_the_server_extra_fail_with_an_install_hint(tmp_path: Path) -> None:
    (tmp_path / "test_user.py").write_text(USER_TEST)

    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(tmp_path / "test_user.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=120,
    )

    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stdout
    assert "ModuleNotFoundError: No module named 'uvicorn'" not in done.stdout
    assert (
        "the cookbook example service needs the [server] extra: "
        "pip install 'wadlclient[server]' (import of uvicorn halted; None in sys.modules)"
    ) in done.stdout.splitlines()


def test_run_service_without_the_server_extra_raises_the_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)

    with (
        pytest.raises(ServerExtraMissing, match=r"pip install 'wadlclient\[server\]'"),
        run_service(),
    ):
        pass


# ``python -m cookbook_service`` in a child where starlette and uvicorn cannot be imported.
SERVICE_RUNNER = """
import runpy, sys
sys.modules["starlette"] = sys.modules["uvicorn"] = None
sys.argv = ["cookbook_service", "--port", "0"]
runpy.run_module("cookbook_service", run_name="__main__")
"""


def test_the_service_command_without_the_server_extra_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SERVICE_RUNNER],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 2
    assert done.stderr.startswith(
        "python -m cookbook_service: the cookbook example service needs the [server] extra: "
        "pip install 'wadlclient[server]'"
    )
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
