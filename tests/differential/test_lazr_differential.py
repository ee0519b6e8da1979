"""The lazr.restfulclient layer observes what stock lazr.restfulclient does, WADL-wide.

One fake of Launchpad's devel WADL (the testing kit's) is seeded with
every entry type, every field set, and a handler for every named
operation (`tests.differential.seed`). The same probes
(`tests.differential.probe`: every field, link and scoped collection of
an entry of each type, paged every way a script pages, every named
operation called, the root's surface) run in two child processes at
once: one with stock launchpadlib 2.3 and lazr.restfulclient 4.1, one
under ``python -m wadlclient.lazr_compat``. Every observation (value,
type name, exception class, ``dir()``, ``lp_*`` lists) must be the same
on both, but for the differences docs/lazr-compat.md documents.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from wadlclient.schema import Schema
from wadlclient.testing import FakeService, launchpad_wadl

from .compare import ABSENT, Allowed, documented, unexplained
from .seed import seeded

PROBE = Path(__file__).with_name("probe.py")
CLIENTS = {
    "stock": [str(PROBE)],
    "wadlclient": ["-m", "wadlclient.lazr_compat", str(PROBE)],
}


class Run(NamedTuple):
    """Both clients' observations, and what the plan said each resource type is probed by."""

    stock: dict[str, Any]
    wadlclient: dict[str, Any]
    covered: dict[str, str]
    requests: int


def observe(version: str, scratch: Path) -> Run:
    """Seed a fake of ``version``'s WADL, run the probes under both clients at once.

    Each child writes its observations to a file named here, not to a pipe: a
    few MB of JSON, read whole once the child is done.
    """
    with FakeService(launchpad_wadl(version)) as fake:
        plan = seeded(fake)
        plan_file = scratch / "plan.json"
        plan_file.write_text(json.dumps(plan.as_json()), encoding="utf-8")
        env = {**os.environ, "HOME": str(scratch)}
        children = {
            side: subprocess.Popen(
                [sys.executable, *arguments, str(plan_file), str(scratch / f"{side}.json")],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=env,
                cwd=scratch,
            )
            for side, arguments in CLIENTS.items()
        }
        seen = {}
        for side, child in children.items():
            _out, err = child.communicate(timeout=600)
            assert child.returncode == 0, f"the {side} probes failed:\n{err.decode()[-5000:]}"
            seen[side] = json.loads((scratch / f"{side}.json").read_text(encoding="utf-8"))
        return Run(seen["stock"], seen["wadlclient"], plan.covered, len(fake.journal.entries()))


@pytest.fixture(scope="module")
def devel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    yield observe("devel", tmp_path_factory.mktemp("differential"))


@pytest.fixture(scope="module")
def devel_differences(devel: Run) -> tuple[list[str], set[Allowed]]:
    """The comparison of devel's observations, made once for the tests that read it."""
    return unexplained(devel.stock, devel.wadlclient, documented())


#: Other versions of Launchpad's WADL to compare on, named in $WADLCLIENT_DIFFERENTIAL_VERSIONS
#: ("1.0 beta"): each costs as much CPU as devel (about 10 s), so `make test` runs devel,
#: the version the layer's users are told to use, and 1.0 is compared on demand.
MORE_VERSIONS = os.environ.get("WADLCLIENT_DIFFERENTIAL_VERSIONS", "").split()


def linked_types(schema: Schema) -> set[str]:
    """The resource types some link or operation of another type leads to."""
    found = set()
    for type_id in schema.app.resource_types:
        info = schema.type_info(type_id)
        found.update(
            field.link_type for field in info.fields.values()
            if field.link_type is not None and field.link_type != type_id
        )  # fmt: skip
        for method in info.operations.values():
            result = schema.result_info(method)
            if result is not None and result.is_collection and result.entry_type:
                found.add(f"{result.entry_type}-page-resource")
    return found


def test_every_resource_type_of_the_devel_wadl_is_probed_on_both_clients(devel: Run) -> None:
    """Each type is probed, but page types only their own next/prev links lead to.

    (Launchpad's interface types' pages, ``bug_target-page-resource``: no
    link or operation of the WADL answers one, so no script meets one.)
    """
    schema = FakeService(launchpad_wadl()).description.schema
    types = set(schema.app.resource_types)
    assert (types - set(devel.covered)) & linked_types(schema) == set()
    for side in (devel.stock, devel.wadlclient):
        missed = {
            type_id: probe
            for type_id, probe in devel.covered.items()
            if side.get(probe, ["raised"])[0] == "raised"
        }
        assert missed == {}


def test_the_layer_observes_what_stock_observes_but_the_documented_differences(
    devel_differences: tuple[list[str], set[Allowed]],
) -> None:
    problems, _used = devel_differences
    assert not problems, f"{len(problems)} differences not in docs/lazr-compat.md:\n" + "\n".join(
        problems[:40]
    )


def test_every_documented_difference_is_still_seen(
    devel_differences: tuple[list[str], set[Allowed]],
) -> None:
    """A row no probe needs any more is a promise the doc no longer has to make."""
    _problems, used = devel_differences
    assert [row.probes for row in documented() if row not in used] == []


def test_the_comparison_names_a_difference_no_row_explains() -> None:
    rows = documented()
    stock = {"bug.messages.total_size": ["int", 3], "bug dir() has lp_save": True}
    layer = {"bug.messages.total_size": ["raised", "AttributeError"]}
    problems, _used = unexplained(stock, layer, rows)
    assert [problem.splitlines()[0] for problem in problems] == [
        "bug dir() has lp_save",
        "bug.messages.total_size",
    ]
    assert ABSENT in problems[0]


def test_the_comparison_tells_values_apart_as_their_json_does() -> None:
    """``True == 1 == 1.0`` and ``0.0 == -0.0`` in Python; a child's JSON says which it was."""
    stock = {"a": [True], "b": {"x": 1}, "c": 0.0, "d": ["int", 2]}
    layer = {"a": [1], "b": {"x": 1.0}, "c": -0.0, "d": ["int", 2]}
    problems, _used = unexplained(stock, layer, documented())
    assert [problem.splitlines()[0] for problem in problems] == ["a", "b", "c"]


if MORE_VERSIONS:

    @pytest.mark.parametrize("version", MORE_VERSIONS)
    def test_the_layer_observes_what_stock_observes_on_another_version(
        version: str, tmp_path: Path
    ) -> None:
        run = observe(version, tmp_path)
        problems, _used = unexplained(run.stock, run.wadlclient, documented())
        assert not problems, f"{len(problems)} differences on {version}:\n" + "\n".join(
            problems[:40]
        )
