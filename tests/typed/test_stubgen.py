"""Typed access: what ``wadlclient stubgen`` writes, checked by mypy --strict, and run.

mypy and ruff run as the user would run them, in a subprocess (mypy with the
project's configuration: strict, for Python 3.10), on scripts in
``scripts/``; the package they type-check is the one stubgen writes for the
running example service, which must also be the one checked in under
``examples/cookbook_typed``. mypy checks them in the test run's one mypy run
(the ``typed_mypy`` fixture), with the package stubgen writes for the Launchpad WADL.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
import typing
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from tests.typed.checkers import LAUNCHPAD_PACKAGE, SCRIPTS, split_output

from wadlclient.cli import main
from wadlclient.stubgen import generate, load

ROOT = Path(__file__).resolve().parents[2]
CHECKED_IN = ROOT / "examples" / "cookbook_typed"
FILES = ("__init__.py", "__init__.pyi", "py.typed")


def revealed(lines: list[str], script: Path) -> list[str]:
    """The types mypy revealed in ``script``, without ``builtins.`` (older mypy writes it)."""
    return [
        line.split('Revealed type is "', 1)[1].rstrip('"').replace("builtins.", "")
        for line in lines
        if line.startswith(script.name) or line.startswith(str(script))
        if "Revealed type is" in line
    ]


def errors(lines: list[str], script: Path) -> list[str]:
    return [line for line in lines if script.name in line and ": error:" in line]


def line_of(script: Path, marker: str) -> int:
    """The number of the first line of ``script`` that contains ``marker``."""
    for number, line in enumerate(script.read_text().splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError(f"{marker!r} not in {script}")


@pytest.fixture
def generated(cookbook_service: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The package ``wadlclient stubgen`` writes for the running example service."""
    out = tmp_path / "generated"
    assert main(["stubgen", cookbook_service.base_url, "--output", str(out),
                 "--name", "cookbook_typed"]) == 0  # fmt: skip
    assert capsys.readouterr().out.startswith("wrote ")
    return out


def test_the_checked_in_package_is_what_stubgen_writes_for_the_example_service(
    generated: Path,
) -> None:
    for name in FILES:
        assert (generated / "cookbook_typed" / name).read_bytes() == (
            CHECKED_IN / name
        ).read_bytes(), (
            f"examples/cookbook_typed/{name} is out of date: with the example service on port "
            "8080, run wadlclient stubgen http://127.0.0.1:8080/ --output examples "
            "--name cookbook_typed"
        )


def test_mypy_strict_accepts_a_correct_script_and_reports_each_mistake(
    stubgen_mypy_output: list[str],
) -> None:
    good, bad, rules = (SCRIPTS / name for name in ("typed_ok.py", "typed_mistakes.py",
                                                     "typed_rules.py"))  # fmt: skip
    lines = stubgen_mypy_output

    assert errors(lines, good) == []
    assert revealed(lines, good) == [
        "str",
        "decimal.Decimal",
        "wadlclient.objects.links.EntryList[cookbook_typed.Recipe]",
        "wadlclient.objects.protocols.CollectionLike[cookbook_typed.Cookbook]",
    ]
    reported = errors(lines, bad)
    wanted = [line_of(bad, ".recipies"), line_of(bad, '+ "x"'), line_of(bad, ".nmae")]
    assert [int(line.split(":")[1]) for line in reported] == wanted, reported
    assert '"ServiceRoot" has no attribute "recipies"' in reported[0]
    assert 'Unsupported operand types for + ("Decimal" and "str")' in reported[1]
    assert '"Dish" has no attribute "nmae"' in reported[2]
    marked = [n for n, line in enumerate(rules.read_text().splitlines(), 1) if "# error" in line]
    assert sorted({int(line.split(":")[1]) for line in errors(lines, rules)}) == marked


def test_untyped_and_nullable_choose_any_and_none(cookbook_service: Any) -> None:
    schema, root_type = load(cookbook_service.base_url)
    plain = generate(schema, root_type, "typed")["__init__.pyi"]
    loose = generate(schema, root_type, "typed", untyped="any", nullable=True)["__init__.pyi"]

    assert "    name: str\n" in plain and "    price: decimal.Decimal\n" in plain
    assert "    name: typing.Any\n" in loose
    assert "    price: decimal.Decimal | None\n" in loose
    assert "    dish: Dish | None\n" in loose
    assert "--untyped any --nullable" in loose


def test_the_correct_script_runs_against_the_service(
    generated: Path, cookbook_service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(generated))
    spec = importlib.util.spec_from_file_location("typed_ok", SCRIPTS / "typed_ok.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    name, doubled, found = script.read(cookbook_service.base_url)

    assert isinstance(name, str) and name
    assert isinstance(doubled, Decimal)
    assert len(found) == 2


def test_the_plain_api_types_index_slice_and_iteration(stubgen_mypy_output: list[str]) -> None:
    script = SCRIPTS / "plain_api.py"
    lines = stubgen_mypy_output

    assert errors(lines, script) == []
    entry = "wadlclient.objects.entry.Entry"
    assert revealed(lines, script) == [
        entry,
        f"wadlclient.objects.links.EntryList[{entry}]",
        entry,
        entry,
        entry,
        entry,
        "int",
        "wadlclient.objects.resource.Resource",
    ]


def test_at_run_time_the_package_holds_three_functions_and_names_as_any(
    generated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (generated / "cookbook_typed" / "__init__.py").read_text()
    monkeypatch.syspath_prepend(str(generated))
    monkeypatch.delitem(sys.modules, "cookbook_typed", raising=False)
    module = importlib.import_module("cookbook_typed")

    assert re.findall(r"^(?:def|class) (\w+)", text, re.MULTILINE) == [
        "connect",
        "login_anonymously",
        "typed",
        "__getattr__",
    ]
    assert module.Recipe is typing.Any
    with pytest.raises(AttributeError, match="Recipie"):
        _ = module.Recipie


def test_launchpad_package_is_deterministic_and_passes_ruff_and_mypy_strict(
    launchpad_wadl_path: Path, typed_mypy: Path, stubgen_mypy_output: list[str]
) -> None:
    """The package is the one the test run's mypy run checked, written from a load of its own."""
    package = typed_mypy / LAUNCHPAD_PACKAGE / "launchpad_typed"
    first = {path.name: path.read_text(encoding="utf-8") for path in package.iterdir()}
    again = generate(*load(str(launchpad_wadl_path)), "launchpad_typed")
    assert first == again

    ruff = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"),
         str(package)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert ruff.returncode == 0, ruff.stdout
    output = "\n".join(stubgen_mypy_output)
    assert split_output(output, typed_mypy / LAUNCHPAD_PACKAGE, cwd=typed_mypy)[0] == []


def test_stubgen_refuses_a_package_name_that_is_not_a_module_name(
    launchpad_wadl_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["stubgen", str(launchpad_wadl_path), "--output", str(tmp_path),
                   "--name", "not-a-module"])  # fmt: skip

    assert status == 2
    assert "not a module name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
