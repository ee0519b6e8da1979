"""Launchpad's webhook payloads as typed events, read leniently.

`parse_event` picks the class by the ``X-Launchpad-Event-Type`` header's
family (``git:push:0.1`` -> ``git:push``: a new version still parses).
Unknown keys are kept (``event.payload`` holds the whole payload) and an
unknown event type is a plain `Event`: Launchpad adds keys and event
types without notice. A key Launchpad documents, of the wrong type, is a
`MalformedDelivery` naming it. Paths (``"/~ada/frob/+git/frob"``) are
Launchpad's "url-path": pass one to ``root.load()`` for the object.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from wadlclient.webhooks.errors import MalformedDelivery

__all__ = [
    "EVENT_TYPES",
    "BugCommentEvent",
    "BugEvent",
    "BuildEvent",
    "CIBuildEvent",
    "CharmRecipeBuildEvent",
    "CraftRecipeBuildEvent",
    "Event",
    "GitPushEvent",
    "LiveFSBuildEvent",
    "MergeProposalEvent",
    "PingEvent",
    "RefChange",
    "SnapBuildEvent",
    "parse_event",
]

#: The event types Launchpad's webhooks subscribe to (its ``event_types``), by family.
EVENT_TYPES: Mapping[str, str] = {
    "bug": "bug:0.1",
    "bug:comment": "bug:comment:0.1",
    "git:push": "git:push:0.1",
    "merge-proposal": "merge-proposal:0.1",
    "snap:build": "snap:build:0.1",
    "charm-recipe:build": "charm-recipe:build:0.1",
    "craft-recipe:build": "craft-recipe:build:0.1",
    "livefs:build": "livefs:build:0.1",
    "ci:build": "ci:build:0.1",
    "ping": "ping",
}

_VERSION = re.compile(r":(\d+(?:\.\d+)*)$")


def family_of(event_type: str) -> str:
    """``git:push:0.1`` -> ``git:push``; a type without a version is its own family."""
    return _VERSION.sub("", event_type)


class _Reader:
    """Typed reads of one payload's keys, naming the key and event type when one is wrong."""

    def __init__(self, payload: Mapping[str, Any], event_type: str) -> None:
        self.payload = payload
        self.event_type = event_type

    def wrong(self, key: str, wanted: str, value: Any) -> MalformedDelivery:
        return MalformedDelivery(
            f"{self.event_type} payload: {key!r} should be {wanted}, not {type(value).__name__}"
        )

    def text(self, key: str, within: Mapping[str, Any] | None = None) -> str | None:
        value = (self.payload if within is None else within).get(key)
        if value is None or isinstance(value, str):
            return value
        raise self.wrong(key, "a string", value)

    def mapping(self, key: str) -> Mapping[str, Any] | None:
        value = self.payload.get(key)
        if value is None or isinstance(value, Mapping):
            return value
        raise self.wrong(key, "an object", value)

    def texts(self, key: str, within: Mapping[str, Any]) -> tuple[str, ...]:
        value = within.get(key)
        if value is None:
            return ()
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise self.wrong(key, "a list of strings", value)


@dataclass(frozen=True, kw_only=True)
class Event:
    """One delivery: its event type, delivery id and whole payload. Any type parses as this."""

    event_type: str
    delivery_id: str
    payload: Mapping[str, Any] = field(repr=False)
    #: What happened (``"created"``, ``"status-changed"``...), when the payload says.
    action: str | None = None

    FAMILY: ClassVar[str] = ""

    @property
    def family(self) -> str:
        """The event type without its version: ``git:push`` for ``git:push:0.1``."""
        return family_of(self.event_type)

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        return {}

    @classmethod
    def from_payload(cls, event_type: str, delivery_id: str, payload: Mapping[str, Any]) -> Event:
        read = _Reader(payload, event_type)
        return cls(
            event_type=event_type,
            delivery_id=delivery_id,
            payload=payload,
            action=read.text("action"),
            **cls._fields(read),
        )


