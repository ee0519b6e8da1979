"""What may be shown of a URL: the one rule of what looks like a secret, for logs and errors.

A URL reaches DEBUG lines, error messages and reprs as the client sent
it, and a URL may carry a secret: a password in its user information, or a
capability in its query (Launchpad's ``temporary_blobs.fetch(token=...)``
is a GET). `shown_url` hides both; `secret_name` is the rule of which
names hold secrets, which the testing kit's recorder applies too.

A server may also send back what it was sent: a 401 quoting the request's
``Authorization``, a 400 echoing a password. The client knows every
credential it holds, so it remembers them (`hold`, `hold_sent`: the
pipeline does, for what each authorizer names and sends) and `redacted`
hides each of them, in its usual encodings, wherever a server's words are
quoted: error messages, ``str``/``repr`` of errors and reports, saved
reports, pickled errors, the CLI's error lines.
"""

from __future__ import annotations

import collections
import functools
import re
import threading
from collections.abc import Iterable, Mapping

__all__ = [
    "HIDDEN",
    "forget",
    "hold",
    "hold_sent",
    "redacted",
    "redacted_bytes",
    "secret_name",
    "shown_url",
]

#: What stands in a shown URL for a value it hides.
HIDDEN = "<hidden>"
_ENDINGS = ("password", "passwd", "passphrase", "secret", "token", "key", "signature", "verifier")
_ANYWHERE = ("password", "passwd", "secret")
# Compiled on first use: ``import wadlclient`` imports this module, and most runs never ask.
_PATTERNS = {
    "words": r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+",
    "query_pair": r"(?<=[?&;])([^=&;#]+)=([^&;#]*)",
    "userinfo": r"^([a-zA-Z][\w+.-]*://[^/@?#:]*):[^/@?#]*@",
    "not_alphanumeric": r"[^a-z0-9]",
}


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[name])


@functools.lru_cache(maxsize=4096)  # a recording asks of the same few names again and again
def secret_name(name: str) -> bool:
    """Whether a field, parameter or header called ``name`` holds a secret.

    Its last word (``client_secret``, ``x-api-key``, ``apiKey``,
    ``oauth_token``, ``Password``) ends in a secret's word, or the name
    holds ``password``, ``passwd`` or ``secret`` anywhere. A lazr link
    (``..._link``) is a URL, never a secret itself; ``keys`` and
    ``tokens`` name collections, not secrets.
    """
    lowered = name.lower()
    if lowered.endswith("_link"):
        return False
    squashed = _pattern("not_alphanumeric").sub("", lowered)
    if any(word in squashed for word in _ANYWHERE):
        return True
    words = _pattern("words").findall(name)
    return bool(words) and words[-1].lower().endswith(_ENDINGS)


def shown_url(url: str) -> str:
    """``url`` with its password and the values of query parameters named like secrets hidden."""
    if "@" in url:
        url = _pattern("userinfo").sub(lambda m: f"{m.group(1)}:{HIDDEN}@", url, count=1)
    if "?" in url and "=" in url:
        url = _pattern("query_pair").sub(_shown_pair, url)
    return url


def _shown_pair(match: re.Match[str]) -> str:
    from urllib.parse import unquote_plus  # see `_forms_of`

    name = match.group(1)
    return f"{name}={HIDDEN}" if secret_name(unquote_plus(name)) else match.group(0)


#: Secrets shorter than this are not searched for: they would hide common words.
SHORTEST_SECRET = 4
#: At most this many secrets are held (the oldest go first): a long run's renewed tokens.
_HELD_LIMIT = 256
_CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})
_held: dict[str, None] = {}  # insertion-ordered
#: The credential values of the last few requests that change with every request (OAuth's
#: header, an HMAC signature), in their forms: enough for every request still in flight.
_recent: collections.deque[str] = collections.deque(maxlen=4 * 64)
_held_lock = threading.Lock()
#: The pattern of the secrets held, for text and for bytes, and the `_version` each is of.
_compiled_text: tuple[int, re.Pattern[str] | None] = (-1, None)
_compiled_data: tuple[int, re.Pattern[bytes] | None] = (-1, None)
#: Up to this much searching (secrets' forms times characters), a text is searched for each
#: form before a pattern is compiled: compiling one costs ~5 ms for twenty forms, and the
#: held secrets change with every OAuth request, while most texts quote none of them.
_SCAN_LIMIT = 1 << 20
_version = 0
_last_sent: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def _forms_of(secret: str) -> tuple[str, ...]:
    """The ways ``secret`` may come back: as it is, URL-encoded, JSON-escaped."""
    # Imported here: ``import wadlclient`` imports this module (with the errors), and
    # urllib.parse (with ipaddress) costs milliseconds a start may not need.
    import json
    from urllib.parse import quote, quote_plus

    forms = {secret, quote(secret, safe=""), quote_plus(secret), json.dumps(secret)[1:-1]}
    return tuple(form for form in forms if len(form) >= SHORTEST_SECRET)


_forms = functools.lru_cache(maxsize=512)(_forms_of)  # the same few secrets, held again and again


