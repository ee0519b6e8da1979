"""The fake Launchpad sends signed webhooks over HTTP: through its API, on changes, on request."""

from __future__ import annotations

import socket

import pytest

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.testing import FakeService, FakeWebhooks
from wadlclient.testing.store import FakeEntry
from wadlclient.webhooks import (
    BugCommentEvent,
    BugEvent,
    CharmRecipeBuildEvent,
    GitPushEvent,
    LiveFSBuildEvent,
    MergeProposalEvent,
    PingEvent,
    SnapBuildEvent,
    verify,
)

from .conftest import SECRET, Recorded, Seeded


def test_new_webhook_set_secret_and_ping_work_through_the_api(
    seeded: Seeded, recorded: Recorded, lp: ServiceRoot
) -> None:
    repository = lp.load("/~ada/frob/+git/frob")

    webhook = repository.newWebhook(
        delivery_url=recorded.url, event_types=["git:push:0.1"], secret=SECRET
    )
    delivery = webhook.ping()

    assert (webhook.delivery_url, webhook.event_types, webhook.active) == (
        recorded.url,
        ["git:push:0.1"],
        True,
    )
    assert webhook.target.self_link == repository.self_link
    assert (delivery.event_type, delivery.successful, delivery.payload) == (
        "ping",
        True,
        {"ping": True},
    )
    assert [d.self_link for d in webhook.deliveries] == [delivery.self_link]
    assert isinstance(recorded.events[-1], PingEvent)
    webhook.setSecret(secret="another")
    assert webhook.ping().successful is False  # the receiver's secret is no longer the webhook's


def test_a_delivery_carries_launchpads_headers_and_signature(
    seeded: Seeded, recorded: Recorded
) -> None:
    webhook = seeded.hooks.register(seeded.repository, recorded.url, ["ping"], secret=SECRET)

    delivery = seeded.hooks.ping(webhook)

    headers = delivery.headers
    assert headers["User-Agent"].startswith("launchpad.net-Webhooks/")
    assert headers["Content-Type"] == "application/json"
    assert headers["X-Launchpad-Event-Type"] == "ping"
    assert headers["X-Launchpad-Delivery"] == recorded.events[-1].delivery_id
    verify(delivery.body, headers, SECRET)
    assert seeded.hooks.ping(webhook).delivery_id > delivery.delivery_id


def test_a_webhook_without_a_secret_sends_unsigned_and_the_receiver_refuses(
    seeded: Seeded, recorded: Recorded
) -> None:
    webhook = seeded.hooks.register(seeded.repository, recorded.url, ["ping"])

    delivery = seeded.hooks.ping(webhook)

    assert "X-Hub-Signature" not in delivery.headers
    assert delivery.status == 401 and b"no X-Hub-Signature" in delivery.response
    assert recorded.events == []


def test_a_clients_patch_of_a_bug_task_delivers_the_bug_event(
    seeded: Seeded, recorded: Recorded, lp: ServiceRoot
) -> None:
    fake = seeded.fake
    bug = fake.add("bugs", title="Crash", description="It crashes.", owner=seeded.ada)
    fake.add_to(bug, "bug_tasks", target=seeded.frob, status="New", importance="Undecided")
    seeded.hooks.register(seeded.frob, recorded.url, ["bug:0.1"], secret=SECRET)

    task = lp.load("/frob/+bug/1")
    task.status = "Triaged"
    task.lp_save()

    [event] = recorded.events
    assert isinstance(event, BugEvent)
    assert (event.action, event.bug, event.target) == ("status-changed", "/bugs/1", "/frob")
    assert event.old is not None and event.new is not None
    assert (event.old.status, event.new.status, event.new.reporter) == ("New", "Triaged", "/~ada")


def test_a_builds_state_changed_by_the_test_delivers_its_build_event(
    seeded: Seeded, recorded: Recorded
) -> None:
    fake, ada, frob = seeded.fake, seeded.ada, seeded.frob
    snap = fake.add("snaps", name="frob", owner=ada)
    charm = fake.add("charm_recipes", name="frob", owner=ada, project=frob)
    noble = fake.add("distro_series", distribution=fake.add("distributions", name="ubuntu"),
                     name="noble")  # fmt: skip
    livefs = fake.add("livefses", name="frob", owner=ada, distro_series=noble)
    builds = [
        (snap, "snap:build:0.1", fake.add("snap_build", snap=snap), SnapBuildEvent),
        (charm, "charm-recipe:build:0.1", fake.add("charm_recipe_build", recipe=charm),
         CharmRecipeBuildEvent),
        (livefs, "livefs:build:0.1", fake.add("livefs_build", livefs=livefs), LiveFSBuildEvent),
    ]  # fmt: skip
    for recipe, event_type, _build, _cls in builds:
        seeded.hooks.register(recipe, recorded.url, [event_type], secret=SECRET)

    for _recipe, _type, build, _cls in builds:
        fake.change(build, buildstate="Successfully built")

    assert [type(event) for event in recorded.events] == [cls for *_, cls in builds]
    for event, (recipe, _type, build, _cls) in zip(recorded.events, builds, strict=True):
        assert isinstance(event, (SnapBuildEvent, CharmRecipeBuildEvent, LiveFSBuildEvent))
        assert (event.build, event.recipe) == ("/" + build.path, "/" + recipe.path)
        assert (event.action, event.status) == ("status-changed", "Successfully built")


