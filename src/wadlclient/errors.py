"""The exceptions wadlclient raises.

The class names match lazr.restfulclient's so that scripts catching
``lazr.restfulclient.errors.NotFound`` move over by changing an import.
An ``HTTPError`` keeps the response and its whole body; its ``str()`` is
one line that starts with the status line and then names the request and
the first line of what the server said (cut short: an exception message
ends up in logs, and a body may be long).
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from wadlclient.redact import shown_url

__all__ = [
    "BadRequest",
    "CacheError",
    "ClientError",
    "Conflict",
    "ConnectError",
    "ConnectionDropped",
    "CredentialsError",
    "CredentialsFileError",
    "CredentialsNeeded",
    "CredentialsRefused",
    "Gone",
    "HTTPError",
    "MethodNotAllowed",
    "NotFound",
    "PreconditionFailed",
    "Redacted",
    "ResponseError",
    "RestfulError",
    "ServerError",
    "TransportError",
    "TransportTimeout",
    "Unauthorized",
    "UnexpectedResponseError",
    "WADLError",
    "WalkTokenError",
    "error_for",
]


class RestfulError(Exception):
    """Base class of every error this library raises on purpose."""


class Redacted(RestfulError, ValueError, AttributeError):
    """A link the server hid from this caller (lazr.restful's redacted value).

    A ValueError, as lazr.restfulclient raises for it; an AttributeError
    too, so that ``getattr(entry, name, default)``, ``hasattr`` and the
    REPL's tab completion pass over it instead of failing.
    """


class WADLError(RestfulError):
    """A WADL document could not be read: malformed, unsafe, or not WADL."""


class ResponseError(RestfulError):
    """A response arrived but its content could not be understood."""


class TransportError(RestfulError):
    """No HTTP answer: the connection failed, was dropped, or timed out.

    The transport's message names the method and URL; ``__cause__`` holds
    the sender's own error (one of the subclasses below, for instance).
    ``attempts`` and ``elapsed`` (seconds) say what the request cost before
    the transport gave up: a transient failure is retried first.
    """

    def __init__(self, message: str, url: str = "", method: str = "") -> None:
        super().__init__(message)
        self.url = url
        self.method = method
        self.attempts = 1
        self.elapsed = 0.0


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


class CredentialsRefused(CredentialsError):
    """The service refused credentials that came from the environment (a 401 at login).

    Nobody can be asked for new ones there (a CI job, a container), so
    this is raised at once instead of a prompt; the message names where
    the credentials came from and what to do, never a secret. The
    refusing 401 error, when there was one, is ``__context__``.
    """


class CredentialsNeeded(CredentialsError):
    """A service root revived from a pickle needs credentials and this process has none.

    A pickle never carries a secret: the worker supplies credentials
    (`wadlclient.supply_credentials`) or has them in its environment.
    """


class WalkTokenError(RestfulError, ValueError):
    """A walk's resume token that this walk cannot take: damaged, another walk's, or newer."""


class CacheError(RestfulError):
    """The cache directory cannot be used as asked (for example, not a directory)."""


#: The most characters of the server's message that ``str(error)`` shows.
_MESSAGE_LIMIT = 200


class HTTPError(RestfulError):
    """The server answered with a status that is an error (or unexpected).

    ``response`` is the transport's response (``status``, ``reason``,
    ``headers``, ``url``), ``content`` its body as bytes, ``method`` the
    request's method when the raiser knew it. After retries (a 429, 502,
    503 or 504 that did not pass), ``attempts`` and ``elapsed`` (seconds)
    say what the request cost, and ``note`` says so in the message.
    """

    attempts = 1
    elapsed = 0.0
    note = ""

    def __init__(self, response: object, content: bytes = b"", *, method: str = "") -> None:
        self.response = response
        self.content = content
        self.method = method
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

    @property
    def url(self) -> str:
        """The URL that answered (empty when the response does not say)."""
        url = getattr(self.response, "url", "")
        return url if isinstance(url, str) else ""

    def server_message(self) -> str:
        """The first non-blank line of the body, cut to a log-friendly length ("" if none)."""
        content_type = str(self.headers.get("content-type", "")).lower()
        if "html" in content_type or not isinstance(self.content, bytes):
            return ""
        text = self.content[: _MESSAGE_LIMIT * 4].decode("utf-8", "replace")
        line = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if len(line) > _MESSAGE_LIMIT:
            line = line[: _MESSAGE_LIMIT - 3].rstrip() + "..."
        return line

    def __str__(self) -> str:
        text = f"HTTP Error {self.status}: {self.reason}"
        request = " ".join(part for part in (self.method, shown_url(self.url)) if part)
        if request:
            text += f" ({request})"
        message = self.server_message()
        text = f"{text}: {message}" if message else text
        return f"{text} [{self.note}]" if self.note else text

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


def error_for(response: object, content: bytes = b"", method: str = "") -> HTTPError | None:
    """Return the exception for an error response, or None for a 1xx-3xx one."""
    status = int(getattr(response, "status", 0) or 0)
    if status < 400:
        return None
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ClientError if status < 500 else ServerError
    return cls(response, content, method=method)
