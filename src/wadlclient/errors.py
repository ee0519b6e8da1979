"""The exceptions wadlclient raises.

The class names match lazr.restfulclient's so that scripts catching
``lazr.restfulclient.errors.NotFound`` move over by changing an import.
An ``HTTPError`` keeps the response and its body for the curious, but its
``str()`` is only the status line: bodies may echo request data, and an
exception message ends up in logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

__all__ = [
    "BadRequest",
    "CacheError",
    "ClientError",
    "Conflict",
    "ConnectError",
    "ConnectionDropped",
    "CredentialsError",
    "CredentialsFileError",
    "Gone",
    "HTTPError",
    "MethodNotAllowed",
    "NotFound",
    "PreconditionFailed",
    "ResponseError",
    "RestfulError",
    "ServerError",
    "TransportError",
    "TransportTimeout",
    "Unauthorized",
    "UnexpectedResponseError",
    "WADLError",
    "error_for",
]


class RestfulError(Exception):
    """Base class of every error this library raises on purpose."""


class WADLError(RestfulError):
    """A WADL document could not be read: malformed, unsafe, or not WADL."""


class ResponseError(RestfulError):
    """A response arrived but its content could not be understood."""


class TransportError(RestfulError):
    """No HTTP answer: the connection failed, was dropped, or timed out.

    The transport's message names the method and URL; ``__cause__`` holds
    the sender's own error (one of the subclasses below, for instance).
    """

    def __init__(self, message: str, url: str = "", method: str = "") -> None:
        super().__init__(message)
        self.url = url
        self.method = method


class ConnectError(TransportError):
    """The connection could not be opened (refused, unknown host, TLS handshake)."""


class TransportTimeout(TransportError):
    """Connecting, sending or waiting for the answer took longer than allowed."""


class ConnectionDropped(TransportError):
    """The connection closed, or the answer was malformed, before the answer was whole.

    A safe request may be sent again. ``retried`` is true when the sender
    already resent it once (a stale keep-alive connection), so that the
    transport does not resend it a second time.
    """

    def __init__(
        self, message: str, url: str = "", method: str = "", *, retried: bool = False
    ) -> None:
        super().__init__(message, url, method)
        self.retried = retried


class CredentialsError(RestfulError):
    """Credentials could not be obtained or used."""


class CredentialsFileError(CredentialsError):
    """A credentials file is missing, unreadable or malformed."""


class CacheError(RestfulError):
    """The cache directory cannot be used as asked (for example, not a directory)."""


class HTTPError(RestfulError):
    """The server answered with a status that is an error (or unexpected).

    ``response`` is the transport's response (``status``, ``reason``,
    ``headers``), ``content`` its body as bytes.
    """

    def __init__(self, response: object, content: bytes = b"") -> None:
        self.response = response
        self.content = content
        status = getattr(response, "status", 0)
        self.status: int = int(status) if isinstance(status, (int, str)) else 0
        reason = getattr(response, "reason", "") or ""
        if not reason:
            try:
                reason = HTTPStatus(self.status).phrase
            except ValueError:
                reason = "Unknown Status"
        self.reason: str = str(reason)
        super().__init__(self.status, self.reason)

    @property
    def headers(self) -> Mapping[str, str]:
        """The response headers (empty when the response has none)."""
        headers = getattr(self.response, "headers", None)
        return headers if headers is not None else {}

    def __str__(self) -> str:
        return f"HTTP Error {self.status}: {self.reason}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.status}, {self.reason!r})"


class UnexpectedResponseError(HTTPError):
    """A status that is not an error but that the operation did not expect."""


class ClientError(HTTPError):
    """A 4xx answer."""


class BadRequest(ClientError):
    """400 Bad Request."""


class Unauthorized(ClientError):
    """401 Unauthorized: credentials missing, wrong, or for an unknown consumer."""


class NotFound(ClientError):
    """404 Not Found."""


class MethodNotAllowed(ClientError):
    """405 Method Not Allowed."""


class Conflict(ClientError):
    """409 Conflict."""


class Gone(ClientError):
    """410 Gone."""


class PreconditionFailed(ClientError):
    """412 Precondition Failed: the entry changed on the server since it was read."""


class ServerError(HTTPError):
    """A 5xx answer."""


_BY_STATUS: dict[int, type[HTTPError]] = {
    400: BadRequest,
    401: Unauthorized,
    404: NotFound,
    405: MethodNotAllowed,
    409: Conflict,
    410: Gone,
    412: PreconditionFailed,
}


def error_for(response: object, content: bytes = b"") -> HTTPError | None:
    """Return the exception for an error response, or None for a 1xx-3xx one."""
    status = int(getattr(response, "status", 0) or 0)
    if status < 400:
        return None
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ClientError if status < 500 else ServerError
    return cls(response, content)
