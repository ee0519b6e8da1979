"""A recording receiver on loopback, and a fake Launchpad that sends webhooks to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from wadlclient import ServiceRoot
from wadlclient.testing import FakeService, FakeWebhooks, serving
from wadlclient.testing.store import FakeEntry
from wadlclient.webhooks import Event, Receiver, asgi_app

SECRET = "a-secret-of-the-tests"


@dataclass
class Recorded:
    """A receiver's address, and the events it accepted."""

    url: str
    events: list[Event] = field(default_factory=list)


@pytest.fixture
def recorded() -> Iterator[Recorded]:
    """The receiver of the docs, served by uvicorn: `asgi_app` and a `Receiver`."""
    events: list[Event] = []
    app = Starlette(
        routes=[Route("/launchpad", asgi_app(Receiver(SECRET), events.append), methods=["POST"])]
    )
    with serving(app) as url:
        yield Recorded(url + "/launchpad", events)


@dataclass
class Seeded:
    fake: FakeService
    hooks: FakeWebhooks
    ada: FakeEntry
    frob: FakeEntry
    repository: FakeEntry


@pytest.fixture
def seeded(fake_launchpad: FakeService) -> Seeded:
    """The fake Launchpad with webhooks, Ada, her project frob and its repository."""
    hooks = FakeWebhooks(fake_launchpad)
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    frob = fake_launchpad.add("projects", name="frob", display_name="Frob")
    repository = fake_launchpad.add("git_repositories", name="frob", owner=ada, target=frob)
    return Seeded(fake_launchpad, hooks, ada, frob, repository)


@pytest.fixture
def lp(seeded: Seeded) -> Iterator[ServiceRoot]:
    """wadlclient's own client on the fake."""
    fake = seeded.fake
    with ServiceRoot(None, fake.service_root, version=fake.version) as root:
        yield root
