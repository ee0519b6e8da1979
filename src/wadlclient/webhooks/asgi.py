"""An ASGI app that receives Launchpad's webhooks: mount it in Starlette or FastAPI.

    receiver = Receiver(secret)
    app = Starlette(routes=[Route("/launchpad", asgi_app(receiver, handle), methods=["POST"])])

It reads the body as bytes (bounded by the receiver's ``max_body``), hands
it to `Receiver.receive`, and calls ``handle(event)`` for a delivery that
passes: a coroutine function, or a plain one (which runs in the event
loop: keep it short, or hand the event to a queue). A refused delivery is answered
with its error's status and message (Launchpad's delivery log shows it);
when the handler raises, the delivery id is released for Launchpad's
retry and the error goes on to the server, which answers 500.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from wadlclient.webhooks.errors import MalformedDelivery, WebhookError
from wadlclient.webhooks.events import Event
from wadlclient.webhooks.receiver import Receiver

__all__ = ["asgi_app"]

logger = logging.getLogger("wadlclient.webhooks")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def asgi_app(receiver: Receiver, handle: Callable[[Event], Any]) -> ASGIApp:
    """An ASGI app answering POSTs of Launchpad's deliveries; ``handle`` gets each event.

    An object, not a function: Starlette's ``Route("/launchpad", asgi_app(...))``
    then serves it as the ASGI app it is (a function would be taken for an
    endpoint that gets a ``Request``).
    """
    return _WebhookApp(receiver, handle)


class _WebhookApp:
    def __init__(self, receiver: Receiver, handle: Callable[[Event], Any]) -> None:
        self.receiver = receiver
        self.handle = handle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope["method"] != "POST":
            await _answer(send, 405, "Launchpad delivers webhooks with POST", allow=b"POST")
            return
        receiver = self.receiver
        try:
            body = await _body(receive, receiver.max_body)
            event = receiver.receive(body, scope["headers"])
        except WebhookError as error:
            logger.warning("webhook delivery refused: %s", error)
            await _answer(send, error.status, str(error))
            return
        try:
            result = self.handle(event)
            if inspect.isawaitable(result):
                await result
        except BaseException:
            receiver.forget(event)
            raise
        await _answer(send, 200, "ok")


async def _body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise MalformedDelivery("the client went away before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise MalformedDelivery(
                f"the body is over this receiver's max_body ({limit} bytes): Launchpad's "
                "payloads are a few kilobytes"
            )
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _answer(send: Send, status: int, text: str, allow: bytes | None = None) -> None:
    body = (text + "\n").encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    headers.append((b"content-length", str(len(body)).encode("ascii")))
    if allow is not None:
        headers.append((b"allow", allow))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    """Served on its own (not mounted), the app has nothing to start or stop."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
