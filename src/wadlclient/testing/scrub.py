"""What a recording must not keep: values named like secrets, and the credentials themselves.

Two rules, applied to requests and answers alike (URLs, headers, JSON,
form and text bodies):

- **by name**: a field, form value, query parameter or header whose name
  looks like a secret (`wadlclient.redact.secret_name`: ``password``, ``passwd``,
  ``secret``, ``token``, ``key``, ``signature`` and their compounds, any
  case) has its whole value replaced by ``<scrubbed>``, whatever its
  characters or JSON type. Names end a JSON key or a ``name=`` (also
  written ``name%3D`` or ``name%3d`` inside another encoded value).
- **by value**: any value equal to a credential the scrubber holds (the
  authorizer's secrets, the token, a Basic password, learnt from the
  ``Authorization`` header as it crosses) is replaced wherever it appears;
  a credential shorter than `MIN_SUBSTRING` only where it is a whole value,
  so that a short secret does not scrub the letters of every word.

Scrubbing by name is deterministic: a replay scrubs its requests the same
way before matching them with the recording. Scrubbing by value depends on
the credentials of the session, so the recording's ``<scrubbed>`` in a URL
or body matches anything on replay.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

from wadlclient.redact import secret_name

__all__ = ["MIN_SUBSTRING", "SCRUBBED", "Scrubber", "credentials_of", "secret_name"]

SCRUBBED = "<scrubbed>"
#: The shortest credential replaced inside longer text, not only as a whole value.
MIN_SUBSTRING = 8

_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})

# name=value: the name follows a separator, raw or percent-encoded once or twice (a URL
# inside a query value); the value runs to the separator of its own level of encoding, so
# "password=a%26b" is one value, and "next=...%3Fpassword%3Dx" holds a pair of its own.
_PAIR = re.compile(
    r"(?:(?<=%26)|(?<=%3[fF])|(?<=%2526)|(?<=%253[fF])|(?<![\w.-]))([\w.-]+)"
    r"(?:(=)((?:<scrubbed>|[^&\s\"'<>#])*)"
    r"|(%3[dD])((?:<scrubbed>|(?!%26)[^&\s\"'<>#])*)"
    r"|(%253[dD])((?:<scrubbed>|(?!%2526)[^&\s\"'<>#])*))"
)
# "name": value, in text that is not JSON as a whole (a log line, an HTML page, a fragment).
_QUOTED_NAME = re.compile(r'"((?:[^"\\]|\\.){1,200})"\s*:\s*')
_USERINFO = re.compile(r"(\b[a-zA-Z][\w+.-]*://[^/\s:@]*:)[^/\s@]*@")
_DECODER = json.JSONDecoder()


def credentials_of(authorizer: object) -> list[str]:
    """The secrets an authorizer holds: consumer secret, token and its secret, Basic password.

    Duck-typed: wadlclient's authorizers, lazr.restfulclient's and
    launchpadlib's ``Credentials`` all keep them under these names.
    """
    consumer = getattr(authorizer, "consumer", None)
    token = getattr(authorizer, "access_token", None)
    found = [
        getattr(consumer, "secret", None),
        getattr(token, "key", None),
        getattr(token, "secret", None),
        getattr(authorizer, "password", None),
    ]
    return [value for value in found if isinstance(value, str) and value]


class Scrubber:
    """Scrubs by name, and by the credentials it holds (none: by name only, as a replay does)."""

    def __init__(self, credentials: Iterable[str] = ()) -> None:
        self._whole: set[str] = set()
        self._inside: list[str] = []
        self.hold(*credentials)

    def hold(self, *credentials: str) -> None:
        """Scrub these values from now on (empty ones are ignored)."""
        for value in credentials:
            if not value or value in self._whole:
                continue
            self._whole.add(value)
            if len(value) >= MIN_SUBSTRING:
                forms = {value, quote(value, safe=""), quote_plus(value, safe="")}
                forms |= {_lower_escapes(form) for form in forms}
                forms.add(json.dumps(value)[1:-1])
                self._inside = sorted(set(self._inside) | forms, key=len, reverse=True)

    def learn(self, headers: Mapping[str, str]) -> None:
        """Hold the credentials an ``Authorization`` (or proxy's) header carries.

        Basic: the password (and the encoded pair). OAuth: the token, and
        both secrets when the signature is PLAINTEXT (``consumer&token``).
        """
        for name in ("authorization", "proxy-authorization"):
            value = headers.get(name)
            if value:
                self.hold(*_header_credentials(value))

    # -- by kind of text ------------------------------------------------------------------

    def url(self, url: str) -> str:
        """A URL with its password, secret-named query values and credentials scrubbed."""
        return self.text(_USERINFO.sub(lambda m: m.group(1) + SCRUBBED + "@", url))

    def headers(self, headers: Iterable[tuple[str, str]]) -> dict[str, str]:
        """Credential-bearing and secret-named headers whole; the others as text (URLs too)."""
        return {
            name: SCRUBBED
            if name.lower() in _SECRET_HEADERS or secret_name(name)
            else self.url(value)
            for name, value in headers
        }

    def text(self, text: str) -> str:
        """Free text, a URL or a form body: ``name=value`` pairs, ``"name": value``, credentials."""
        if "=" in text or "%3" in text or "%25" in text:
            text = _PAIR.sub(self._pair, text)
        if '"' in text and ":" in text:
            text = self._quoted_fields(text)
        return self._credentials(text)

    def body(self, text: str, media_type: str, *, secret_answer: bool = False) -> str:
        """A body's text: JSON field by field, anything else as `text`.

        ``secret_answer``: the answer of an operation named like a secret
        (``issueAccessToken``): a bare JSON value is scrubbed whole.
        """
        stripped = text.lstrip()
        if "json" in media_type or stripped[:1] in ("{", "[", '"'):
            try:
                document = json.loads(text)
            except (ValueError, RecursionError):
                return self.text(text)
            if secret_answer and not isinstance(document, dict | list):
                return json.dumps(SCRUBBED)
            scrubbed = self.json(document)
            return text if scrubbed == document else json.dumps(scrubbed, ensure_ascii=False)
        return self.text(text)

    def json(self, value: Any) -> Any:
        """A JSON value with secret-named fields replaced whole and its strings scrubbed."""
        if isinstance(value, dict):
            return {
                key: SCRUBBED if secret_name(key) else self.json(item)
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, str):
            return SCRUBBED if value in self._whole else self.url(value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return SCRUBBED if str(value) in self._whole else value
        return value

    # -- the pieces -----------------------------------------------------------------------

    def _pair(self, match: re.Match[str]) -> str:
        name = match.group(1)
        equals, value = next(
            (match.group(i), match.group(i + 1)) for i in (2, 4, 6) if match.group(i) is not None
        )
        if secret_name(unquote(name)) or unquote_plus(value) in self._whole:
            return f"{name}{equals}{SCRUBBED}"
        return f"{name}{equals}{_PAIR.sub(self._pair, value)}"  # a URL in the value has pairs

    def _quoted_fields(self, text: str) -> str:
        """``"name": value`` with a secret name: the whole JSON value after it, whatever it is."""
        parts: list[str] = []
        position = 0
        for match in _QUOTED_NAME.finditer(text):
            if match.start() < position or not secret_name(match.group(1)):
                continue
            start = match.end()
            try:
                end = _DECODER.raw_decode(text, start)[1]
            except (ValueError, RecursionError):
                end = _value_end(text, start)
            parts += [text[position:start], json.dumps(SCRUBBED)]
            position = end
        return "".join(parts) + text[position:] if parts else text

    def values(self, data: bytes) -> bytes:
        """``data`` with only the credentials held scrubbed (a service description)."""
        for form in self._inside:
            encoded = form.encode("utf-8")
            if encoded in data:
                data = data.replace(encoded, SCRUBBED.encode("ascii"))
        return data

    def _credentials(self, text: str) -> str:
        if text in self._whole:
            return SCRUBBED
        for form in self._inside:
            if form in text:
                text = text.replace(form, SCRUBBED)
        return text


def _value_end(text: str, start: int) -> int:
    """Where an unparsable JSON value ends: a quoted string's closing quote, else , } ] or EOL."""
    if text.startswith('"', start):
        closing = re.compile(r'"(?:[^"\\]|\\.)*"?').match(text, start)
        return closing.end() if closing else len(text)
    stop = re.compile(r"[,}\]\n]").search(text, start)
    return stop.start() if stop else len(text)


def _lower_escapes(text: str) -> str:
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), text)


def _header_credentials(value: str) -> list[str]:
    scheme, _, rest = value.strip().partition(" ")
    scheme = scheme.lower()
    if scheme == "basic":
        try:
            pair = base64.b64decode(rest.strip(), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            return [rest.strip()]
        return [rest.strip(), pair.partition(":")[2]]
    if scheme == "bearer":
        return [rest.strip()]
    if scheme != "oauth":
        return []
    params = {
        key.lower(): unquote(found) for key, found in re.findall(r'([\w.-]+)\s*=\s*"([^"]*)"', rest)
    }
    found = [params.get("oauth_token", "")]
    if params.get("oauth_signature_method", "").upper() == "PLAINTEXT":
        signature = params.get("oauth_signature", "")
        consumer_secret, _, token_secret = signature.partition("&")
        found += [unquote(consumer_secret), unquote(token_secret)]
    return found
