"""Payloads in Launchpad's shapes become typed events; unknown keys and types still parse."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wadlclient.webhooks import (
    BugCommentEvent,
    BugEvent,
    CharmRecipeBuildEvent,
    CIBuildEvent,
    CraftRecipeBuildEvent,
    Event,
    GitPushEvent,
    LiveFSBuildEvent,
    MalformedDelivery,
    MergeProposalEvent,
    PingEvent,
    SnapBuildEvent,
    parse_event,
)


def parsed(event_type: str, payload: Any) -> Event:
    return parse_event(json.dumps(payload).encode(), event_type, "42")


def test_a_bug_change_gives_its_old_and_new_state() -> None:
    event = parsed(
        "bug:0.1",
        {
            "action": "status-changed",
            "target": "/frob",
            "bug": "/bugs/1",
            "old": {"title": "Crash", "status": "New", "tags": ["crash"], "reporter": "/~ada"},
            "new": {"title": "Crash", "status": "Triaged", "tags": ["crash"]},
        },
    )

    assert isinstance(event, BugEvent)
    assert (event.action, event.bug, event.target) == ("status-changed", "/bugs/1", "/frob")
    assert event.old is not None and event.new is not None
    assert (event.old.status, event.new.status) == ("New", "Triaged")
    assert event.old.tags == ("crash",) and event.old.reporter == "/~ada"
    assert event.delivery_id == "42"


def test_a_bug_comment_names_its_commenter_and_content() -> None:
    event = parsed(
        "bug:comment:0.1",
        {"action": "created", "bug": "/bugs/1", "target": "/frob",
         "bug_comment": "/bugs/1/comments/2",
         "new": {"commenter": "/~ada", "content": "Still here."}},
    )  # fmt: skip

    assert isinstance(event, BugCommentEvent)
    assert event.new is not None and (event.new.commenter, event.new.content) == (
        "/~ada",
        "Still here.",
    )
    assert event.old is None


def test_a_git_push_gives_each_refs_commits() -> None:
    event = parsed(
        "git:push:0.1",
        {
            "git_repository": "/~ada/frob/+git/frob",
            "git_repository_path": "~ada/frob/+git/frob",
            "ref_changes": {
                "refs/heads/main": {
                    "old": {"commit_sha1": "a" * 40},
                    "new": {"commit_sha1": "b" * 40},
                },
                "refs/heads/new": {"old": None, "new": {"commit_sha1": "c" * 40}},
                "refs/heads/gone": {"old": {"commit_sha1": "d" * 40}, "new": None},
            },
        },
    )

    assert isinstance(event, GitPushEvent)
    assert event.ref_changes["refs/heads/main"].new == "b" * 40
    assert event.ref_changes["refs/heads/new"].created
    assert event.ref_changes["refs/heads/gone"].deleted


def test_a_merge_proposal_gives_its_queue_status() -> None:
    event = parsed(
        "merge-proposal:0.1",
        {"merge_proposal": "/~ada/frob/+git/frob/+merge/7", "action": "modified",
         "old": {"queue_status": "Needs review"}, "new": {"queue_status": "Approved"}},
    )  # fmt: skip

    assert isinstance(event, MergeProposalEvent)
    assert event.queue_status == "Approved"


@pytest.mark.parametrize(
    ("event_type", "payload", "cls"),
    [
        ("snap:build:0.1", {"snap_build": "/b", "snap": "/r", "store_upload_status": "Pending"},
         SnapBuildEvent),
        ("charm-recipe:build:0.1", {"recipe_build": "/b", "recipe": "/r"}, CharmRecipeBuildEvent),
        ("craft-recipe:build:0.1", {"recipe_build": "/b", "recipe": "/r"}, CraftRecipeBuildEvent),
        ("livefs:build:0.1", {"livefs_build": "/b", "livefs": "/r"}, LiveFSBuildEvent),
        ("ci:build:0.1", {"build": "/b", "git_repository": "/r", "commit_sha1": "e" * 40},
         CIBuildEvent),
    ],
)  # fmt: skip
def test_each_build_event_names_its_build_and_recipe(
    event_type: str, payload: dict[str, Any], cls: type[Event]
) -> None:
    event = parsed(
        event_type, {"action": "status-changed", "status": "Successfully built", **payload}
    )

    assert type(event) is cls
    assert isinstance(event, (SnapBuildEvent, CharmRecipeBuildEvent, CraftRecipeBuildEvent,
                              LiveFSBuildEvent, CIBuildEvent))  # fmt: skip
    assert (event.build, event.recipe, event.status) == ("/b", "/r", "Successfully built")


def test_a_ping_is_a_ping_event() -> None:
    assert isinstance(parsed("ping", {"ping": True}), PingEvent)


def test_unknown_keys_are_kept_in_the_payload() -> None:
    event = parsed("git:push:0.1", {"git_repository": "/r", "ref_changes": {}, "pusher": "/~ada"})

    assert event.payload["pusher"] == "/~ada"


def test_an_unknown_event_type_is_a_plain_event() -> None:
    event = parsed("archive:binary-build:0.1", {"action": "status-changed", "build": "/b"})

    assert type(event) is Event
    assert (event.family, event.action) == ("archive:binary-build", "status-changed")


def test_a_new_version_of_a_known_type_still_parses_as_its_family() -> None:
    event = parsed("git:push:0.2", {"git_repository": "/r", "ref_changes": {}})

    assert isinstance(event, GitPushEvent) and event.family == "git:push"


def test_a_documented_key_of_the_wrong_type_is_named() -> None:
    with pytest.raises(MalformedDelivery, match=r"git:push:0.1 payload: 'git_repository'"):
        parsed("git:push:0.1", {"git_repository": 3})


@pytest.mark.parametrize(("body", "says"), [(b"{", "not JSON"), (b"[1]", "not an object")])
def test_a_payload_that_is_not_a_json_object_is_malformed(body: bytes, says: str) -> None:
    with pytest.raises(MalformedDelivery, match=says):
        parse_event(body, "ping", "1")
