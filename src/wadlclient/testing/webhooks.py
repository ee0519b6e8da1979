"""The fake Launchpad sends webhooks: signed deliveries over real HTTP to a test's receiver.

    hooks = FakeWebhooks(fake)
    hook = hooks.register(repository, receiver_url, ["git:push:0.1"], secret="s3cret")
    hooks.git_push(repository, {"refs/heads/main": (None, "a" * 40)})

Webhooks are made as Launchpad's API makes them too: ``newWebhook`` on
any entry the WADL gives it (``repo.newWebhook(delivery_url=...,
event_types=[...], secret=...)``), ``webhook.setSecret(secret=...)`` and
``webhook.ping()`` answer as Launchpad does, once `FakeWebhooks` is set on
the fake. A change of an entry (``fake.change``, or a client's PATCH)
delivers what Launchpad would: a bug task's status, a build's state, a
merge proposal. A handler delivers anything with `FakeWebhooks.deliver`.

Each delivery is a POST with Launchpad's headers (``User-Agent``,
``X-Launchpad-Event-Type``, ``X-Launchpad-Delivery``, ``X-Hub-Signature``
when the webhook has a secret), sent before the call that caused it
returns; `FakeWebhooks.deliveries` records the receiver's answers, and
each is a ``webhook_delivery`` entry of its webhook's ``deliveries``.
"""

from __future__ import annotations

import datetime
import fnmatch
import itertools
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from wadlclient._version import __version__
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.store import FakeEntry
from wadlclient.testing.webhook_payloads import Triple, bug_comment, for_change, git_push
from wadlclient.webhooks.signature import secret_bytes, sign

if TYPE_CHECKING:
    from wadlclient.testing.service import FakeService

__all__ = ["Delivery", "FakeWebhooks"]

USER_AGENT = f"launchpad.net-Webhooks/wadlclient-fake-{__version__}"
#: Delivery ids go up across every fake of the process, and across runs (they start
#: at the clock's milliseconds), as Launchpad's do: a receiver's replay store that
#: outlives one test never takes a new delivery for a replay.
_DELIVERY_IDS = itertools.count(int(time.time() * 1000))
_IDS_LOCK = threading.Lock()


def _next_id() -> str:
    with _IDS_LOCK:
        return str(next(_DELIVERY_IDS))


