"""install_as_lazr_restfulclient and the no-code-change runner, each in a fresh interpreter.

Subprocesses, because the installation is process-wide and the rest of
the test session imports the real lazr.restfulclient.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def run_python(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=60,
        check=False, cwd=cwd,
    )  # fmt: skip


def test_every_lazr_restfulclient_module_resolves_to_wadlclient() -> None:
    code = textwrap.dedent("""
        import wadlclient
        wadlclient.install_as_lazr_restfulclient()
        import lazr.restfulclient, lazr.restfulclient.authorize
        from lazr.restfulclient import resource, errors, _browser, _json
        from lazr.restfulclient.authorize import oauth
        for module in (lazr.restfulclient, resource, errors, _browser, _json,
                       lazr.restfulclient.authorize, oauth):
            assert module.__name__.startswith("wadlclient.lazr.restfulclient"), module
        assert lazr.restfulclient.resource is resource
        print("ok")
    """)
    done = run_python("-c", code)
    assert done.stdout.strip() == "ok", done.stderr


def test_installing_twice_is_harmless_and_other_lazr_packages_still_import() -> None:
    code = textwrap.dedent("""
        import wadlclient
        wadlclient.install_as_lazr_restfulclient()
        wadlclient.install_as_lazr_restfulclient()
        from lazr.uri import URI
        from lazr.restfulclient.resource import ServiceRoot
        import sys
        # The class keeps lazr's module name; the module holding it is wadlclient's.
        print(URI("http://h/a").ensureSlash(), sys.modules[ServiceRoot.__module__].__spec__.name)
    """)
    done = run_python("-c", code)
    assert done.stdout.split() == ["http://h/a/", "wadlclient.lazr.restfulclient.resource"], (
        done.stderr
    )


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


def test_httplib2s_challenge_parser_loads_when_first_used_after_installing() -> None:
    # Installing defers httplib2.auth (and pyparsing): launchpadlib imports
    # httplib2 but, on wadlclient, rarely reads a challenge through it.
    code = textwrap.dedent("""
        import sys
        import wadlclient
        wadlclient.install_as_lazr_restfulclient()
        import launchpadlib.launchpad, httplib2
        before = "pyparsing" in sys.modules
        challenge = {"www-authenticate": 'Digest realm="lp", nonce="n1"'}
        parsed = httplib2.auth._parse_www_authenticate(challenge, "www-authenticate")
        print(before, parsed["digest"]["realm"], "pyparsing" in sys.modules)
    """)
    done = run_python("-c", code)
    assert done.stdout.split() == ["False", "lp", "True"], done.stderr
