"""The exceptions wadlclient raises.

The class names match lazr.restfulclient's so that scripts catching
``lazr.restfulclient.errors.NotFound`` move over by changing an import.
An ``HTTPError`` keeps the response and its whole body; its ``str()`` is
one line that starts with the status line and then names the request and
the first line of what the server said (cut short: an exception message
ends up in logs, and a body may be long).

No error shows a credential the client holds, even one the server sent
back (`wadlclient.redact.redacted`): the body and reason an ``HTTPError``
keeps are redacted when it is made, and every error's ``str``, ``repr``
and pickle are too. Every error pickles into another process (a pool, a
Celery result), whatever its ``__init__`` takes: it is rebuilt from its
arguments and attributes, its response kept as a `ResponseSnapshot`.
"""

from __future__ import annotations

from collections.abc import Mapping

from wadlclient.redact import redacted, redacted_bytes, shown_url

#: ``typing.TYPE_CHECKING`` without importing typing: ``import wadlclient`` imports this module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from wadlclient.headers import Headers

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
    "ResponseSnapshot",
    "RestfulError",
    "ServerError",
    "TransportError",
    "TransportTimeout",
    "Unauthorized",
    "UnexpectedResponseError",
    "WADLError",
    "WalkTokenError",
    "WebAddressError",
    "error_for",
    "reduce_error",
]


def _shown(value: Any) -> Any:
    """``value`` as a pickle or a message may hold it: no credential held, no live object."""
    if isinstance(value, str):
        return redacted(value)
    if isinstance(value, bytes):
        return redacted_bytes(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if type(value) in (tuple, list):
        return type(value)(_shown(item) for item in value)
    if isinstance(value, BaseException):
        return value if isinstance(value, RestfulError) else redacted(repr(value))
    if hasattr(value, "status") and hasattr(value, "headers"):
        return ResponseSnapshot.of(value)
    if isinstance(value, dict) and hasattr(value, "status"):  # lazr's httplib2-style response
        shown = type(value).__new__(type(value))
        dict.update(shown, {key: _shown(item) for key, item in value.items()})
        vars(shown).update({key: _shown(item) for key, item in vars(value).items()})
        return shown
    return redacted(repr(value))


#: The compatibility layer's classes say they are lazr.restfulclient's; they live here.
_LAZR_NAME, _LAZR_HOME = "lazr.restfulclient", "wadlclient.lazr.restfulclient"


def _home(cls: type) -> tuple[str, str]:
    """Where ``cls`` is defined (module, qualified name), whatever name it shows."""
    module = cls.__module__
    if module.startswith(_LAZR_NAME):
        module = _LAZR_HOME + module.removeprefix(_LAZR_NAME)
    return module, cls.__qualname__


def _class_at(module: str, qualname: str) -> type[BaseException]:
    import importlib

    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and issubclass(found, BaseException)):
        raise TypeError(f"{module}.{qualname} is not an error class")
    return found


def _rebuilt(home: tuple[str, str], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """An error of the class at ``home`` with these arguments and attributes (no ``__init__``)."""
    cls = _class_at(*home)
    error = cls.__new__(cls, *args)
    BaseException.__init__(error, *args)
    vars(error).update(state)
    return error


def reduce_error(error: BaseException) -> tuple[Any, ...]:
    """``__reduce__`` for any error: rebuilt from its shown arguments and attributes."""
    state = {
        name: shown_url(value) if name == "url" and isinstance(value, str) else _shown(value)
        for name, value in vars(error).items()
    }
    return (_rebuilt, (_home(type(error)), _shown(error.args), state))


class RestfulError(Exception):
    """Base class of every error this library raises on purpose."""

    def __str__(self) -> str:
        return redacted(super().__str__())

    def __repr__(self) -> str:
        return redacted(super().__repr__())

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)


class ResponseSnapshot:
    """What a pickled `HTTPError` keeps of its response: status, reason, headers, URL.

    The headers' values are redacted and the URL is shown as `shown_url`
    shows it: the pickle goes to another process, maybe another machine.
    """

    def __init__(self, status: int, reason: str, headers: Headers, url: str) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers
        self.url = url

    @classmethod
    def of(cls, response: object) -> ResponseSnapshot:
        from wadlclient.headers import Headers  # imports typing: only once an error is pickled

        headers = getattr(response, "headers", None) or {}
        pairs = headers.items() if hasattr(headers, "items") else headers
        url = getattr(response, "url", "")
        return cls(
            int(getattr(response, "status", 0) or 0),
            redacted(str(getattr(response, "reason", "") or "")),
            Headers([(str(name), redacted(str(value))) for name, value in pairs]),
            shown_url(url) if isinstance(url, str) else "",
        )

    def __repr__(self) -> str:
        return f"ResponseSnapshot({self.status}, {self.reason!r}, url={self.url!r})"


class Redacted(RestfulError, ValueError, AttributeError):
    """A link the server hid from this caller (lazr.restful's redacted value).

    A ValueError, as lazr.restfulclient raises for it; an AttributeError
    too, so that ``getattr(entry, name, default)``, ``hasattr`` and the
    REPL's tab completion pass over it instead of failing.
    """


class WADLError(RestfulError):
    """A WADL document could not be read: malformed, unsafe, or not WADL."""


class WebAddressError(RestfulError, ValueError):
    """A web address or reference that names no object `load_web` can load, and why."""


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
        self.content = redacted_bytes(content) if isinstance(content, bytes) else content
        self.method = method
        status = getattr(response, "status", 0)
        self.status: int = int(status) if isinstance(status, (int, str)) else 0
        reason = getattr(response, "reason", "") or ""
        if not reason:
            # Imported here: ``import wadlclient`` imports this module, and most starts
            # never need a reason phrase (http's enum of statuses costs milliseconds).
            from http import HTTPStatus

            try:
                reason = HTTPStatus(self.status).phrase
            except ValueError:
                reason = "Unknown Status"
        self.reason: str = redacted(str(reason))
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
        return redacted(f"{text} [{self.note}]" if self.note else text)

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
