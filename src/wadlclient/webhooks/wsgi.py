"""A WSGI app that receives Launchpad's webhooks: for Flask, Django or any WSGI server.

    receiver = Receiver(secret)
    application = wsgi_app(receiver, handle)   # def handle(event): ...

As `wadlclient.webhooks.asgi`, for WSGI: the body is read as bytes
(``CONTENT_LENGTH`` of them, bounded by ``max_body``), a refused delivery
is answered with its error's status and message, and a handler that
raises releases the delivery id for Launchpad's retry before its error
goes on to the server.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from http import HTTPStatus
from typing import Any

from wadlclient.webhooks.errors import MalformedDelivery, WebhookError
from wadlclient.webhooks.events import Event
from wadlclient.webhooks.receiver import Receiver

__all__ = ["wsgi_app"]

logger = logging.getLogger("wadlclient.webhooks")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def wsgi_app(receiver: Receiver, handle: Callable[[Event], Any]) -> WSGIApp:
    """A WSGI app answering POSTs of Launchpad's deliveries; ``handle`` gets each event."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST":
            return _answer(start_response, 405, "Launchpad delivers webhooks with POST")
        try:
            body = _body(environ, receiver.max_body)
            event = receiver.receive(body, environ)
        except WebhookError as error:
            logger.warning("webhook delivery refused: %s", error)
            return _answer(start_response, error.status, str(error))
        try:
            handle(event)
        except BaseException:
            receiver.forget(event)
            raise
        return _answer(start_response, 200, "ok")

    return app


def _body(environ: Mapping[str, Any], limit: int) -> bytes:
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise MalformedDelivery("the Content-Length header is not a number") from None
    if length > limit:
        raise MalformedDelivery(
            f"the body is {length} bytes, over this receiver's max_body ({limit}): "
            "Launchpad's payloads are a few kilobytes"
        )
    data: bytes = environ["wsgi.input"].read(length) if length else b""
    return data


def _answer(start_response: StartResponse, status: int, text: str) -> list[bytes]:
    body = (text + "\n").encode("utf-8")
    headers = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(body))),
    ]
    if status == 405:
        headers.append(("Allow", "POST"))
    start_response(f"{status} {HTTPStatus(status).phrase}", headers)
    return [body]