def test_a_merge_proposal_change_reaches_its_target_repositorys_webhooks(
    seeded: Seeded, recorded: Recorded
) -> None:
    fake, repository = seeded.fake, seeded.repository
    proposal = fake.add(
        "branch_merge_proposal",
        target_git_repository=repository, target_git_path="refs/heads/main",
        source_git_repository=repository, source_git_path="refs/heads/fix",
        queue_status="Needs review", registrant=seeded.ada,
    )  # fmt: skip
    seeded.hooks.register(repository, recorded.url, ["merge-proposal:0.1"], secret=SECRET)

    fake.change(proposal, queue_status="Approved")

    [event] = recorded.events
    assert isinstance(event, MergeProposalEvent)
    assert (event.action, event.queue_status) == ("modified", "Approved")
    assert event.old is not None and event.old["queue_status"] == "Needs review"


def test_only_active_webhooks_subscribed_to_the_event_type_get_it(
    seeded: Seeded, recorded: Recorded
) -> None:
    hooks, repository = seeded.hooks, seeded.repository
    hooks.register(repository, recorded.url, ["merge-proposal:0.1"], secret=SECRET)
    hooks.register(repository, recorded.url, ["git:push:0.1"], secret=SECRET, active=False)
    subscribed = hooks.register(repository, recorded.url, ["git:push:0.1"], secret=SECRET)

    deliveries = hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})

    assert [d.webhook for d in deliveries] == [subscribed]
    assert len(recorded.events) == 1 and isinstance(recorded.events[0], GitPushEvent)


def test_a_git_ref_pattern_narrows_a_push_to_its_refs(seeded: Seeded, recorded: Recorded) -> None:
    hooks, repository = seeded.hooks, seeded.repository
    hooks.register(
        repository, recorded.url, ["git:push:0.1"], secret=SECRET, git_ref_pattern="refs/heads/*"
    )

    hooks.git_push(repository, {"refs/tags/v1": (None, "b" * 40)})
    hooks.git_push(
        repository, {"refs/heads/main": (None, "a" * 40), "refs/tags/v2": (None, "c" * 40)}
    )

    [event] = recorded.events
    assert isinstance(event, GitPushEvent) and list(event.ref_changes) == ["refs/heads/main"]


def test_a_handler_of_the_fake_delivers_when_it_says_so(
    seeded: Seeded, recorded: Recorded, lp: ServiceRoot
) -> None:
    fake, hooks, ada = seeded.fake, seeded.hooks, seeded.ada
    bug = fake.add("bugs", title="Crash", owner=ada)
    fake.add_to(bug, "bug_tasks", target=seeded.frob)
    hooks.register(seeded.frob, recorded.url, ["bug:comment:0.1"], secret=SECRET)

    @fake.operation("bug", "newMessage")
    def new_message(bug: FakeEntry, /, content: str, **_: object) -> FakeEntry:
        message = fake.add_to(bug, "messages", content=content, owner=ada)
        hooks.bug_comment(bug, content, commenter=ada, comment="/" + message.path)
        return message

    lp.load("/bugs/1").newMessage(content="Still crashes.")

    [event] = recorded.events
    assert isinstance(event, BugCommentEvent) and event.new is not None
    assert (event.bug, event.target, event.new.content) == ("/bugs/1", "/frob", "Still crashes.")
    assert event.bug_comment == "/bugs/1/messages/1"


def test_a_target_the_wadl_gives_no_webhooks_is_refused_naming_its_type(
    seeded: Seeded, recorded: Recorded
) -> None:
    craft = seeded.fake.add("craft_recipes", name="frob", owner=seeded.ada, project=seeded.frob)

    with pytest.raises(ValueError, match="craft_recipe has no webhooks in this fake's WADL"):
        seeded.hooks.register(craft, recorded.url, ["craft-recipe:build:0.1"], secret=SECRET)


def test_a_receiver_that_does_not_answer_is_a_failed_delivery_on_record(seeded: Seeded) -> None:
    with socket.socket() as probe:  # a port nothing listens on: a real refused connection
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    webhook = seeded.hooks.register(seeded.repository, f"http://127.0.0.1:{port}/", ["ping"])

    delivery = seeded.hooks.ping(webhook)

    assert delivery.status is None and delivery.error is not None
    assert delivery.error.startswith("Connection error")
    assert delivery.entry is not None and delivery.entry["successful"] is False


def test_a_second_fake_webhooks_on_one_fake_is_refused(seeded: Seeded) -> None:
    with pytest.raises(ValueError, match="has its FakeWebhooks already"):
        FakeWebhooks(seeded.fake)


def test_a_fake_of_a_service_without_webhooks_says_so() -> None:
    wadl = generate_wadl("http://cookbooks.test/1.0/", "application/vnd.sun.wadl+xml")

    with FakeService(wadl) as fake, pytest.raises(ValueError, match="no webhooks"):
        FakeWebhooks(fake)
