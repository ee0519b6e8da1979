"""`Receiver`: one delivery in (raw body and headers), one verified, fresh, typed event out.

Sans-I/O, as gidgethub's ``Event.from_http``: it takes bytes and headers
from any framework and does no networking, so the same object serves
Starlette, FastAPI, Flask, Django, or a test. It verifies before it parses
(stripe's rule: an unverified payload is never read) and claims the
delivery id last, so a forged or malformed request never fills the
replay store.
"""

from __future__ import annotations

from wadlclient.webhooks.errors import MalformedDelivery, ReplayedDelivery, WebhookSetupError
from wadlclient.webhooks.events import Event, parse_event
from wadlclient.webhooks.replay import MemoryReplayStore, ReplayStore
from wadlclient.webhooks.signature import Headers, header_map, raw_body, secret_bytes, verify

__all__ = ["DELIVERY_HEADER", "EVENT_TYPE_HEADER", "Receiver"]

EVENT_TYPE_HEADER = "X-Launchpad-Event-Type"
DELIVERY_HEADER = "X-Launchpad-Delivery"
#: Launchpad's payloads are a few kilobytes; this bounds what a receiver reads.
DEFAULT_MAX_BODY = 1024 * 1024


class Receiver:
    """Verifies, de-duplicates and parses Launchpad's deliveries for one webhook secret.

    ``replays``: where delivery ids are remembered (`wadlclient.webhooks.replay`);
    by default a `MemoryReplayStore` of its own, which serves one process only.
    """

    def __init__(
        self,
        secret: str | bytes,
        *,
        replays: ReplayStore | None = None,
        max_body: int = DEFAULT_MAX_BODY,
    ) -> None:
        self._secret = secret_bytes(secret)
        self.replays: ReplayStore = replays if replays is not None else MemoryReplayStore()
        if max_body <= 0:
            raise WebhookSetupError("max_body must be a positive number of bytes")
        self.max_body = max_body

    def __repr__(self) -> str:
        return f"<Receiver replays={type(self.replays).__name__}>"

    def receive(self, body: bytes, headers: Headers) -> Event:
        """The delivery's event, once its signature verifies and its id was never seen.

        ``body`` is the request's raw bytes as received; ``headers`` any
        mapping of them (or ASGI's pairs). Raises a `WebhookError` naming
        the cause: see `wadlclient.webhooks.errors`.
        """
        data = raw_body(body)
        if len(data) > self.max_body:
            raise MalformedDelivery(
                f"the body is {len(data)} bytes, over this receiver's max_body "
                f"({self.max_body}): Launchpad's payloads are a few kilobytes"
            )
        verify(data, headers, self._secret)
        named = header_map(headers)
        event_type = _required(named, EVENT_TYPE_HEADER)
        delivery_id = _required(named, DELIVERY_HEADER)
        event = parse_event(data, event_type, delivery_id)
        if not self.replays.claim(delivery_id):
            raise ReplayedDelivery(
                f"delivery {delivery_id} ({event_type}) was received before: a replay of a "
                "captured request, or a retry of one already handled; it is not handled again",
                delivery_id,
            )
        return event

    def forget(self, event: Event) -> None:
        """Let ``event``'s delivery in again: call it when handling it failed, so that
        Launchpad's retry (the same delivery id) is accepted."""
        self.replays.release(event.delivery_id)


def _required(headers: dict[str, str], name: str) -> str:
    value = headers.get(name.lower(), "").strip()
    if not value:
        raise MalformedDelivery(f"the delivery has no {name} header, which Launchpad always sends")
    return value
