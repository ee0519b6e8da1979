"""Request routes: where every request for one address really goes, or why it may not go.

The testing kit's `wadlclient.testing.routed_to` enters one so that, in
its block, no request for the faked service leaves the machine: a service
root's start moves to the fake (`wadlclient.objects.addresses`), but a
program may also load an absolute URL or follow a link that names the real
host in another spelling. Each route is asked for every request the
pipeline puts on the wire (every redirect hop, and a first attempt started
early), before any connection is opened or any name looked up.

``route(url)`` answers the URL to send to instead, None to leave the
request alone, or raises `RouteRefused` to refuse it. Routes apply to the
whole process (the code under test may send from any thread); the latest
entered is asked first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType

from wadlclient.errors import TransportError
from wadlclient.http.models import Request

__all__ = ["RequestRoute", "RouteRefused", "request_routes", "routed"]

#: ``route(url)``: the URL to send to instead, or None to leave it; raises `RouteRefused`.
RequestRoute = Callable[[str], "str | None"]

_entered: list[request_routes] = []
_lock = threading.Lock()


class RouteRefused(TransportError):
    """A route in force refused to let this request out (the message says whose and why)."""


class request_routes:
    """Within the ``with`` block, every request asks ``route`` where it goes."""

    def __init__(self, route: RequestRoute) -> None:
        self._route = route

    def __enter__(self) -> RequestRoute:
        with _lock:
            _entered.append(self)
        return self._route

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with _lock:
            _entered[:] = [entered for entered in _entered if entered is not self]


def routed(request: Request) -> Request:
    """``request`` sent where the routes in force say (itself when none has a say)."""
    if not _entered:
        return request
    with _lock:
        entered = list(reversed(_entered))
    for each in entered:
        url = each._route(request.url)
        if url is not None:
            return Request(request.method, url, request.headers, request.body)
    return request
