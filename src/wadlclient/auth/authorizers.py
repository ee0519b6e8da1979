"""The authorizers: what the transport asks to put credentials on a request.

The transport calls ``authorizeRequest`` on every request it actually sends
(retries and same-host redirect hops included) and builds the User-Agent
from ``user_agent_params``. Authorizers know nothing of the transport, and
keep their secrets out of every ``repr``, ``str`` and exception message.

Names and the credentials-file layout match lazr.restfulclient's, so a
script moves over by changing an import and a file written by either
library is read by the other.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping, MutableMapping
from typing import IO, TypeVar
from urllib.parse import parse_qs, urlencode

from wadlclient.auth.credentials_file import (
    credentials_text,
    read_credentials,
    read_credentials_path,
    write_private,
)
from wadlclient.auth.environment import CREDENTIALS_VARIABLE, credentials_from_environment
from wadlclient.auth.plaintext import plaintext_authorization
from wadlclient.auth.principal import UNDECLARED, remembered
from wadlclient.auth.quiet_oauthlib import quiet_client_class
from wadlclient.errors import CredentialsError, CredentialsFileError

# oauthlib is imported when a request is first signed: most scripts never
# sign, and importing it costs every ``import wadlclient`` several milliseconds.

__all__ = [
    "SIGNATURE_HMAC_SHA1",
    "SIGNATURE_PLAINTEXT",
    "AccessToken",
    "BasicHttpAuthorizer",
    "Consumer",
    "HttpAuthorizer",
    "OAuthAuthorizer",
]

SIGNATURE_PLAINTEXT = "PLAINTEXT"
SIGNATURE_HMAC_SHA1 = "HMAC-SHA1"
_SIGNATURE_METHODS = (SIGNATURE_PLAINTEXT, SIGNATURE_HMAC_SHA1)

_FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
#: oauthlib's ``oauth1.SIGNATURE_TYPE_AUTH_HEADER``: the parameters go in ``Authorization``.
_SIGNATURE_TYPE_AUTH_HEADER = "AUTH_HEADER"

_OAuthT = TypeVar("_OAuthT", bound="OAuthAuthorizer")


def _set_header(headers: MutableMapping[str, str], name: str, value: str) -> None:
    """Set one header, dropping any spelling of it in another case first.

    The transport's `wadlclient.headers.Headers` is case-insensitive
    already; a plain dict is not, and two spellings of ``Authorization``
    would both be sent.
    """
    wanted = name.lower()
    for key in [key for key in headers if key.lower() == wanted]:
        del headers[key]
    headers[name] = value


def _header(headers: Mapping[str, str], name: str) -> str | None:
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    return None


class HttpAuthorizer:
    """The null authorizer, and the interface every authorizer implements."""

    def authorizeSession(self, client: object) -> None:
        """Kept for lazr.restfulclient compatibility; credentials go per request."""

    def authorizeRequest(
        self,
        absolute_uri: str,
        method: str,
        body: bytes | str | None,
        headers: MutableMapping[str, str],
    ) -> None:
        """Add credentials to ``headers`` (updated in place) for one request."""

    @property
    def user_agent_params(self) -> Mapping[str, str]:
        """Extra ``key="value"`` parts for the User-Agent; none by default."""
        return {}

    @property
    def principal(self) -> str | None:
        """Whose answers these credentials get, for a shared cache; None: anonymous.

        A fingerprint (`wadlclient.auth.principal`), never a secret. Here
        `UNDECLARED`: a subclass that signs and does not say gets a principal
        derived from what it sends (`wadlclient.http.principals`), so its
        answers are never shared with another principal or anonymous callers.
        """
        return UNDECLARED

    def credential_secrets(self) -> tuple[str, ...]:
        """Every secret value these credentials hold, so no error or report ever shows one.

        The transport also hides whatever credential headers are sent
        (`wadlclient.redact.hold_sent`); an authorizer names here what a
        server could quote apart from them (a password, a token's secret).
        """
        return ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class BasicHttpAuthorizer(HttpAuthorizer):
    """HTTP Basic: ``Authorization: Basic base64(username:password)`` in UTF-8."""

    def __init__(self, username: str, password: str) -> None:
        if not isinstance(username, str) or not isinstance(password, str):
            raise TypeError("BasicHttpAuthorizer takes a username and a password as str")
        if ":" in username:
            raise ValueError(f"a Basic username cannot contain ':' (got {username!r})")
        self.username = username
        self.password = password

    def authorizeRequest(
        self,
        absolute_uri: str,
        method: str,
        body: bytes | str | None,
        headers: MutableMapping[str, str],
    ) -> None:
        """Set the Basic ``Authorization`` header."""
        token = base64.b64encode(f"{self.username}:{self.password}".encode()).decode("ascii")
        _set_header(headers, "Authorization", f"Basic {token}")

    @property
    def principal(self) -> str | None:
        """The user's fingerprint (the password stretched: it may be a weak one)."""
        return remembered(self, "basic", (self.username,), (self.password,))

    def credential_secrets(self) -> tuple[str, ...]:
        """The password, ``user:password`` and its base64 form (the header's token)."""
        pair = f"{self.username}:{self.password}"
        return (self.password, pair, base64.b64encode(pair.encode()).decode("ascii"))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(username={self.username!r})"


class Consumer:
    """An OAuth consumer (application). Its secret is usually empty in lazr.restful.

    Equal by value; the secret stays out of the ``repr``.
    """

    def __init__(self, key: str, secret: str = "", application_name: str | None = None) -> None:
        self.key = key
        self.secret = secret
        self.application_name = application_name

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(key={self.key!r}, "
            f"application_name={self.application_name!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Consumer) or type(other) is not type(self):
            return NotImplemented
        return (self.key, self.secret, self.application_name) == (
            other.key, other.secret, other.application_name
        )

    __hash__ = None  # type: ignore[assignment]  # mutable and equal by value


class AccessToken:
    """An OAuth access token; an empty key and secret means anonymous access.

    Unlike lazr.restfulclient's, ``str()`` is the secret-free ``repr``; the
    wire form that carries the secret is `to_string`.
    """

    def __init__(self, key: str, secret: str = "", context: str | None = None) -> None:
        self.key = key
        self.secret = secret
        self.context = context

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key={self.key!r}, context={self.context!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AccessToken) or type(other) is not type(self):
            return NotImplemented
        return (self.key, self.secret, self.context) == (other.key, other.secret, other.context)

    __hash__ = None  # type: ignore[assignment]  # mutable and equal by value

    @property
    def is_anonymous(self) -> bool:
        return not self.key and not self.secret

    def to_string(self) -> str:
        """``oauth_token_secret=...&oauth_token=...``, the form lazr uses."""
        return urlencode([("oauth_token_secret", self.secret), ("oauth_token", self.key)])

    @classmethod
    def from_string(cls, text: str) -> AccessToken:
        """Parse the ``oauth_token=...&oauth_token_secret=...`` form."""
        params = parse_qs(text, keep_blank_values=True)
        missing = [name for name in ("oauth_token", "oauth_token_secret") if name not in params]
        if missing:
            raise CredentialsError(f"access token string lacks {', '.join(missing)}")
        return cls(params["oauth_token"][0], params["oauth_token_secret"][0])


class OAuthAuthorizer(HttpAuthorizer):
    """Signs every request with OAuth 1.0a in the ``Authorization`` header.

    PLAINTEXT by default, as lazr.restful services expect; pass
    ``signature_method="HMAC-SHA1"`` for a real signature. Each request gets
    a fresh nonce and timestamp. Without an access token, requests are
    signed as anonymous (empty token key and secret).
    """

    def __init__(
        self,
        consumer_name: str | None = None,
        consumer_secret: str = "",
        access_token: AccessToken | None = None,
        oauth_realm: str = "OAuth",
        application_name: str | None = None,
        *,
        signature_method: str = SIGNATURE_PLAINTEXT,
    ) -> None:
        if signature_method not in _SIGNATURE_METHODS:
            raise ValueError(
                f"unsupported OAuth signature method {signature_method!r}; "
                f"expected one of {', '.join(_SIGNATURE_METHODS)}"
            )
        self.consumer: Consumer | None = None
        if consumer_name is not None:
            self.consumer = Consumer(consumer_name, consumer_secret, application_name)
        self.access_token = access_token
        self.oauth_realm = oauth_realm
        self.signature_method = signature_method
        #: Where the credentials came from when that is the environment
        #: (``"$WADLCLIENT_CREDENTIALS"``, set by `from_environment`), else None:
        #: a service root refusing them then raises `CredentialsRefused`.
        self.credentials_source: str | None = None

    @property
    def user_agent_params(self) -> Mapping[str, str]:
        """``oauth_consumer`` and, when given, ``application``."""
        if self.consumer is None:
            return {}
        params = {"oauth_consumer": self.consumer.key}
        if self.consumer.application_name is not None:
            params["application"] = self.consumer.application_name
        return params

    #: Its None principal is anonymous access, whatever the header says (a consumer, a nonce).
    _anonymous_when_none = True

    @property
    def principal(self) -> str | None:
        """The fingerprint of consumer and token; None for an anonymous token (or none)."""
        consumer, token = self.consumer, self.access_token
        if consumer is None or token is None or token.is_anonymous:
            return None
        return remembered(self, "oauth", (consumer.key, token.key), (consumer.secret, token.secret))

    def credential_secrets(self) -> tuple[str, ...]:
        """The consumer's secret, the token's key and secret, and the PLAINTEXT signature."""
        consumer_secret = self.consumer.secret if self.consumer is not None else ""
        token = self.access_token
        if token is None:
            return (consumer_secret,)
        return (consumer_secret, token.key, token.secret, f"{consumer_secret}&{token.secret}")

    def authorizeRequest(
        self,
        absolute_uri: str,
        method: str,
        body: bytes | str | None,
        headers: MutableMapping[str, str],
    ) -> None:
        """Set a freshly signed OAuth ``Authorization`` header.

        PLAINTEXT covers only the two secrets, so it is written here
        (`plaintext_authorization`) without importing oauthlib; HMAC-SHA1,
        and a form body (which oauthlib checks), go through oauthlib.
        """
        if self.consumer is None:
            raise CredentialsError("OAuthAuthorizer has no consumer to sign requests with")
        token = self.access_token if self.access_token is not None else AccessToken("", "")
        content_type = _header(headers, "Content-Type") or ""
        is_form = bool(body) and content_type.split(";")[0].strip().lower() == _FORM_MEDIA_TYPE
        if self.signature_method == SIGNATURE_PLAINTEXT and not is_form:
            value = plaintext_authorization(
                self.oauth_realm, self.consumer.key, self.consumer.secret, token.key, token.secret
            )
            _set_header(headers, "Authorization", value)
            return
        client = quiet_client_class()(
            self.consumer.key,
            client_secret=self.consumer.secret,
            resource_owner_key=token.key or None,
            resource_owner_secret=token.secret,
            signature_method=self.signature_method,
            signature_type=_SIGNATURE_TYPE_AUTH_HEADER,
            realm=self.oauth_realm,
        )
        # Only a form-encoded body is signed (RFC 5849 3.4.1.3.1); other
        # bodies are not parameters and oauthlib must not see them.
        sign_body: str | None = None
        sign_headers: dict[str, str] = {}
        if is_form:
            sign_body = body.decode("utf-8") if isinstance(body, bytes) else body
            sign_headers["Content-Type"] = _FORM_MEDIA_TYPE
        _, signed, _ = client.sign(
            absolute_uri, http_method=method.upper(), body=sign_body, headers=sign_headers
        )
        _set_header(headers, "Authorization", signed["Authorization"])

    # Credentials files, in lazr.restfulclient's INI layout.

    def load(self, readable_file: IO[str]) -> None:
        """Replace the consumer and token with those read from an open file.

        The application name, realm and signature method are kept.
        """
        name = str(getattr(readable_file, "name", "<file>"))
        values = read_credentials(readable_file, name)
        application_name = self.consumer.application_name if self.consumer else None
        self.consumer = Consumer(
            values["consumer_key"], values["consumer_secret"], application_name
        )
        self.access_token = AccessToken(values["access_token"], values["access_secret"])
        self.credentials_source = None

    @classmethod
    def load_from_path(
        cls: type[_OAuthT],
        path: str | os.PathLike[str],
        *,
        oauth_realm: str = "OAuth",
        application_name: str | None = None,
        signature_method: str = SIGNATURE_PLAINTEXT,
    ) -> _OAuthT:
        """A new authorizer with the credentials stored at ``path``."""
        authorizer = cls(
            oauth_realm=oauth_realm,
            signature_method=signature_method,
        )
        path = _expanded(path)
        values = read_credentials_path(path, path)
        authorizer.consumer = Consumer(
            values["consumer_key"], values["consumer_secret"], application_name
        )
        authorizer.access_token = AccessToken(values["access_token"], values["access_secret"])
        return authorizer

    @classmethod
    def from_environment(
        cls: type[_OAuthT],
        variable: str = CREDENTIALS_VARIABLE,
        *,
        oauth_realm: str = "OAuth",
        application_name: str | None = None,
        signature_method: str = SIGNATURE_PLAINTEXT,
    ) -> _OAuthT | None:
        """A new authorizer with the credentials ``$WADLCLIENT_CREDENTIALS`` holds, or None.

        The variable holds a credentials file's content or its path (see
        `wadlclient.auth.environment`); unset or empty, the answer is None.
        """
        values = credentials_from_environment(variable)
        if values is None:
            return None
        authorizer = cls(oauth_realm=oauth_realm, signature_method=signature_method)
        authorizer.consumer = Consumer(
            values["consumer_key"], values["consumer_secret"], application_name
        )
        authorizer.access_token = AccessToken(values["access_token"], values["access_secret"])
        authorizer.credentials_source = f"${variable}"
        return authorizer

    def save(self, writable_file: IO[str]) -> None:
        """Write the consumer and token to an open file."""
        name = str(getattr(writable_file, "name", "<file>"))
        writable_file.write(self._credentials_text(name))

    def save_to_path(self, path: str | os.PathLike[str]) -> None:
        """Write the credentials to ``path``, mode 0600, replacing it atomically.

        The file is written beside the target and renamed over it, so a
        reader sees the old file or the new one, never half of either.
        """
        target = _expanded(path)
        write_private(target, self._credentials_text(target))

    def _credentials_text(self, name: str) -> str:
        if self.consumer is None:
            raise CredentialsFileError(f"cannot write credentials file {name}: no consumer")
        if self.access_token is None:
            raise CredentialsFileError(f"cannot write credentials file {name}: no access token")
        values = {
            "consumer_key": self.consumer.key,
            "consumer_secret": self.consumer.secret,
            "access_token": self.access_token.key,
            "access_secret": self.access_token.secret,
        }
        return credentials_text(values, name)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(consumer={self.consumer!r}, "
            f"access_token={self.access_token!r}, oauth_realm={self.oauth_realm!r}, "
            f"signature_method={self.signature_method!r})"
        )


def _expanded(path: str | os.PathLike[str]) -> str:
    """``path`` with ``~`` and environment variables expanded, as a shell would."""
    return os.path.expandvars(os.path.expanduser(os.fspath(path)))
