"""What a package index and a new user see: licence, description, links, changelog, CI steps.

Building, ``twine check`` and installing the wheel into a clean venv are
``make package``, which .ci/run runs (they need the network for the build
backend, and take longer than a unit test should).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # the test extra installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as readable:
        return dict(tomllib.load(readable)["project"])


def test_the_licence_is_mit_in_a_form_every_supported_backend_reads(
    project: dict[str, Any],
) -> None:
    # Not PEP 639's `license = "MIT"` and `license-files`: hatchling before 1.26 (Debian 12's,
    # Ubuntu 22.04's) cannot write them; LICENSE goes in by hatchling's default file names.
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_python_versions_claimed_agree_and_start_where_requires_python_does(
    project: dict[str, Any],
) -> None:
    """The classifiers name the versions .ci/run tests (tests/every_python.py), one after
    another from requires-python's floor, which ruff and mypy target too."""
    versions = [
        int(c.rsplit(".", 1)[1]) for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]  # fmt: skip
    with open(ROOT / "pyproject.toml", "rb") as readable:
        tools = tomllib.load(readable)["tool"]

    assert project["requires-python"] == f">=3.{versions[0]}"
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert tools["ruff"]["target-version"] == f"py3{versions[0]}"
    assert tools["mypy"]["python_version"] == f"3.{versions[0]}"


def test_the_index_description_says_what_it_is_how_to_install_and_shows_an_example(
    project: dict[str, Any],
) -> None:
    text = (ROOT / project["readme"]).read_text(encoding="utf-8")
    assert project["readme"] != "README.md"  # the README opens with make targets for a clone
    assert "make " not in text
    assert "pip install wadlclient" in text
    example = re.search(r"```python\n(.*?)```", text, re.S)
    assert example is not None and 5 <= len(example.group(1).splitlines()) <= 12


def test_the_extras_users_install_exist_and_no_url_points_nowhere(project: dict[str, Any]) -> None:
    assert {"server", "progress"} <= set(project["optional-dependencies"])
    # Not published yet: a link to the package index's page would lead nowhere.
    assert not any("pypi.org/project" in url for url in project.get("urls", {}).values())


def test_the_changelog_has_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## Unreleased" in text
    assert "### Changed (newcomer)" in text


def test_ci_builds_the_docs_and_the_package() -> None:
    steps = (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert re.findall(r"^make \w+", steps, re.M) == ["make test", "make docs", "make package"]
    assert "-m tests.every_python" in steps
    assert "mkdocs build --strict" in makefile
    assert "twine check --strict dist/*" in makefile
    assert "-m build" in makefile