@dataclass(frozen=True, kw_only=True)
class PingEvent(Event):
    """``webhook.ping()`` was called: a test delivery, ``{"ping": true}``."""

    FAMILY: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class BugState:
    """A bug (as seen from one target) before or after the change; ``values`` is all of it."""

    values: Mapping[str, Any] = field(repr=False)
    title: str | None = None
    description: str | None = None
    reporter: str | None = None
    status: str | None = None
    importance: str | None = None
    assignee: str | None = None
    tags: tuple[str, ...] = ()
    date_created: str | None = None

    @classmethod
    def read(cls, read: _Reader, values: Mapping[str, Any] | None) -> BugState | None:
        if values is None:
            return None
        known = ("title", "description", "status", "importance", "assignee", "date_created")
        found = {key: read.text(key, values) for key in known}
        # Launchpad's reference calls the reporter "reported"; accept both spellings.
        reporter = read.text("reporter", values) or read.text("reported", values)
        return cls(values=values, reporter=reporter, tags=read.texts("tags", values), **found)


@dataclass(frozen=True, kw_only=True)
class BugEvent(Event):
    """A bug or bug task was created or changed (``action``: ``created``, ``status-changed``...)."""

    FAMILY: ClassVar[str] = "bug"
    bug: str | None = None
    target: str | None = None
    old: BugState | None = None
    new: BugState | None = None

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        return {
            "bug": read.text("bug"),
            "target": read.text("target"),
            "old": BugState.read(read, read.mapping("old")),
            "new": BugState.read(read, read.mapping("new")),
        }


@dataclass(frozen=True, kw_only=True)
class CommentState:
    values: Mapping[str, Any] = field(repr=False)
    commenter: str | None = None
    content: str | None = None

    @classmethod
    def read(cls, read: _Reader, values: Mapping[str, Any] | None) -> CommentState | None:
        if values is None:
            return None
        return cls(
            values=values,
            commenter=read.text("commenter", values),
            content=read.text("content", values),
        )


@dataclass(frozen=True, kw_only=True)
class BugCommentEvent(Event):
    """A comment was added to a bug."""

    FAMILY: ClassVar[str] = "bug:comment"
    bug: str | None = None
    target: str | None = None
    bug_comment: str | None = None
    old: CommentState | None = None
    new: CommentState | None = None

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        return {
            "bug": read.text("bug"),
            "target": read.text("target"),
            "bug_comment": read.text("bug_comment"),
            "old": CommentState.read(read, read.mapping("old")),
            "new": CommentState.read(read, read.mapping("new")),
        }


@dataclass(frozen=True)
class RefChange:
    """One ref's commit before and after a push: None where the ref did not (or no longer) exist."""

    old: str | None
    new: str | None

    @property
    def created(self) -> bool:
        return self.old is None and self.new is not None

    @property
    def deleted(self) -> bool:
        return self.old is not None and self.new is None


@dataclass(frozen=True, kw_only=True)
class GitPushEvent(Event):
    """A push to a Git repository: ``ref_changes`` by ref name (``refs/heads/main``)."""

    FAMILY: ClassVar[str] = "git:push"
    git_repository: str | None = None
    git_repository_path: str | None = None
    ref_changes: Mapping[str, RefChange] = field(default_factory=dict)

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        changes: dict[str, RefChange] = {}
        for ref, change in (read.mapping("ref_changes") or {}).items():
            if not isinstance(change, Mapping):
                raise read.wrong(f"ref_changes[{ref!r}]", "an object", change)
            sides = []
            for side in ("old", "new"):
                described = change.get(side)
                if described is not None and not isinstance(described, Mapping):
                    raise read.wrong(f"ref_changes[{ref!r}][{side!r}]", "an object", described)
                sides.append(read.text("commit_sha1", described) if described else None)
            changes[ref] = RefChange(sides[0], sides[1])
        return {
            "git_repository": read.text("git_repository"),
            "git_repository_path": read.text("git_repository_path"),
            "ref_changes": changes,
        }


