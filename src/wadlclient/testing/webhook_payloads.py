"""Launchpad's webhook payloads, made from the fake's entries.

Each function answers ``(target, event type, payload)`` triples: the
entry whose webhooks get the delivery, the event type they subscribe to,
and the JSON payload in Launchpad's shape (docs/webhooks.md lists them).
Objects in a payload are Launchpad's "url-path": ``"/"`` and the entry's
path (``"/~ada/+snap/frob/+build/1"``), which ``root.load()`` takes.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from wadlclient.testing.store import FakeEntry, Store
from wadlclient.webhooks.events import EVENT_TYPES

__all__ = ["Triple", "bug_comment", "for_change", "git_push", "url_path"]

Triple = tuple[FakeEntry, str, dict[str, Any]]

#: Build type -> (event family, the build's key, the recipe's link field and key).
_BUILDS: Mapping[str, tuple[str, str, str, str]] = {
    "snap_build": ("snap:build", "snap_build", "snap", "snap"),
    "charm_recipe_build": ("charm-recipe:build", "recipe_build", "recipe", "recipe"),
    "craft_recipe_build": ("craft-recipe:build", "recipe_build", "recipe", "recipe"),
    "livefs_build": ("livefs:build", "livefs_build", "livefs", "livefs"),
}
_BUILD_FIELDS = frozenset({"buildstate", "store_upload_status"})
_BUG_FIELDS = frozenset({"title", "description", "tags"})
_TASK_FIELDS = frozenset({"status", "importance", "assignee"})
_PROPOSAL_LINKS = (
    "registrant",
    "source_branch",
    "source_git_repository",
    "target_branch",
    "target_git_repository",
    "prerequisite_branch",
    "prerequisite_git_repository",
    "preview_diff",
)
_PROPOSAL_TEXTS = (
    "source_git_path",
    "target_git_path",
    "prerequisite_git_path",
    "queue_status",
    "commit_message",
    "whiteboard",
    "description",
)


def url_path(entry: FakeEntry | None) -> str | None:
    return None if entry is None else "/" + entry.path


def _value(value: Any) -> Any:
    """A field's value as a payload holds it: entries as url-paths, dates as ISO text."""
    if isinstance(value, FakeEntry):
        return url_path(value)
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    return value


def _container(store: Store, entry: FakeEntry, marker: str) -> FakeEntry | None:
    """The entry ``entry``'s path is inside (``~ada/+snap/frob`` for ``.../+build/1``)."""
    head, found, _tail = entry.path.rpartition(f"/{marker}/")
    return store.entries.get(head) if found else None


def for_change(store: Store, entry: FakeEntry, old: Mapping[str, Any]) -> list[Triple]:
    """The deliveries a change of ``entry`` makes (its fields before it in ``old``)."""
    changed = {name for name, value in old.items() if entry.values.get(name) != value}
    if not changed:
        return []
    if entry.type_id in _BUILDS and changed & _BUILD_FIELDS:
        return _build(store, entry)
    if entry.type_id == "branch_merge_proposal":
        return _proposal(entry, old)
    if entry.type_id == "bug_task" and changed & _TASK_FIELDS:
        bug = _bug_of(store, entry)
        if bug is None:
            return []
        return [
            _bug_change(bug, entry, field, {field: old[field]})
            for field in sorted(changed & _TASK_FIELDS)
        ]
    if entry.type_id == "bug" and changed & _BUG_FIELDS:
        return [
            _bug_change(entry, task, field, {field: old[field]})
            for task in store.members(f"{entry.path}/bug_tasks")
            for field in sorted(changed & _BUG_FIELDS)
        ]
    return []


