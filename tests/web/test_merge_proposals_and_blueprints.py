"""A merge proposal and a blueprint live where Launchpad keeps them, seeded with no path.

Launchpad's canonical URL of a merge proposal is its source repository's
(or branch's) ``+merge/<id>``, and a specification's is its target's
``+spec/<name>`` (``wadlclient.facts``): a test that seeds them as any other
entry gets the addresses people paste, and ``load_web`` reads them back.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wadlclient import ServiceRoot
from wadlclient.testing import FakeService, launchpad_wadl


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeService]:
    with FakeService(launchpad_wadl()) as fake:
        yield fake


def test_a_merge_proposal_lives_under_its_source_repository(fake: FakeService) -> None:
    ada = fake.add("people", name="ada")
    frob = fake.add("projects", name="frob")
    source = fake.add("git_repositories", name="frob", owner=ada, target=frob)
    target = fake.add("git_repositories", name="trunk", owner=ada, target=frob)

    proposal = fake.add(
        "branch_merge_proposal", source_git_repository=source, target_git_repository=target
    )

    assert proposal.path == "~ada/frob/+git/frob/+merge/1"
    with ServiceRoot(None, fake.service_root, version=fake.version) as root:
        loaded = root.load_web("https://code.launchpad.net/~ada/frob/+git/frob/+merge/1")
        assert loaded.self_link == fake.url_of(proposal)
        assert loaded.web_link == "https://code.launchpad.net/~ada/frob/+git/frob/+merge/1"


def test_a_blueprint_lives_under_its_target(fake: FakeService) -> None:
    frob = fake.add("projects", name="blueprinted")

    spec = fake.add("specification", target=frob, name="faster")

    assert spec.path == "blueprinted/+spec/faster"
    with ServiceRoot(None, fake.service_root, version=fake.version) as root:
        loaded = root.load_web("https://blueprints.launchpad.net/blueprinted/+spec/faster")
        assert loaded.self_link == fake.url_of(spec)