def hold(secrets: Iterable[str]) -> None:
    """Remember ``secrets`` (credential values this process holds) so `redacted` hides them.

    Held again, a secret counts as the newest: the oldest go past the limit.
    """
    global _version
    forms = [
        form
        for secret in secrets
        if isinstance(secret, str) and len(secret) >= SHORTEST_SECRET
        for form in _forms(secret)
    ]
    if not forms:
        return
    with _held_lock:
        added = False
        for form in forms:
            added = added or form not in _held
            _held.pop(form, None)
            _held[form] = None
        while len(_held) > _HELD_LIMIT:
            del _held[next(iter(_held))]
        if added:
            _version += 1


def _pieces(value: str) -> tuple[list[str], list[str]]:
    """A credential header's secret parts: those it sends every time, and this request's own.

    An OAuth header is new on every request (its nonce and timestamp), and so
    is a signature that digests the request (HMAC): they are this request's
    own, held among the last few requests' (`_recent`) so that they never
    push out a secret held for good. Its token and a PLAINTEXT signature
    (the secrets themselves) are sent every time.
    """
    scheme, _, rest = value.strip().partition(" ")
    rest = rest.strip()
    if not rest:
        return [value], []
    from urllib.parse import unquote  # see `_forms_of`

    params = re.findall(r'([\w.-]+)\s*=\s*"?([^",]*)"?', rest)
    method = next((v for n, v in params if n.lower() == "oauth_signature_method"), "PLAINTEXT")
    stable, own = ([], [value, rest]) if scheme.lower() == "oauth" else ([value, rest], [])
    for name, quoted in params:
        lowered = name.lower()
        if secret_name(name) and not lowered.endswith(("consumer_key", "_realm")):
            digest = lowered == "oauth_signature" and method.upper() != "PLAINTEXT"
            (own if digest else stable).extend((quoted, unquote(quoted)))
    return stable, own


def _hold_recent(values: Iterable[str]) -> None:
    """Remember this request's own credential values among the last few requests'."""
    global _version
    forms = [form for value in values if len(value) >= SHORTEST_SECRET for form in _forms_of(value)]
    if forms:
        with _held_lock:
            _recent.extend(forms)
            _version += 1


def hold_sent(headers: Mapping[str, str], secrets: Iterable[str] = ()) -> None:
    """Remember the credential headers of a request about to be sent, and ``secrets``.

    ``secrets``: what an authorizer names (`credential_secrets`).
    """
    global _last_sent
    named = tuple(secrets)
    if named and all(len(secret) < SHORTEST_SECRET for secret in named):
        return  # an authorizer that names its secrets, all empty: anonymous, nothing to hide
    # Names first: only a credential's value is looked up (most headers are not).
    sent = tuple(
        str(headers[name])
        for name in headers
        if name.lower() in _CREDENTIAL_HEADERS or secret_name(name)
    )
    if (named, sent) == _last_sent:  # the same credentials as the last request: held already
        return
    pieces = [_pieces(value) for value in sent]
    stable = [piece for held, _ in pieces for piece in held if len(piece) >= SHORTEST_SECRET]
    hold([*named, *stable])
    if stable:  # an anonymous OAuth header (no token, no secret) holds nothing to hide
        _hold_recent(piece for _, own in pieces for piece in own)
    _last_sent = (named, sent)


def _held_forms() -> tuple[int, list[str]]:
    """The version of what is held, and every form held, the longest first ("a&b" before "b")."""
    with _held_lock:
        return _version, sorted({*_held, *_recent}, key=len, reverse=True)


def _text_pattern(text: str) -> re.Pattern[str] | None:
    """The pattern of the secrets held, or None when ``text`` holds none of them."""
    global _compiled_text
    version, pattern = _compiled_text
    if version == _version:
        return pattern
    version, forms = _held_forms()
    if len(forms) * len(text) <= _SCAN_LIMIT and not any(form in text for form in forms):
        return None
    pattern = re.compile("|".join(re.escape(form) for form in forms)) if forms else None
    _compiled_text = (version, pattern)
    return pattern


def _data_pattern(data: bytes) -> re.Pattern[bytes] | None:
    """The pattern of the secrets held, or None when ``data`` holds none of them."""
    global _compiled_data
    version, pattern = _compiled_data
    if version == _version:
        return pattern
    version, held = _held_forms()
    forms = [form.encode("utf-8") for form in held]
    if len(forms) * len(data) <= _SCAN_LIMIT and not any(form in data for form in forms):
        return None
    pattern = re.compile(b"|".join(re.escape(form) for form in forms)) if forms else None
    _compiled_data = (version, pattern)
    return pattern


def forget() -> None:
    """Forget every secret held: after a logout, or between tests that each hold their own.

    Held secrets are the process's: a password such as ``secret``, held by
    one test, would hide that word in every later message of the process.
    """
    global _version, _last_sent
    with _held_lock:
        _held.clear()
        _recent.clear()
        _last_sent = ((), ())
        _version += 1


def redacted(text: str) -> str:
    """``text`` with every credential value held (`hold`) replaced by `HIDDEN`."""
    pattern = _text_pattern(text)
    return text if pattern is None else pattern.sub(HIDDEN, text)


def redacted_bytes(data: bytes) -> bytes:
    """``data`` (a body) with every credential value held replaced by `HIDDEN`."""
    pattern = _data_pattern(data)
    return data if pattern is None else pattern.sub(HIDDEN.encode("ascii"), data)
