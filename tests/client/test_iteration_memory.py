"""Iterating a collection holds a bounded amount, whatever its size (issue 6).

A walk holds one parsed page at a time and lets go of each entry as it
hands it out; it runs at most ``PREFETCH_DEPTH`` pages ahead of the caller
(those wait as text); it keeps nothing per page it has passed. These tests
count what is held (pages, requests ahead, references, memo entries) rather
than measure bytes, so they are exact and fast.
"""

from __future__ import annotations

import sys
import urllib.parse
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot
from wadlclient.objects.collection import CollectionPages
from wadlclient.objects.wire import start_of, with_query

from .conftest import clear_journal, settle, wire_with_query

PAGE = 6


@pytest.fixture
def walk_service(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> RunningService:
    """A service with several pages (and a short last one) for a walk asking for six."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    return cookbook_service_factory(seed_recipes=35, page_size=5)


def clear_urlsplit_memo() -> None:
    """Empty the standard library's memo of split URLs (an lru_cache from 3.11, a dict before)."""
    if sys.version_info >= (3, 11):
        urllib.parse.urlsplit.cache_clear()
    else:
        urllib.parse.clear_cache()


def urlsplit_memo_size() -> int:
    if sys.version_info >= (3, 11):
        return int(urllib.parse.urlsplit.cache_info().currsize)
    return len(urllib.parse._parse_cache)  # type: ignore[attr-defined]


class TrackedList(list[Any]):
    """A page's list of entries that can be watched with a weak reference."""


@pytest.mark.usefixtures("python_gc_thresholds")
def test_a_walk_holds_one_parsed_page_at_a_time(
    walk_service: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages: list[weakref.ref[TrackedList]] = []
    parse = CollectionPages.parse_page

    def tracked_parse(self: CollectionPages, text: str, url: str) -> dict[str, Any]:
        page = parse(self, text, url)
        page["entries"] = TrackedList(page["entries"])
        pages.append(weakref.ref(page["entries"]))
        return page

    monkeypatch.setattr(CollectionPages, "parse_page", tracked_parse)
    with ServiceRoot(None, walk_service.base_url) as root:
        total = len(root.recipes)  # another collection object: its page is its own
        held = []

        for _recipe in root.recipes:
            held.append(sum(1 for ref in pages if ref() is not None))

    assert len(pages) == -(-total // PAGE) > 2
    assert max(held) == 1  # not the first page kept besides the current one


def test_a_walk_runs_at_most_the_prefetch_depth_ahead_of_the_reader(
    walk_service: RunningService,
) -> None:
    with ServiceRoot(None, walk_service.base_url) as root:
        clear_journal(walk_service)
        ahead = []

        for number, _recipe in enumerate(root.recipes):
            if number % PAGE == 0:  # the first entry of a page
                settle(walk_service)
                ahead.append(len(walk_service.journal) - (number // PAGE + 1))

    assert max(ahead) <= Collection.PREFETCH_DEPTH
    assert max(ahead) > 0  # pages are fetched ahead at all


def test_a_walk_keeps_no_entry_the_caller_dropped(walk_service: RunningService) -> None:
    """An entry handed out is the caller's alone: the page being read lets go of it."""
    with ServiceRoot(None, walk_service.base_url) as root:
        entries = iter(root.recipes)
        for _ in range(PAGE + 2):  # into the second page
            entry = next(entries)
        representation = entry._state.data

        del entry
        next(entries)  # the walk moves on within the page

        # The local variable and getrefcount's argument: nobody else holds the dict.
        assert sys.getrefcount(representation) == 2
        entries.close()


def test_len_after_a_walk_sends_nothing(walk_service: RunningService) -> None:
    with ServiceRoot(None, walk_service.base_url) as root:
        recipes = root.recipes
        walked = sum(1 for _ in recipes)
        clear_journal(walk_service)

        size = len(recipes)

    assert size == walked
    assert wire_with_query(walk_service) == []


def test_a_walk_leaves_nothing_in_the_url_splitting_memo(walk_service: RunningService) -> None:
    """Page URLs are new with every page; a process-wide memo of them only grows."""
    with ServiceRoot(None, walk_service.base_url) as root:
        total = len(root.recipes)
        clear_urlsplit_memo()

        walked = sum(1 for _ in root.recipes)

    assert walked == total > 2 * PAGE
    assert urlsplit_memo_size() == 0


def reference_with_query(url: str, **values: object) -> str:
    """What `with_query` must give, built with urlsplit/urlunsplit."""
    parts = urllib.parse.urlsplit(url)
    query = [
        (k, v)
        for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        if k not in values
    ]
    query += [(k, str(v)) for k, v in values.items()]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


@pytest.mark.parametrize(
    "url",
    [
        "http://h/1.0/recipes",
        "http://h/1.0/recipes?",
        "http://h/1.0/recipes?ws.size=5&ws.start=10",
        "http://h/1.0/recipes?ws.op=find_recipes&search=a+b&ws.start=3",
        "http://h:8080/a%20b?x=%20&flag",
        "http://h/a#frag",
        "http://h/a?q=1#frag?x=2",
        "http://h/a#frag?ws.start=9",
    ],
)
def test_page_urls_are_built_as_urlsplit_would(url: str) -> None:
    values = {"ws.start": 7, "ws.size": 2}

    assert with_query(url, **values) == reference_with_query(url, **values)
    start = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)).get("ws.start")
    assert start_of(url) == (int(start) if start is not None else None)


def test_a_walk_leaves_no_page_url_in_the_transports_memo(walk_service: RunningService) -> None:
    """The transport remembers how to reach a URL; a page's URL, new each time, is not kept."""
    from wadlclient.http.urls import _parse_base

    with ServiceRoot(None, walk_service.base_url) as root:
        total = len(root.recipes)
        _parse_base.cache_clear()

        walked = sum(1 for _ in root.recipes)

    assert walked == total > 2 * PAGE
    assert _parse_base.cache_info().currsize <= 2
