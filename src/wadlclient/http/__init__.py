"""The transport: requests out, answers (or wadlclient.errors) back.

`Transport` authorizes every request it sends (no credentials to another
origin), follows redirects, retries as `retry.Retry` says, consults and
feeds the HTTP cache (`cache_policy`), and sends through a `Sender`: by
default `pool.ConnectionPool`, keep-alive connections on http.client.
One DEBUG line per exchange goes to the ``wadlclient.http`` logger.
docs/architecture.md says what each module decides and why.
"""

from wadlclient.http.connection import Verify
from wadlclient.http.models import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_BODY,
    DEFAULT_TIMEOUT,
    HTTPResponse,
    PendingResponse,
    Request,
    Response,
    Timeout,
)
from wadlclient.http.retry import RETRY_METHODS, RETRY_STATUSES, Retry
from wadlclient.http.sender import Exchange, Sender, StartingSender, StreamingSender
from wadlclient.http.stream import StreamedResponse
from wadlclient.http.transport import Transport
from wadlclient.http.wire import BodyTooLarge, InvalidURL

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_BODY",
    "DEFAULT_TIMEOUT",
    "RETRY_METHODS",
    "RETRY_STATUSES",
    "BodyTooLarge",
    "Exchange",
    "HTTPResponse",
    "InvalidURL",
    "PendingResponse",
    "Request",
    "Response",
    "Retry",
    "Sender",
    "StartingSender",
    "StreamedResponse",
    "StreamingSender",
    "Timeout",
    "Transport",
    "Verify",
]
