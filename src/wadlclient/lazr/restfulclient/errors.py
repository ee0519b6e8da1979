"""lazr.restfulclient's exceptions: its hierarchy, attributes and messages.

Every HTTP error class here is also the wadlclient error of the same name
(``NotFound`` is both ``lazr.restfulclient.errors.NotFound`` and
``wadlclient.errors.NotFound``), so code written against either API
catches what the engine raises. ``response`` is an httplib2-style
response: a dict of lower-cased headers with ``status`` and ``reason``.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from wadlclient import errors as _engine
from wadlclient.lazr import named_as_lazr
from wadlclient.redact import redacted, redacted_bytes

__all__ = [
    "BadRequest",
    "ClientError",
    "Conflict",
    "CredentialsError",
    "CredentialsFileError",
    "HTTPError",
    "MethodNotAllowed",
    "NotFound",
    "PreconditionFailed",
    "ResponseError",
    "RestfulError",
    "ServerError",
    "Unauthorized",
    "UnexpectedResponseError",
    "error_for",
]


class LazrResponse(dict[str, str]):
    """An httplib2-style response: lower-cased headers plus ``status`` and ``reason``."""

    def __init__(self, status: int, reason: str = "", headers: Any = ()) -> None:
        pairs = headers.items() if hasattr(headers, "items") else headers
        super().__init__((str(name).lower(), str(value)) for name, value in pairs)
        self.status = status
        self.reason = reason or _phrase(status)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown Status"


@named_as_lazr
class RestfulError(_engine.RestfulError):
    """Base error for the lazr.restfulclient API library."""


@named_as_lazr
class CredentialsError(RestfulError, _engine.CredentialsError):
    """Base credentials/authentication error."""


@named_as_lazr
class CredentialsFileError(CredentialsError, _engine.CredentialsFileError):
    """Error in credentials file."""


@named_as_lazr
class ResponseError(RestfulError):
    """Error in response: keeps the response and its body."""

    def __init__(self, response: Any, content: Any) -> None:
        RestfulError.__init__(self)
        self.response = response
        self.content: Any = redacted_bytes(content) if isinstance(content, bytes) else content


@named_as_lazr
class UnexpectedResponseError(ResponseError, _engine.UnexpectedResponseError):
    """An unexpected response was received."""

    def __init__(self, response: Any, content: Any) -> None:
        _engine.UnexpectedResponseError.__init__(self, response, content)

    def __str__(self) -> str:
        return redacted(f"{self.response.status}: {self.response.reason}")


@named_as_lazr
class HTTPError(ResponseError, _engine.HTTPError):
    """A non-2xx answer; ``str()`` shows the status, the headers and the body, as lazr does."""

    def __init__(self, response: Any, content: Any) -> None:
        _engine.HTTPError.__init__(self, response, content)

    def __str__(self) -> str:
        headers = "\n".join("{}: {}".format(*pair) for pair in sorted(self.response.items()))
        return redacted(
            f"HTTP Error {self.response.status}: {self.response.reason}\n"
            f"Response headers:\n---\n{headers}\n---\n"
            f"Response body:\n---\n{self.content}\n---\n"
        )


@named_as_lazr
class ClientError(HTTPError, _engine.ClientError):
    """An exception representing a client-side error."""


@named_as_lazr
class Unauthorized(ClientError, _engine.Unauthorized):
    """An exception representing an authentication failure."""


@named_as_lazr
class NotFound(ClientError, _engine.NotFound):
    """An exception representing a nonexistent resource."""


@named_as_lazr
class MethodNotAllowed(ClientError, _engine.MethodNotAllowed):
    """An unsupported HTTP method (deleting what cannot be deleted, say)."""


@named_as_lazr
class BadRequest(ClientError, _engine.BadRequest):
    """An exception representing a problem with a client request."""


@named_as_lazr
class Conflict(ClientError, _engine.Conflict):
    """An exception representing a conflict with another client."""


@named_as_lazr
class PreconditionFailed(ClientError, _engine.PreconditionFailed):
    """A conditional PUT/PATCH failed: the object changed on the server."""


@named_as_lazr
class ServerError(HTTPError, _engine.ServerError):
    """An exception representing a server-side error."""


_BY_STATUS: dict[int, type[HTTPError]] = {
    400: BadRequest,
    401: Unauthorized,
    404: NotFound,
    405: MethodNotAllowed,
    409: Conflict,
    412: PreconditionFailed,
}


def error_for(response: Any, content: Any) -> HTTPError | None:
    """The HTTPError subclass instance for a 4xx/5xx ``response``; None for 1xx-3xx."""
    status = int(response.status)
    if status // 100 <= 3:
        return None
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = {4: ClientError, 5: ServerError}.get(status // 100, HTTPError)
    return cls(response, content)


def from_engine(error: _engine.HTTPError) -> HTTPError:
    """The lazr error for an error wadlclient's engine raised."""
    response = LazrResponse(error.status, error.reason, error.headers)
    if isinstance(error, _engine.UnexpectedResponseError):
        return UnexpectedResponseError(response, error.content)  # type: ignore[return-value]
    found = error_for(response, error.content)
    return found if found is not None else HTTPError(response, error.content)
