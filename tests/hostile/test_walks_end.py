"""Every walk ends: its requests are bounded by the pages it has moved forward by (issue 40, 3).

A server can keep a walk asking without ever letting it go further: a
next link that keeps naming the same offset between the walk's re-reads,
or windows that always hold entries never seen. Each server here gives
up on its own after `SERVER_GIVES_UP_AFTER` requests, so that a walk
without the bound ends too (wrongly, and the test says so); with it, the
walk ends long before, with one error naming the collection.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from urllib.parse import parse_qs

import pytest
from tests.hostile.server import Exchange, HostileServer, recipe

from wadlclient import ServiceRoot
from wadlclient.errors import ResponseError
from wadlclient.objects import budget

#: A hostile server stops sending next links here: far past what a bounded walk sends.
SERVER_GIVES_UP_AFTER = 400
#: What a walk may send before it has moved forward at all: the slack and its look-ahead.
BEFORE_ANY_PAGE = budget.SLACK + 8


def _start(exchange: Exchange) -> int:
    return int(parse_qs(exchange.hit.query).get("ws.start", ["0"])[0])


def _repeating_next_link(hostile: HostileServer) -> Callable[[Exchange], None]:
    """No ``total_size``, an entry without a usable ``self_link``, one next link, always.

    Each page follows the one before as its link says, but states the
    offset of the first: the walk reads its place again, then follows the
    link again, and the pages of each try are a chain of two, no loop.
    """

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        entry = {**recipe("", 1), "self_link": 7}
        document: dict[str, object] = {"entries": [entry], "start": 0}
        if hostile.count("/1.0/recipes") <= SERVER_GIVES_UP_AFTER:
            document["next_collection_link"] = url + "?ws.start=1"
        exchange.json(document)

    return serve


def _window_liar(hostile: HostileServer, total: int, size: int) -> Callable[[Exchange], None]:
    """Honest offsets, but entries never seen in every answer, and a size that keeps changing."""
    answers = itertools.count()

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        start, answer = _start(exchange), next(answers)
        stop = min(start + size, total)
        document: dict[str, object] = {
            "entries": [recipe(f"{url}/{n}-{answer}", n) for n in range(start, stop)],
            "start": start,
            "total_size": total + answer % 2,
        }
        if stop < total and hostile.count("/1.0/recipes") <= SERVER_GIVES_UP_AFTER:
            document["next_collection_link"] = f"{url}?ws.start={stop}&ws.size={size}"
        exchange.json(document)

    return serve


def test_len_over_a_next_link_that_repeats_between_re_reads_ends_with_an_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _repeating_next_link(hostile)

    with pytest.raises(ResponseError, match=r"recipes sent \d+ requests for 1 pages"):
        len(root.recipes)
    assert hostile.count("/1.0/recipes") <= BEFORE_ANY_PAGE


def test_a_walk_whose_windows_always_hold_new_entries_ends_with_an_error(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()
    hostile.routes["/1.0/recipes"] = _window_liar(hostile, total=303, size=3)

    with pytest.raises(ResponseError, match=r"the walk over \S+/1\.0/recipes sent"):
        for _recipe in root.recipes:
            pass
    # 101 pages: the walk gave up before it had asked for as many.
    assert hostile.count("/1.0/recipes") < 101


def test_an_honest_walk_of_many_small_pages_never_meets_the_bound(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    root = make_root()

    def serve(exchange: Exchange) -> None:
        url = hostile.url + "/1.0/recipes"
        start = _start(exchange)
        stop = min(start + 2, 150)
        document: dict[str, object] = {
            "entries": [recipe(f"{url}/{n}", n) for n in range(start, stop)],
            "start": start,
        }
        if stop < 150:
            document["next_collection_link"] = f"{url}?ws.start={stop}&ws.size=2"
        exchange.json(document)

    hostile.routes["/1.0/recipes"] = serve

    assert [r.id for r in root.recipes] == list(range(150))
    # One request a page, and one page asked for ahead past the end (no size is stated).
    assert hostile.count("/1.0/recipes") <= 76