def _build(store: Store, build: FakeEntry) -> list[Triple]:
    family, build_key, link, recipe_key = _BUILDS[build.type_id]
    recipe = build.values.get(link) or _container(store, build, "+build")
    if not isinstance(recipe, FakeEntry):
        return []
    payload: dict[str, Any] = {
        build_key: url_path(build),
        "action": "status-changed",
        recipe_key: url_path(recipe),
        "status": _value(build.values.get("buildstate")),
    }
    if build.type_id != "livefs_build":
        payload["build_request"] = _value(build.values.get("build_request"))
    if "store_upload_status" in build.type.info.fields:
        payload["store_upload_status"] = _value(build.values.get("store_upload_status"))
    return [(recipe, EVENT_TYPES[family], payload)]


def _proposal_state(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _value(values.get(name)) for name in (*_PROPOSAL_LINKS, *_PROPOSAL_TEXTS)}


def _proposal(proposal: FakeEntry, old: Mapping[str, Any]) -> list[Triple]:
    target = proposal.values.get("target_git_repository") or proposal.values.get("target_branch")
    if not isinstance(target, FakeEntry):
        return []
    payload = {
        "merge_proposal": url_path(proposal),
        "action": "modified",
        "old": _proposal_state({**proposal.values, **old}),
        "new": _proposal_state(proposal.values),
    }
    return [(target, EVENT_TYPES["merge-proposal"], payload)]


def _bug_of(store: Store, task: FakeEntry) -> FakeEntry | None:
    bug = task.values.get("bug")
    if isinstance(bug, FakeEntry):
        return bug
    with store.lock:
        for path, members in store.collections.items():
            if path.endswith("/bug_tasks") and task in members:
                return store.entries.get(path.removesuffix("/bug_tasks"))
    return None


def _bug_state(bug: FakeEntry, task: FakeEntry, override: Mapping[str, Any]) -> dict[str, Any]:
    def read(entry: FakeEntry, name: str) -> Any:
        return _value(override[name] if name in override else entry.values.get(name))

    return {
        "title": read(bug, "title"),
        "description": read(bug, "description"),
        "reporter": _value(bug.values.get("owner")),
        "status": read(task, "status"),
        "importance": read(task, "importance"),
        "assignee": read(task, "assignee"),
        "tags": list(read(bug, "tags") or []),
        "date_created": _value(task.values.get("date_created") or bug.values.get("date_created")),
    }


def _bug_change(bug: FakeEntry, task: FakeEntry, field: str, old: Mapping[str, Any]) -> Triple:
    target = task.values.get("target")
    payload = {
        "action": f"{field}-changed",
        "target": _value(target),
        "bug": url_path(bug),
        "old": _bug_state(bug, task, old),
        "new": _bug_state(bug, task, {}),
    }
    return (target if isinstance(target, FakeEntry) else bug, EVENT_TYPES["bug"], payload)


def bug_comment(
    store: Store, bug: FakeEntry, content: str, commenter: FakeEntry | None, comment: str
) -> list[Triple]:
    """A new comment on ``bug``: one delivery per target it has a task on."""
    found: list[Triple] = []
    for task in store.members(f"{bug.path}/bug_tasks"):
        target = task.values.get("target")
        if not isinstance(target, FakeEntry):
            continue
        payload = {
            "action": "created",
            "target": url_path(target),
            "bug": url_path(bug),
            "bug_comment": comment,
            "new": {"commenter": url_path(commenter), "content": content},
        }
        found.append((target, EVENT_TYPES["bug:comment"], payload))
    return found


def git_push(
    repository: FakeEntry, changes: Mapping[str, tuple[str | None, str | None]]
) -> list[Triple]:
    """A push to ``repository``: ref name -> (old commit, new commit), None where absent."""

    def side(sha1: str | None) -> dict[str, str] | None:
        return None if sha1 is None else {"commit_sha1": sha1}

    payload = {
        "git_repository": url_path(repository),
        "git_repository_path": repository.path,
        "ref_changes": {ref: {"old": side(o), "new": side(n)} for ref, (o, n) in changes.items()},
    }
    return [(repository, EVENT_TYPES["git:push"], payload)]
