"""pytest-xdist's controller rewrites the test modules once, before its workers start."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import CodeType

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook, _read_pyc
from tests.rewrite_once import is_cached, rewrite_test_modules, rewritten_pyc

pytest_plugins = ["pytester"]

A_TEST_MODULE = "def test_sum():\n    total = 1 + 1\n    assert total == 2\n"

#: A worker, before it collects anything, writes down which test modules it finds rewritten.
A_CONFTEST = """
import json, pathlib
from tests.rewrite_once import rewritten_pyc

def pytest_configure(config):
    if hasattr(config, "workerinput"):
        here = pathlib.Path(__file__).parent
        found = {p.name: rewritten_pyc(p).exists() for p in here.glob("test_*.py")}
        (here / "found-by-the-worker.json").write_text(json.dumps(found))
"""


def a_suite(root: Path) -> tuple[Path, Path, Path]:
    """A test module, a conftest in a package below it and a helper module no one rewrites."""
    (root / "sub").mkdir()
    test, conftest, helper = root / "test_a.py", root / "sub" / "conftest.py", root / "helper.py"
    test.write_text(A_TEST_MODULE)
    conftest.write_text("import pytest\n")
    helper.write_text("VALUE = 1\n")
    return test, conftest, helper


def test_the_test_modules_and_conftests_are_cached_rewritten(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    test, conftest, helper = a_suite(tmp_path)

    rewrite_test_modules(pytestconfig, [tmp_path])

    assert is_cached(test) and is_cached(conftest)
    assert not pyc(helper).exists()
    code = _read_pyc(test, pyc(test))
    assert code is not None
    test_sum = next(const for const in code.co_consts if isinstance(const, CodeType))
    assert any(name.startswith("@py_assert") for name in test_sum.co_varnames)


def pyc(source: Path) -> Path:
    """Where pytest caches ``source`` rewritten."""
    path = rewritten_pyc(source)
    assert path is not None, "pytest's rewrite cache has moved"
    return path


def test_a_module_cached_from_its_current_text_is_left_alone_and_a_changed_one_redone(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    test, conftest, _ = a_suite(tmp_path)
    rewrite_test_modules(pytestconfig, [tmp_path])
    before = {path: pyc(path).stat().st_ino for path in (test, conftest)}

    test.write_text(A_TEST_MODULE + "\n\ndef test_more():\n    assert True\n")
    assert not is_cached(test)
    rewrite_test_modules(pytestconfig, [tmp_path])

    assert is_cached(test)
    assert pyc(conftest).stat().st_ino == before[conftest]
    assert pyc(test).stat().st_ino != before[test]


def test_the_workers_find_the_test_modules_rewritten_before_they_collect(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(A_CONFTEST)
    pytester.makepyfile(test_one=A_TEST_MODULE, test_two=A_TEST_MODULE)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent.parent))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)

    done = pytester.runpytest_subprocess(
        "-q", "-p", "no:cacheprovider", "--disable-plugin-autoload",
        "-p", "xdist", "-p", "tests.rewrite_once", "-n", "1",
    )  # fmt: skip

    assert done.ret == 0, done.stdout.str() + done.stderr.str()
    found = json.loads((pytester.path / "found-by-the-worker.json").read_text())
    assert found == {"test_one.py": True, "test_two.py": True}


def test_the_suite_loads_the_plugins_it_names_and_rewrites_no_library_of_theirs(
    pytestconfig: pytest.Config,
) -> None:
    """pyproject's addopts names the plugins, so pytest marks no distribution's modules for
    rewriting, which each worker of a fresh clone would rewrite (hypothesis' above all). Only
    what ``-p`` names is marked: cookbook_service, its plugin's entry point's name."""
    named = ("xdist", "timeout", "hypothesispytest", "cookbook_service", "wadlclient_testing")
    for plugin in named:
        assert pytestconfig.pluginmanager.has_plugin(plugin), plugin
    for package in ("wadlclient", "hypothesis", "anyio"):
        module = sys.modules.get(package)
        assert module is None or not isinstance(module.__loader__, AssertionRewritingHook), package
