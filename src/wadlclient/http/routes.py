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

from collections.abc import Callable

from wadlclient.errors import TransportError
from wadlclient.http.models import Request
from wadlclient.in_force import HookInForce

__all__ = ["RequestRoute", "RouteRefused", "request_routes", "routed"]

#: ``route(url)``: the URL to send to instead, or None to leave it; raises `RouteRefused`.
RequestRoute = Callable[[str], "str | None"]


class RouteRefused(TransportError):
    """A route in force refused to let this request out (the message says whose and why)."""


class request_routes(HookInForce[RequestRoute]):
    """Within the ``with`` block, every request asks ``route`` where it goes."""


def routed(request: Request) -> Request:
    """``request`` sent where the routes in force say (itself when none has a say)."""
    for route in request_routes.in_force():
        url = route(request.url)
        if url is not None:
            return Request(request.method, url, request.headers, request.body)
    return request
