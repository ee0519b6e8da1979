"""One keep-alive connection's parts: its route, the request head, the dead-socket check, TLS."""

from __future__ import annotations

import base64
import http.client
import os
import re
import select
import socket
import ssl
import threading
import urllib.parse
from typing import cast

from wadlclient.errors import TransportError
from wadlclient.http.urls import Origin

__all__ = [
    "Connection",
    "PlainConnection",
    "Route",
    "Verify",
    "check_verify",
    "is_dropped",
    "make_route",
    "request_head",
    "tls_context",
]

Connection = http.client.HTTPConnection


class PlainConnection(http.client.HTTPConnection):
    """A direct plain-HTTP connection that resolves an ASCII host as bytes.

    Given a str, ``getaddrinfo`` encodes the host with the "idna" codec, and
    importing that codec is a large part of a first request's cost.
    """

    def connect(self) -> None:
        host: str | bytes = self.host.encode("ascii") if self.host.isascii() else self.host
        # getaddrinfo, which create_connection calls, takes bytes too; typeshed says str.
        self.sock = socket.create_connection((cast(str, host), self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_UNSAFE_IN_VALUE = re.compile(rb"[\r\n\x00]")


class Route:
    """How to reach one origin: where the socket goes and what the request line says.

    Made once per origin, never changed, and compared by identity: it keys
    that origin's idle stack.
    """

    __slots__ = ("absolute_form", "host", "port", "proxy_headers", "tls", "tunnel")

    def __init__(
        self,
        tls: bool,
        host: str,
        port: int,
        absolute_form: bool,
        tunnel: tuple[str, int] | None,
        proxy_headers: dict[str, str],
    ) -> None:
        self.tls = tls
        self.host = host  # the origin, or the proxy
        self.port = port
        self.absolute_form = absolute_form  # plain HTTP via a proxy: the URL in the request line
        self.tunnel = tunnel  # HTTPS through a proxy: CONNECT to this
        self.proxy_headers = proxy_headers

    def __repr__(self) -> str:
        return f"<Route {'https' if self.tls else 'http'} {self.host}:{self.port}>"


def make_route(origin: Origin, proxy: str | None) -> Route:
    """The route to ``origin``: direct, or through an ``http://`` proxy (maybe with credentials)."""
    scheme, host, port = origin
    tls = scheme == "https"
    if proxy is None:
        return Route(tls, host, port, False, None, {})
    parsed = urllib.parse.urlsplit(proxy)
    headers: dict[str, str] = {}
    if parsed.username is not None:
        user = urllib.parse.unquote(parsed.username)
        password = urllib.parse.unquote(parsed.password or "")
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        headers["Proxy-Authorization"] = f"Basic {token}"
    proxy_host, proxy_port = parsed.hostname or "", parsed.port or 80
    if tls:
        return Route(True, proxy_host, proxy_port, False, (host, port), headers)
    return Route(False, proxy_host, proxy_port, True, None, headers)


def request_head(method: str, target: str, headers: list[tuple[str, str]], route: Route) -> bytes:
    """The request line and header block, refusing anything that could split it.

    All names, then all values, are checked at once (rather than each
    header with two regular expressions, as http.client's ``putheader``
    does); the same injections are refused: CR, LF, NUL, a name that is not
    a token. Values go out as Latin-1, as http.client sends them.
    """
    pairs = list(headers)
    if route.absolute_form:
        pairs += route.proxy_headers.items()
    try:
        line = f"{method} {target} HTTP/1.1".encode("ascii")
        encoded = [(name.encode("ascii"), value.encode("latin-1")) for name, value in pairs]
    except UnicodeEncodeError as error:
        raise TransportError(f"a header or the URL cannot be sent as bytes: {error}") from error
    if not all(_TOKEN.fullmatch(name) for name, _ in encoded) or not _TOKEN.fullmatch(
        line.partition(b" ")[0]
    ):
        raise TransportError("invalid header name or method")
    lines = [line] + [name + b": " + value for name, value in encoded]
    if _UNSAFE_IN_VALUE.search(b"".join(lines)) or " " in target:
        raise TransportError("a header value or the URL contains CR, LF or NUL")
    return b"\r\n".join(lines) + b"\r\n\r\n"


def is_dropped(connection: Connection) -> bool:
    """Whether an idle connection was closed by its server (readable means EOF or junk)."""
    sock = connection.sock
    if sock is None:
        return True
    try:
        if hasattr(select, "poll"):  # select() refuses descriptors above FD_SETSIZE
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


_tls_context_lock = threading.Lock()
_tls_context: ssl.SSLContext | None = None


#: How https certificates are checked: True (the system's trust store), a CA
#: bundle file or directory, an ``ssl.SSLContext``, or False (not at all).
Verify = bool | str | os.PathLike[str] | ssl.SSLContext


def tls_context(verify: Verify = True) -> ssl.SSLContext:
    """The TLS context ``verify`` asks for; for True, one per process (loading CAs is slow).

    True: the system's trust store (``SSL_CERT_FILE`` and ``SSL_CERT_DIR``
    honoured). A path: that CA bundle (a file) or directory of CA
    certificates, instead. A context: itself. False: no check at all.
    """
    if isinstance(verify, ssl.SSLContext):
        return verify
    if verify is False:
        unchecked = ssl.create_default_context()
        unchecked.check_hostname = False
        unchecked.verify_mode = ssl.CERT_NONE
        return unchecked
    if verify is not True:
        path = os.fspath(verify)
        if os.path.isdir(path):
            return ssl.create_default_context(capath=path)
        return ssl.create_default_context(cafile=path)
    global _tls_context
    with _tls_context_lock:
        if _tls_context is None:
            _tls_context = ssl.create_default_context()
        return _tls_context


def check_verify(verify: object) -> None:
    """Refuse a ``verify`` that cannot work, naming it, before any request is made."""
    if isinstance(verify, (bool, ssl.SSLContext)):
        return
    if not isinstance(verify, (str, os.PathLike)):
        raise TypeError(
            "verify must be True, False, a CA bundle path or an ssl.SSLContext, "
            f"not {type(verify).__name__}"
        )
    if not os.path.exists(verify):
        raise ValueError(f"verify: no CA bundle at {os.fspath(verify)!r}")
