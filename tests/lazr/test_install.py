"""install_as_lazr_restfulclient and the no-code-change runner, each in a fresh interpreter.

Subprocesses, because the installation is process-wide and the rest of
the test session imports the real lazr.restfulclient. The checks of one
installation that nothing else touches share one interpreter (`installed_twice`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest


def run_python(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=60,
        check=False, cwd=cwd,
    )  # fmt: skip


#: One interpreter installs twice, imports lazr's modules, lazr.uri, then launchpadlib and
#: httplib2, and reads a challenge: what each step found, as JSON (`installed_twice`).
INSTALLED_TWICE = textwrap.dedent("""
    import json, sys
    import wadlclient
    wadlclient.install_as_lazr_restfulclient()
    wadlclient.install_as_lazr_restfulclient()
    import lazr.restfulclient, lazr.restfulclient.authorize
    from lazr.restfulclient import resource, errors, _browser, _json
    from lazr.restfulclient.authorize import oauth
    modules = [module.__name__ for module in (lazr.restfulclient, resource, errors, _browser,
               _json, lazr.restfulclient.authorize, oauth)]
    from lazr.uri import URI
    from lazr.restfulclient.resource import ServiceRoot
    import launchpadlib.launchpad, httplib2
    before = "pyparsing" in sys.modules
    challenge = {"www-authenticate": 'Digest realm="lp", nonce="n1"'}
    parsed = httplib2.auth._parse_www_authenticate(challenge, "www-authenticate")
    print(json.dumps({
        "modules": modules,
        "same_resource": lazr.restfulclient.resource is resource,
        "uri": str(URI("http://h/a").ensureSlash()),
        # The class keeps lazr's module name; the module holding it is wadlclient's.
        "service_root_home": sys.modules[ServiceRoot.__module__].__spec__.name,
        "challenge": [before, parsed["digest"]["realm"], "pyparsing" in sys.modules],
    }))
""")


@pytest.fixture(scope="module")
def installed_twice() -> dict[str, Any]:
    """What `INSTALLED_TWICE` found, in a fresh interpreter; the tests only read it."""
    done = run_python("-c", INSTALLED_TWICE)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_every_lazr_restfulclient_module_resolves_to_wadlclient(
    installed_twice: dict[str, Any],
) -> None:
    for name in installed_twice["modules"]:
        assert name.startswith("wadlclient.lazr.restfulclient"), name
    assert installed_twice["same_resource"]


def test_installing_twice_is_harmless_and_other_lazr_packages_still_import(
    installed_twice: dict[str, Any],
) -> None:
    assert installed_twice["uri"] == "http://h/a/"
    assert installed_twice["service_root_home"] == "wadlclient.lazr.restfulclient.resource"


def test_installing_after_the_real_package_was_imported_is_a_clear_error() -> None:
    code = textwrap.dedent("""
        import lazr.restfulclient.resource
        import wadlclient
        try:
            wadlclient.install_as_lazr_restfulclient()
        except ImportError as error:
            print(error)
    """)
    done = run_python("-c", code)
    assert "lazr.restfulclient was imported before" in done.stdout, done.stderr


def test_runner_runs_an_unchanged_script_with_its_arguments(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import sys\n"
        "from lazr.restfulclient.resource import ServiceRoot\n"
        "print(__name__, sys.modules[ServiceRoot.__module__].__spec__.name, *sys.argv[1:])\n"
    )
    done = run_python("-m", "wadlclient.lazr_compat", str(script), "a", "b")
    assert done.stdout.split() == [
        "__main__",
        "wadlclient.lazr.restfulclient.resource",
        "a",
        "b",
    ], done.stderr


def test_runner_without_a_script_prints_its_usage() -> None:
    done = run_python("-m", "wadlclient.lazr_compat")
    assert done.returncode == 2
    assert "usage: python -m wadlclient.lazr_compat" in done.stderr


def test_runner_help_exits_zero_with_its_usage_on_stdout() -> None:
    done = run_python("-m", "wadlclient.lazr_compat", "--help")
    assert done.returncode == 0
    assert "usage: python -m wadlclient.lazr_compat" in done.stdout


def test_runner_names_a_missing_script_in_one_line_without_a_traceback(tmp_path: Path) -> None:
    done = run_python("-m", "wadlclient.lazr_compat", str(tmp_path / "nosuch.py"))
    assert done.returncode == 2
    assert "can't open file" in done.stderr and "nosuch.py" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_runner_answers_a_missing_script_before_importing_the_client(tmp_path: Path) -> None:
    # -X importtime writes a line per module imported to stderr, after the runner's own.
    done = run_python("-X", "importtime", "-m", "wadlclient.lazr_compat", str(tmp_path / "no.py"))
    assert done.returncode == 2
    imported = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()}
    assert "wadlclient.lazr" in imported  # the runner installed the layer
    assert not {"wadlclient.http", "wadlclient.objects", "wadlclient.testing"} & imported


def test_runner_names_a_missing_module_in_one_line_without_a_traceback() -> None:
    done = run_python("-m", "wadlclient.lazr_compat", "-m", "no_such_module_here")
    assert done.returncode == 2
    assert "no module named 'no_such_module_here'" in done.stderr
    assert "Traceback" not in done.stderr


def test_lazr_restfulclient_resolves_when_no_lazr_package_is_installed() -> None:
    code = textwrap.dedent("""
        import sys
        import wadlclient, wadlclient.lazr.restfulclient.resource
        sys.path = [p for p in sys.path if "site-packages" not in p]
        assert "lazr" not in sys.modules
        wadlclient.install_as_lazr_restfulclient()
        from lazr.restfulclient.resource import ServiceRoot
        import lazr
        try:
            import lazr.uri
        except ImportError:
            home = sys.modules[ServiceRoot.__module__].__spec__.name
            print(home, "no-lazr.uri", list(lazr.__path__))
    """)
    done = run_python("-c", code)
    assert done.stdout.split() == ["wadlclient.lazr.restfulclient.resource", "no-lazr.uri", "[]"], (
        done.stderr
    )


def test_httplib2s_challenge_parser_loads_when_first_used_after_installing(
    installed_twice: dict[str, Any],
) -> None:
    # Installing defers httplib2.auth (and pyparsing): launchpadlib imports
    # httplib2 but, on wadlclient, rarely reads a challenge through it.
    assert installed_twice["challenge"] == [False, "lp", True]
