"""The transport: requests out, answers (or wadlclient.errors) back.

`Transport` authorizes every request it sends (no credentials to another
origin), follows redirects, retries as `retry.Retry` says, consults and
feeds the HTTP cache (`cache_policy`), and sends through a `Sender`: by
default `pool.ConnectionPool`, keep-alive connections on http.client.
One DEBUG line per exchange goes to the ``wadlclient.http`` logger.
docs/architecture.md says what each module decides and why.
"""

from wadlclient.http.models import DEFAULT_TIMEOUT, HTTPResponse, Request, Response, Timeout
from wadlclient.http.sender import Sender
from wadlclient.http.transport import Transport

__all__ = [
    "DEFAULT_TIMEOUT",
    "HTTPResponse",
    "Request",
    "Response",
    "Sender",
    "Timeout",
    "Transport",
]
