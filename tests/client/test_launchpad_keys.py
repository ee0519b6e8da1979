"""Key look-ups on Launchpad: where launchpadlib's PersonSet, BugSet and PillarSet look.

Launchpad keeps a person at ``~ada``, a bug at ``bugs/1`` and a project at
``<root>/frobnicator``, not at ``people/ada``: a native root and a
`wadlclient.launchpad` root on Launchpad's published devel WADL ask there,
against the testing kit's fake of that WADL (which serves those shapes),
and count one GET each. Any other service keeps ``<collection>/<key>``.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest
from benchmarks.config import launchpad_published_wadl_path

from wadlclient import ServiceRoot
from wadlclient.launchpad import login_anonymously
from wadlclient.testing import FakeService


@pytest.fixture(scope="module")
def devel_wadl() -> bytes:
    return gzip.decompress(launchpad_published_wadl_path("devel").read_bytes())


@pytest.fixture
def fake(devel_wadl: bytes) -> Iterator[FakeService]:
    with FakeService(devel_wadl) as service:
        service.add("people", name="ada", display_name="Ada Lovelace")
        service.add("bugs", id=1, title="It frobs")
        service.add("projects", name="frobnicator", display_name="Frobnicator")
        yield service


def _gets(fake: FakeService) -> list[str]:
    return [served.path for served in fake.journal.requests("GET") if served.path]


def test_a_native_root_looks_people_bugs_and_projects_up_where_launchpad_keeps_them(
    fake: FakeService,
) -> None:
    with ServiceRoot(None, fake.service_root, version="devel") as root:
        before = len(_gets(fake))
        ada = root.people["ada"]
        bug = root.bugs["1"]
        project = root.projects["frobnicator"]

        assert (ada.display_name, bug.title, project.display_name) == (
            "Ada Lovelace", "It frobs", "Frobnicator",
        )  # fmt: skip
    assert _gets(fake)[before:] == ["~ada", "bugs/1", "frobnicator"]


def test_a_typed_launchpad_root_looks_up_the_same_way(fake: FakeService) -> None:
    with login_anonymously("keys-test", fake.service_root, version="devel") as lp:
        assert lp.people["ada"].display_name == "Ada Lovelace"
        assert lp.bugs(1).title == "It frobs"  # an int in [] is an index, as everywhere
        assert lp.people("ada").self_link == fake.base + "~ada"  # unfetched: no request


def test_a_missing_key_is_a_key_error_after_one_get(fake: FakeService) -> None:
    with (
        ServiceRoot(None, fake.service_root, version="devel") as root,
        pytest.raises(KeyError, match="nobody"),
    ):
        root.people["nobody"]
    assert [s.status for s in fake.journal.requests("GET", "~nobody")] == [404]


def test_other_services_keep_collection_slash_key(cookbook_service: object) -> None:
    url = cookbook_service.base_url  # type: ignore[attr-defined]
    with ServiceRoot(None, url) as root:
        assert root.recipes(3).self_link == f"{url}1.0/recipes/3"
        assert root.recipes[0].self_link == f"{url}1.0/recipes/1"  # an int is an index there
