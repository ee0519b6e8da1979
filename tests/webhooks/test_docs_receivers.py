"""The receivers of docs/webhooks.md, as written, against the fake's deliveries over HTTP.

The document's blocks are read from the file and run here (their
secret from the environment, as they read it), so a receiver built from
the docs is the one tested: it accepts what the fake signs, and refuses
a tampered body, a wrong secret, a dict in place of bytes and a replay.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator
from typing import Any
from urllib.request import urlopen

import pytest
from tests.newcomer.docblocks import ROOT, Block, blocks_of

from wadlclient.testing import FakeService, serving
from wadlclient.webhooks import (
    Event,
    GitPushEvent,
    Receiver,
    RedisReplayStore,
    ReplayedDelivery,
    asgi_app,
    wsgi_app,
)

from .conftest import SECRET, Seeded

DOC = ROOT / "docs" / "webhooks.md"


def python_blocks() -> list[Block]:
    return [block for block in blocks_of(DOC) if block.lang == "python"]


def run_block(block: Block, namespace: dict[str, Any]) -> None:
    """Run a block as a reader's module would; the pytest example's import of the
    reader's own module (``myapp``) is the namespace of the blocks before it."""
    text = "\n".join(line for line in block.text.splitlines() if "from myapp import" not in line)
    exec(compile(text, block.where, "exec"), namespace)


@pytest.fixture
def documented(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The namespace of the document's Starlette receiver, its secret set in the environment."""
    monkeypatch.setenv("LAUNCHPAD_WEBHOOK_SECRET", SECRET)
    namespace: dict[str, Any] = {"__name__": "myapp"}
    run_block(python_blocks()[0], namespace)
    return namespace


def test_the_documents_pytest_example_passes_against_its_receiver(
    documented: dict[str, Any], fake_launchpad: FakeService, capsys: pytest.CaptureFixture[str]
) -> None:
    example = next(b for b in python_blocks() if "def test_" in b.text)
    run_block(example, documented)

    documented["test_the_receiver_takes_a_push_and_refuses_forgeries"](fake_launchpad)

    assert [type(event).__name__ for event in documented["received"]] == [
        "PingEvent",
        "GitPushEvent",
    ]
    assert "/~ada/frob/+git/frob: refs/heads/main is now " + "a" * 40 in capsys.readouterr().out


def test_the_documents_one_line_asgi_app_refuses_as_its_endpoint_does(
    documented: dict[str, Any], seeded: Seeded
) -> None:
    one_line = next(b for b in python_blocks() if "asgi_app(receiver, handle)" in b.text)
    run_block(one_line, documented)
    hooks, repository = seeded.hooks, seeded.repository

    with serving(documented["app"]) as url:
        hooks.register(repository, url + "/launchpad", ["git:push:0.1"], secret=SECRET)
        [delivery] = hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})
        replayed = hooks.redeliver(delivery)
        tampered = hooks.redeliver(delivery, body=delivery.body.replace(b"main", b"evil"))
        unsigned = hooks.redeliver(delivery, headers={"X-Hub-Signature": ""})

    assert delivery.status == 200
    assert replayed.status == 409 and b"was received before" in replayed.response
    assert tampered.status == 403 and b"does not match" in tampered.response
    assert unsigned.status == 401 and b"no X-Hub-Signature" in unsigned.response
    assert len(documented["received"]) == 1


def test_a_get_of_the_receiver_is_refused_with_405(documented: dict[str, Any]) -> None:
    from urllib.error import HTTPError

    app = asgi_app(documented["receiver"], documented["handle"])
    with serving(app) as url, pytest.raises(HTTPError) as caught:
        urlopen(url + "/", timeout=10)

    assert caught.value.code == 405 and caught.value.headers["Allow"] == "POST"


def test_the_wsgi_adapter_under_wsgiref_accepts_once_and_refuses_forgeries(
    seeded: Seeded,
) -> None:
    events: list[Event] = []
    app = wsgi_app(Receiver(SECRET), events.append)
    hooks, repository = seeded.hooks, seeded.repository

    with serving(app) as url:
        hooks.register(repository, url, ["git:push:0.1"], secret=SECRET)
        [delivery] = hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})
        replayed = hooks.redeliver(delivery)
        tampered = hooks.redeliver(delivery, body=delivery.body + b" ")
        hooks.set_secret(delivery.webhook, "not-the-receivers")
        [wrong_secret] = hooks.git_push(repository, {"refs/heads/main": ("a" * 40, "b" * 40)})

    assert delivery.status == 200 and isinstance(events[0], GitPushEvent)
    assert (replayed.status, tampered.status, wrong_secret.status) == (409, 403, 403)
    assert len(events) == 1


def test_a_handler_that_fails_lets_launchpads_retry_in(seeded: Seeded) -> None:
    attempts: list[Event] = []

    def handle(event: Event) -> None:
        attempts.append(event)
        if len(attempts) == 1:
            raise RuntimeError("the database is down")

    hooks, repository = seeded.hooks, seeded.repository
    with serving(wsgi_app(Receiver(SECRET), handle)) as url:
        hooks.register(repository, url, ["git:push:0.1"], secret=SECRET)
        [failed] = hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})
        retried = hooks.redeliver(failed)  # Launchpad's retry: the same id, the same bytes

    assert failed.status == 500 and retried.status == 200
    assert [event.delivery_id for event in attempts] == [failed.delivery_id] * 2


@pytest.fixture
def fleet(empty_redis: str) -> Iterator[tuple[str, str]]:
    """Two receiver processes' worth of apps, sharing one real Redis for their replays."""
    apps = [
        asgi_app(Receiver(SECRET, replays=RedisReplayStore(empty_redis)), lambda event: None)
        for _ in range(2)
    ]
    with serving(apps[0]) as first, serving(apps[1]) as second:
        yield first, second


def test_a_replay_to_another_receiver_of_the_fleet_is_refused(
    seeded: Seeded, fleet: tuple[str, str]
) -> None:
    first, second = fleet
    hooks, repository = seeded.hooks, seeded.repository
    hooks.register(repository, first, ["git:push:0.1"], secret=SECRET)

    [delivery] = hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})
    elsewhere = hooks.redeliver(dataclasses.replace(delivery, url=second))

    assert delivery.status == 200
    assert elsewhere.status == 409 and b"was received before" in elsewhere.response


def test_a_dict_in_place_of_the_body_names_the_re_serialised_body(
    documented: dict[str, Any], seeded: Seeded
) -> None:
    webhook = seeded.hooks.register(seeded.repository, "http://127.0.0.1:9/", ["ping"])
    seeded.hooks.set_secret(webhook, SECRET)
    delivery = seeded.hooks.ping(webhook)  # unanswered: only its bytes and headers are used
    receiver: Receiver = documented["receiver"]

    with pytest.raises(TypeError, match="parsed as JSON") as caught:
        receiver.receive(json.loads(delivery.body), delivery.headers)
    event = receiver.receive(delivery.body, delivery.headers)
    with pytest.raises(ReplayedDelivery):
        receiver.receive(io.BytesIO(delivery.body).read(), delivery.headers)

    assert "request.body()" in str(caught.value)
    assert event.delivery_id == delivery.delivery_id
