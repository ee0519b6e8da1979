"""Launchpad's webhooks, received safely (docs/webhooks.md).

`Receiver` verifies a delivery's ``X-Hub-Signature`` against its raw body
bytes, refuses a replayed ``X-Launchpad-Delivery`` and parses the payload
into a typed `Event`; `asgi_app` and `wsgi_app` put it behind a URL of
Starlette, FastAPI, Flask or Django; `sign` signs a body as Launchpad
does, for tests. It needs no client: this package imports nothing of
wadlclient's objects or transport.
"""

from wadlclient.webhooks.asgi import asgi_app
from wadlclient.webhooks.errors import (
    BodyNotBytes,
    InvalidSignature,
    MalformedDelivery,
    ReplayedDelivery,
    ReplayStoreUnavailable,
    SignatureMismatch,
    SignatureMissing,
    WebhookError,
    WebhookSetupError,
)
from wadlclient.webhooks.events import (
    EVENT_TYPES,
    BugCommentEvent,
    BugEvent,
    BuildEvent,
    CharmRecipeBuildEvent,
    CIBuildEvent,
    CraftRecipeBuildEvent,
    Event,
    GitPushEvent,
    LiveFSBuildEvent,
    MergeProposalEvent,
    PingEvent,
    RefChange,
    SnapBuildEvent,
    parse_event,
)
from wadlclient.webhooks.receiver import Receiver
from wadlclient.webhooks.replay import MemoryReplayStore, RedisReplayStore, ReplayStore
from wadlclient.webhooks.signature import sign, verify
from wadlclient.webhooks.wsgi import wsgi_app

__all__ = [
    "EVENT_TYPES",
    "BodyNotBytes",
    "BugCommentEvent",
    "BugEvent",
    "BuildEvent",
    "CIBuildEvent",
    "CharmRecipeBuildEvent",
    "CraftRecipeBuildEvent",
    "Event",
    "GitPushEvent",
    "InvalidSignature",
    "LiveFSBuildEvent",
    "MalformedDelivery",
    "MemoryReplayStore",
    "MergeProposalEvent",
    "PingEvent",
    "Receiver",
    "RedisReplayStore",
    "RefChange",
    "ReplayStore",
    "ReplayStoreUnavailable",
    "ReplayedDelivery",
    "SignatureMismatch",
    "SignatureMissing",
    "SnapBuildEvent",
    "WebhookError",
    "WebhookSetupError",
    "asgi_app",
    "parse_event",
    "sign",
    "verify",
    "wsgi_app",
]
