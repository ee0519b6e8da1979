"""Finding 2: paging always advances, and a timeout bounds a whole answer and a whole call."""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import parse_qs

import pytest
from tests.hostile.server import Exchange, HostileServer, recipe

from wadlclient import ServiceRoot
from wadlclient.errors import ResponseError, ServerError, TransportTimeout
from wadlclient.http import Transport
from wadlclient.objects import paging

#: A hostile chain is cut here by the server itself, so that today's code ends (wrongly) too.
SERVER_GIVES_UP_AFTER = 60


def _start(exchange: Exchange) -> int:
    return int(parse_qs(exchange.hit.query).get("ws.start", ["0"])[0])


def _self_pointing(hostile: HostileServer) -> Callable[[Exchange], None]:
    """Every page links to itself (until the server gives up)."""

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        done = hostile.count("/1.0/recipes") > SERVER_GIVES_UP_AFTER
        document: dict[str, object] = {"entries": [recipe(url + "/1", 1)], "start": 0}
        if not done:
            document["next_collection_link"] = url + "?ws.start=0&ws.size=1"
        exchange.json(document)

    return serve


def _endless(
    hostile: HostileServer, per_page: int, total: int | None = None
) -> Callable[[Exchange], None]:
    """Pages of ``per_page`` entries with ever new next links, claiming ``total`` if given."""

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        start = _start(exchange)
        document: dict[str, object] = {
            "entries": [recipe(f"{url}/{n}", n) for n in range(start, start + per_page)],
            "start": start,
        }
        if total is not None:
            document["total_size"] = total
        if hostile.count("/1.0/recipes") <= SERVER_GIVES_UP_AFTER:
            document["next_collection_link"] = f"{url}?ws.start={start + max(per_page, 1)}"
        exchange.json(document)

    return serve


def test_iteration_ends_with_an_error_on_a_page_that_links_to_itself(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _self_pointing(hostile)

    with pytest.raises(ResponseError, match="loop"):
        list(root.recipes)


def test_len_ends_with_an_error_on_a_page_that_links_to_itself(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _self_pointing(hostile)

    with pytest.raises(ResponseError, match="loop"):
        len(root.recipes)


def test_len_of_a_chain_without_total_size_is_bounded(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paging, "MAX_PAGES", 20)
    root = make_root()
    hostile.routes["/1.0/recipes"] = _endless(hostile, per_page=1)

    with pytest.raises(ResponseError, match="more pages"):
        len(root.recipes)
    assert hostile.count("/1.0/recipes") < SERVER_GIVES_UP_AFTER


@pytest.mark.parametrize("key", [3, slice(0, 5)], ids=["index", "slice"])
def test_empty_pages_that_advance_are_followed_up_to_the_page_bound(
    hostile: HostileServer,
    make_root: Callable[..., ServiceRoot],
    monkeypatch: pytest.MonkeyPatch,
    key: object,
) -> None:
    monkeypatch.setattr(paging, "MAX_PAGES", 20)
    root = make_root()
    hostile.routes["/1.0/recipes"] = _endless(hostile, per_page=0)

    with pytest.raises(ResponseError, match="more pages"):
        root.recipes[key]
    assert hostile.count("/1.0/recipes") == 21


def test_an_empty_page_whose_next_link_does_not_advance_is_a_loop(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        exchange.json({"entries": [], "start": 2, "next_collection_link": f"{url}?ws.start=2"})

    hostile.routes["/1.0/recipes"] = serve

    with pytest.raises(ResponseError, match="loop"):
        root.recipes[2:4]
    assert hostile.count("/1.0/recipes") == 1


def _filtered(hostile: HostileServer, hidden: set[int], total: int) -> Callable[[Exchange], None]:
    """Pages of two positions, the ``hidden`` ones dropped after cutting (as lazr.restful does)."""

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        start = _start(exchange)
        size = int(parse_qs(exchange.hit.query).get("ws.size", ["2"])[0])
        positions = range(start, min(start + size, total))
        document: dict[str, object] = {
            "entries": [recipe(f"{url}/{n}", n) for n in positions if n not in hidden],
            "start": start,
            "total_size": total,
        }
        if start + size < total:
            document["next_collection_link"] = f"{url}?ws.start={start + size}&ws.size={size}"
        exchange.json(document)

    return serve


def test_pages_filtered_after_cutting_are_walked_and_sliced_from_the_servers_positions(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _filtered(hostile, hidden={2, 3, 5}, total=8)

    assert [r.id for r in root.recipes] == [0, 1, 4, 6, 7]
    assert len(root.recipes) == 8
    # From position 2, two entries the caller may see: the empty page is followed.
    assert [r.id for r in root.recipes[2:4]] == [4, 6]
    assert root.recipes[3].id == 4


def test_more_pages_than_the_announced_total_end_a_walk(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _endless(hostile, per_page=1, total=3)

    with pytest.raises(ResponseError, match="more pages"):
        list(root.recipes)


def test_a_dripping_answer_ends_at_the_read_timeout(hostile: HostileServer) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n"
    hostile.routes["/drip"] = lambda ex: ex.drip(head + b'"' + b"x" * 38 + b'"', every=0.1)

    started = time.monotonic()
    with Transport(timeout=0.5, max_retries=0) as transport, pytest.raises(TransportTimeout):
        transport.request("GET", hostile.url + "/drip")

    assert time.monotonic() - started < 6  # each byte within 0.5 s: all of them take 12 s


def test_retries_stop_at_the_deadline_of_the_call(hostile: HostileServer) -> None:
    hostile.routes["/busy"] = lambda ex: ex.send(503, b"busy", [("Retry-After", "1")])

    started = time.monotonic()
    # The last attempt is sent with what is left of the deadline (0.8 s): on a
    # loaded machine its answer can come later than that, and the call ends
    # with the timeout instead of the 503. Either way it ends at the deadline.
    with (
        Transport(deadline=1.8, max_retries=10) as transport,
        pytest.raises((ServerError, TransportTimeout)),
    ):
        transport.request("GET", hostile.url + "/busy")

    assert time.monotonic() - started < 5.5  # ten retries a second apart would take 10 s
    assert 2 <= hostile.count("/busy") <= 3
