"""Idioms of public launchpadlib code (`idioms`), on stock launchpadlib and on wadlclient, alike.

Each idiom runs in this process on stock lazr.restfulclient, and in one
child started as ``python -m wadlclient.lazr_compat`` that runs them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.lazr.test_launchpadlib_on_loopback import run_script

from . import idioms


@pytest.fixture(scope="module")
def on_wadlclient(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_script(Path(idioms.__file__), [], tmp_path_factory.mktemp("home"))


@pytest.fixture(params=["stock", "wadlclient"])
def seen(request: pytest.FixtureRequest) -> Any:
    if request.param == "stock":
        return lambda name: idioms.IDIOMS[name]()
    return request.getfixturevalue("on_wadlclient").__getitem__


def test_the_last_comment_is_at_total_size_minus_one(seen: Any) -> None:
    assert seen("last_comment") == {
        "total_size": 3, "start": 0, "first": "comment 1", "last": "comment 3",
    }  # fmt: skip


def test_the_root_uri_is_lazr_uri_and_appends(seen: Any) -> None:
    assert seen("root_uri") == {"type": "URI", "bug": "devel/bugs/1", "host": "127.0.0.1"}


def test_an_operation_without_declared_answer_returns_the_entry_as_a_dict(seen: Any) -> None:
    assert seen("subscribe_answers_a_dict") == {"type": "dict", "person_link": "~ada"}


def test_a_search_result_has_entries_and_total_size(seen: Any) -> None:
    assert seen("search_results_entries") == {"names": ["ada"], "total_size": 1, "by_name": 1}


def test_parameters_operations_and_constants_by_name(seen: Any) -> None:
    assert seen("parameters_by_name") == {
        "title": "It breaks", "owner": "ada", "people": True,
        "media_type": "application/json", "kinds": 3,
    }  # fmt: skip
