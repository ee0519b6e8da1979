"""Finding 1: credentials only ever go to the service root's origin (scheme, host, port)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.hostile.server import Exchange, HostileServer, recipe

from wadlclient import BasicHttpAuthorizer, ServiceRoot
from wadlclient.errors import ResponseError
from wadlclient.headers import Headers
from wadlclient.http import Request, Response, Timeout, Transport


def _authorized(hits: list, origin: str) -> list[bool]:
    return ["authorization" in hit.headers for hit in hits if hit.origin == origin]


def test_a_next_link_to_another_origin_gets_no_credentials(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    other_page = hostile.other_url + "/1.0/recipes"
    root = make_root(BasicHttpAuthorizer("ada", "secret"))
    hostile.routes["/1.0/recipes"] = _page_then(hostile, other_page)

    assert len(list(root.recipes)) == 2

    assert all(_authorized(hostile.journal(), hostile.url))
    elsewhere = _authorized(hostile.journal(), hostile.other_url)
    assert elsewhere and not any(elsewhere)


def _page_then(hostile: HostileServer, other_page: str) -> Callable[[Exchange], None]:
    """The collection's first page on the root's origin, its second page on the other origin."""

    def serve(exchange: Exchange) -> None:
        if exchange.hit.origin == hostile.url:
            exchange.json(
                {
                    "entries": [recipe(hostile.url + "/1.0/recipes/1", 1)],
                    "next_collection_link": other_page + "?ws.start=1",
                }
            )
        else:
            exchange.json({"entries": [recipe(hostile.other_url + "/1.0/recipes/2", 2)]})

    return serve


def test_lp_save_to_a_self_link_on_another_origin_gets_no_credentials(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    elsewhere = hostile.other_url + "/1.0/recipes/7"
    hostile.routes["/1.0/recipes/7"] = lambda ex: (
        ex.json(recipe(elsewhere, 7)) if ex.hit.method == "GET" else ex.send(209, b"{}")
    )
    root = make_root(BasicHttpAuthorizer("ada", "secret"))
    entry = root.load(hostile.url + "/1.0/recipes/7")
    entry.instructions = "stir"

    entry.lp_save()

    patches = [hit for hit in hostile.journal() if hit.method == "PATCH"]
    assert [hit.origin for hit in patches] == [hostile.other_url]
    assert "authorization" not in patches[0].headers


def test_load_of_a_url_on_another_origin_gets_no_credentials(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    hostile.routes["/1.0/recipes/3"] = lambda ex: ex.json(recipe(ex.hit.origin + ex.hit.path, 3))
    root = make_root(BasicHttpAuthorizer("ada", "secret"))

    root.load(hostile.other_url + "/1.0/recipes/3")

    assert _authorized(hostile.journal(), hostile.other_url) == [False]
    assert all(_authorized(hostile.journal(), hostile.url))


class _HttpsThenHttp:
    """A sender playing an https server that redirects to http.

    A mock, since no loopback https server is trusted by the transport's
    system trust store; the redirect rule itself is what is tested.
    """

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, request: Request, *, timeout: Timeout) -> Response:
        self.sent.append(request.url)
        headers = Headers([("Location", "http://127.0.0.1:9/plain")])
        return Response(302, "Found", headers, b"", request.url)

    def close(self) -> None:
        return None


def test_an_https_to_http_redirect_is_refused_unless_allowed() -> None:
    sender = _HttpsThenHttp()
    transport = Transport(sender=sender, max_retries=0)

    with pytest.raises(ResponseError, match="from https to http"):
        transport.request("GET", "https://example.test/secure")

    assert sender.sent == ["https://example.test/secure"]


def test_a_redirect_to_a_file_url_is_a_response_error(hostile: HostileServer) -> None:
    hostile.routes["/to-file"] = lambda ex: ex.send(
        302, headers=[("Location", "file:///etc/passwd")]
    )
    with Transport(max_retries=0) as transport, pytest.raises(ResponseError, match="file:///etc"):
        transport.request("GET", hostile.url + "/to-file")
