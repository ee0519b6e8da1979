"""The errors a webhook receiver raises: each names its cause, and the status to answer.

A receiver's adapters (`wadlclient.webhooks.asgi`, `wadlclient.webhooks.wsgi`)
answer a refused delivery with the error's ``status`` and message, so
Launchpad's delivery log shows why. No message carries the secret.
"""

from __future__ import annotations

from wadlclient.errors import RestfulError

__all__ = [
    "BodyNotBytes",
    "InvalidSignature",
    "MalformedDelivery",
    "ReplayStoreUnavailable",
    "ReplayedDelivery",
    "SignatureMismatch",
    "SignatureMissing",
    "WebhookError",
    "WebhookSetupError",
]


class WebhookError(RestfulError):
    """A delivery was refused; ``status`` is the HTTP status an adapter answers with."""

    status = 400


class BodyNotBytes(WebhookError, TypeError):
    """The body given is not the raw bytes received (a dict, a str...): the receiver's own bug.

    A signature covers the exact bytes Launchpad sent; a payload parsed and
    serialised again (a framework's JSON body, ``json.dumps(request.json)``)
    or decoded to text has other bytes, and can never verify.
    """

    status = 500


class WebhookSetupError(WebhookError, ValueError):
    """The receiver itself is set up wrong (no secret, a replay store it cannot use)."""

    status = 500


class MalformedDelivery(WebhookError, ValueError):
    """A header Launchpad always sends is missing, or the payload is not a JSON object."""


class InvalidSignature(WebhookError):
    """The delivery's signature does not prove it came from Launchpad with this secret."""

    status = 403


class SignatureMissing(InvalidSignature):
    """No ``X-Hub-Signature``: the webhook has no secret on Launchpad, or a proxy dropped it."""

    status = 401


class SignatureMismatch(InvalidSignature):
    """``X-Hub-Signature`` does not match the body with this secret."""


class ReplayedDelivery(WebhookError):
    """This ``X-Launchpad-Delivery`` was received before: a replay (or a retry of a success)."""

    status = 409

    def __init__(self, message: str, delivery_id: str) -> None:
        super().__init__(message)
        self.delivery_id = delivery_id


class ReplayStoreUnavailable(WebhookError):
    """The replay store could not be asked (Redis down): refused, so Launchpad retries later."""

    status = 503