@dataclass(frozen=True, kw_only=True)
class MergeProposalEvent(Event):
    """A merge proposal into the webhook's repository was created, modified or deleted.

    ``old``/``new`` are its attributes (``queue_status``, ``source_git_path``,
    ``description``...) before and after; absent when created/deleted.
    """

    FAMILY: ClassVar[str] = "merge-proposal"
    merge_proposal: str | None = None
    old: Mapping[str, Any] | None = None
    new: Mapping[str, Any] | None = None

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        return {
            "merge_proposal": read.text("merge_proposal"),
            "old": read.mapping("old"),
            "new": read.mapping("new"),
        }

    @property
    def queue_status(self) -> str | None:
        """The proposal's status after the event (before it, when deleted)."""
        state = self.new if self.new is not None else self.old
        value = (state or {}).get("queue_status")
        return value if isinstance(value, str) else None


@dataclass(frozen=True, kw_only=True)
class BuildEvent(Event):
    """A build's status changed: ``build`` and ``recipe`` are its path and its recipe's."""

    BUILD_KEYS: ClassVar[tuple[str, ...]] = ()
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ()
    build: str | None = None
    recipe: str | None = None
    status: str | None = None
    build_request: str | None = None
    store_upload_status: str | None = None

    @classmethod
    def _fields(cls, read: _Reader) -> dict[str, Any]:
        def first(keys: tuple[str, ...]) -> str | None:
            return next((v for v in (read.text(k) for k in keys) if v is not None), None)

        return {
            "build": first(cls.BUILD_KEYS),
            "recipe": first(cls.RECIPE_KEYS),
            "status": read.text("status"),
            "build_request": read.text("build_request"),
            "store_upload_status": read.text("store_upload_status"),
        }


@dataclass(frozen=True, kw_only=True)
class SnapBuildEvent(BuildEvent):
    FAMILY: ClassVar[str] = "snap:build"
    BUILD_KEYS: ClassVar[tuple[str, ...]] = ("snap_build",)
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ("snap",)


@dataclass(frozen=True, kw_only=True)
class CharmRecipeBuildEvent(BuildEvent):
    FAMILY: ClassVar[str] = "charm-recipe:build"
    BUILD_KEYS: ClassVar[tuple[str, ...]] = ("recipe_build", "charm_recipe_build")
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ("recipe", "charm_recipe")


@dataclass(frozen=True, kw_only=True)
class CraftRecipeBuildEvent(BuildEvent):
    FAMILY: ClassVar[str] = "craft-recipe:build"
    BUILD_KEYS: ClassVar[tuple[str, ...]] = ("recipe_build", "craft_recipe_build")
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ("recipe", "craft_recipe")


@dataclass(frozen=True, kw_only=True)
class LiveFSBuildEvent(BuildEvent):
    FAMILY: ClassVar[str] = "livefs:build"
    BUILD_KEYS: ClassVar[tuple[str, ...]] = ("livefs_build",)
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ("livefs",)


@dataclass(frozen=True, kw_only=True)
class CIBuildEvent(BuildEvent):
    """A CI build's status changed; ``recipe`` is its Git repository, with ``commit_sha1``."""

    FAMILY: ClassVar[str] = "ci:build"
    BUILD_KEYS: ClassVar[tuple[str, ...]] = ("build",)
    RECIPE_KEYS: ClassVar[tuple[str, ...]] = ("git_repository",)

    @property
    def commit_sha1(self) -> str | None:
        value = self.payload.get("commit_sha1")
        return value if isinstance(value, str) else None


_CLASSES: dict[str, type[Event]] = {
    cls.FAMILY: cls
    for cls in (
        PingEvent,
        BugEvent,
        BugCommentEvent,
        GitPushEvent,
        MergeProposalEvent,
        SnapBuildEvent,
        CharmRecipeBuildEvent,
        CraftRecipeBuildEvent,
        LiveFSBuildEvent,
        CIBuildEvent,
    )
}


def parse_event(body: bytes, event_type: str, delivery_id: str) -> Event:
    """The event ``body`` (JSON bytes) describes. It does not verify: see `Receiver`."""
    try:
        payload = json.loads(body)
    except ValueError as error:
        raise MalformedDelivery(f"the {event_type} payload is not JSON: {error}") from None
    if not isinstance(payload, dict):
        raise MalformedDelivery(
            f"the {event_type} payload is a JSON {type(payload).__name__}, not an object"
        )
    cls = _CLASSES.get(family_of(event_type), Event)
    return cls.from_payload(event_type, delivery_id, payload)