@dataclass(frozen=True)
class Delivery:
    """One POST to a receiver, and its answer (``status`` None: no answer, ``error`` says why)."""

    webhook: FakeEntry
    url: str
    event_type: str
    delivery_id: str
    payload: Mapping[str, Any]
    body: bytes = field(repr=False)
    headers: Mapping[str, str] = field(repr=False)
    status: int | None = None
    response: bytes = field(default=b"", repr=False)
    error: str | None = None
    #: The ``webhook_delivery`` entry the fake serves for it.
    entry: FakeEntry | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class FakeWebhooks:
    """Launchpad's webhooks on ``fake``: its named operations, and deliveries over HTTP."""

    def __init__(self, fake: FakeService, *, timeout: float = 10.0) -> None:
        described = fake.description
        if not described.has_entry_type("webhook"):
            raise ValueError("this fake's WADL has no webhooks (no 'webhook' entry type)")
        observers = fake.store.observers
        if any(isinstance(getattr(o, "__self__", None), FakeWebhooks) for o in observers):
            raise ValueError("this fake has its FakeWebhooks already: keep the first one")
        self.fake = fake
        self.store = fake.store
        self.timeout = timeout
        self.deliveries: list[Delivery] = []
        self._secrets: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        app = described.schema.app
        for type_id in sorted(app.resource_types):
            if "newWebhook" in described.schema.type_info(type_id).operations:
                fake.operation(type_id, "newWebhook")(self._new_webhook)
        fake.operation("webhook", "setSecret")(self._set_secret)
        fake.operation("webhook", "ping")(self._ping)
        self.store.observers.append(self._changed)

    # -- webhooks ----------------------------------------------------------------

    def register(
        self,
        target: FakeEntry,
        delivery_url: str,
        event_types: Sequence[str],
        *,
        secret: str | bytes | None = None,
        active: bool = True,
        git_ref_pattern: str | None = None,
    ) -> FakeEntry:
        """A new webhook of ``target`` (as ``target.newWebhook(...)`` makes one); a
        ValueError when the WADL gives ``target``'s type no webhooks."""
        if isinstance(event_types, str):
            raise ValueError(f"event_types is a list of event types, not {event_types!r}")
        fields: dict[str, Any] = {
            "delivery_url": delivery_url,
            "event_types": list(event_types),
            "active": active,
            "target": target,
            "date_created": _now(),
            "date_last_modified": _now(),
        }
        if git_ref_pattern is not None:
            fields["git_ref_pattern"] = git_ref_pattern
        if "webhooks" not in target.type.info.fields:
            raise ValueError(
                f"{target.type_id} has no webhooks in this fake's WADL (it is no "
                "webhook_target there; a newer WADL of Launchpad's may make it one)"
            )
        webhook = self.fake.add_to(target, "webhooks", **fields)
        self.set_secret(webhook, secret)
        return webhook

    def set_secret(self, webhook: FakeEntry, secret: str | bytes | None) -> None:
        """The secret deliveries are signed with; None: unsigned (no ``X-Hub-Signature``)."""
        if secret is None:
            self._secrets.pop(webhook.path, None)
        else:
            self._secrets[webhook.path] = secret_bytes(secret)

    def _new_webhook(self, owner: Any, /, **arguments: Any) -> FakeEntry:
        if not isinstance(owner, FakeEntry):
            raise HTTPException(400, "newWebhook is an operation of an entry")
        events = arguments.get("event_types")
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise HTTPException(400, "event_types: a list of event types is required.")
        secret = arguments.get("secret")
        if secret is not None and len(str(secret).encode("utf-8")) >= 200:
            raise HTTPException(400, "secret: must be less than 200 bytes long.")
        return self.register(
            owner,
            str(arguments["delivery_url"]),
            events,
            secret=secret or None,
            active=bool(arguments.get("active", True)),
            git_ref_pattern=arguments.get("git_ref_pattern"),
        )

    def _set_secret(self, webhook: FakeEntry, /, secret: str | None = None) -> None:
        self.set_secret(webhook, secret or None)

    def _ping(self, webhook: FakeEntry, /) -> FakeEntry:
        delivery = self.send(webhook, "ping", {"ping": True})
        assert delivery.entry is not None
        return delivery.entry

    # -- what to deliver ----------------------------------------------------------

    def deliver(
        self, target: FakeEntry, event_type: str, payload: Mapping[str, Any]
    ) -> list[Delivery]:
        """``payload`` to each active webhook of ``target`` subscribed to ``event_type``."""
        return self._deliver_all([(target, event_type, dict(payload))])

    def ping(self, webhook: FakeEntry) -> Delivery:
        return self.send(webhook, "ping", {"ping": True})

    def git_push(
        self, repository: FakeEntry, changes: Mapping[str, tuple[str | None, str | None]]
    ) -> list[Delivery]:
        """A push: ref -> (old commit, new commit), None where the ref is created or deleted."""
        return self._deliver_all(git_push(repository, changes))

    def bug_comment(
        self,
        bug: FakeEntry,
        content: str,
        *,
        commenter: FakeEntry | None = None,
        comment: str | None = None,
    ) -> list[Delivery]:
        """A new comment on ``bug``, to the webhooks of each of its tasks' targets."""
        path = comment or f"/{bug.path}/comments/{int(bug.values.get('message_count') or 0) + 1}"
        return self._deliver_all(bug_comment(self.store, bug, content, commenter, path))

    def _changed(self, entry: FakeEntry, old: dict[str, Any], new: dict[str, Any]) -> None:
        if entry.type_id in ("webhook", "webhook_delivery"):
            return
        self._deliver_all(for_change(self.store, entry, old))

    def _deliver_all(self, triples: Sequence[Triple]) -> list[Delivery]:
        sent = []
        for target, event_type, payload in triples:
            for webhook in self.store.members(f"{target.path}/webhooks"):
                narrowed = _for_webhook(webhook, event_type, payload)
                if narrowed is not None:
                    sent.append(self.send(webhook, event_type, narrowed))
        return sent

    # -- sending --------------------------------------------------------------------

    def send(self, webhook: FakeEntry, event_type: str, payload: Mapping[str, Any]) -> Delivery:
        """POST ``payload`` to ``webhook``'s URL now, signed with its secret if it has one."""
        body = json.dumps(payload).encode("utf-8")
        delivery_id = _next_id()
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Launchpad-Event-Type": event_type,
            "X-Launchpad-Delivery": delivery_id,
        }
        secret = self._secrets.get(webhook.path)
        if secret is not None:
            headers["X-Hub-Signature"] = sign(body, secret)
        url = str(webhook.values.get("delivery_url"))
        delivery = Delivery(webhook, url, event_type, delivery_id, payload, body, headers)
        return self._post(delivery)

    def redeliver(
        self,
        delivery: Delivery,
        *,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Delivery:
        """Send ``delivery`` again, byte for byte (a replay), or with ``body`` or some
        ``headers`` changed (a tampered copy: the signature stays the original's).

        Launchpad's own retries look the same: same delivery id, same bytes. It is
        recorded in `deliveries`, not as a new ``webhook_delivery`` entry."""
        changed = replace(
            delivery,
            body=delivery.body if body is None else body,
            headers={**delivery.headers, **(headers or {})},
            status=None,
            response=b"",
            error=None,
            entry=None,
        )
        return self._post(changed, record=False)

    def _post(self, delivery: Delivery, *, record: bool = True) -> Delivery:
        request = urllib.request.Request(
            delivery.url, data=delivery.body, headers=dict(delivery.headers), method="POST"
        )
        status: int | None = None
        response = b""
        error: str | None = None
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                status, response = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, response = refused.code, refused.read()
            error = f"Bad HTTP response: {status}"
        except (OSError, ValueError) as failure:
            error = f"Connection error: {failure}"
        done = replace(delivery, status=status, response=response, error=error)
        if record:
            done = replace(done, entry=self._record(done))
        with self._lock:
            self.deliveries.append(done)
        return done

    def _record(self, delivery: Delivery) -> FakeEntry:
        """The delivery as Launchpad's API shows it: a ``webhook_delivery`` of its webhook."""
        now = _now()
        return self.fake.add_to(
            delivery.webhook,
            "deliveries",
            self_link=f"{delivery.webhook.path}/+delivery/{delivery.delivery_id}",
            event_type=delivery.event_type,
            payload=dict(delivery.payload),
            pending=False,
            successful=delivery.ok,
            error_message=delivery.error,
            date_created=now,
            date_scheduled=now,
            date_first_sent=now,
            date_sent=now,
        )


def _for_webhook(
    webhook: FakeEntry, event_type: str, payload: dict[str, Any]
) -> dict[str, Any] | None:
    """The payload this webhook gets (its ``git_ref_pattern`` narrows a push), or None."""
    values = webhook.values
    if values.get("active") is False or event_type not in (values.get("event_types") or ()):
        return None
    pattern = values.get("git_ref_pattern")
    if not pattern:
        return payload
    if "ref_changes" in payload:
        kept = {r: c for r, c in payload["ref_changes"].items() if fnmatch.fnmatchcase(r, pattern)}
        return {**payload, "ref_changes": kept} if kept else None
    states = [payload.get(key) or {} for key in ("new", "old")]
    refs = [state.get(k) for state in states for k in ("source_git_path", "target_git_path")]
    return payload if any(r and fnmatch.fnmatchcase(r, pattern) for r in refs) else None


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat()
