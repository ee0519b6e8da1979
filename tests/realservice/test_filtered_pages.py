"""Pages filtered of private entries are walked: the real lazr.restful example service.

lazr.restful cuts a page and then drops the entries the caller may not see
(the example service's recipe 5 is private; Launchpad does the same with
private bugs). With one recipe per page, the page at position 4 is empty
while its next link goes on. A walk follows it; positions stay the
server's, so ``len()`` is the ``total_size`` the server states (hidden
entries included) and a slice or an index starts at the server's position,
exactly as lazr.restfulclient reads them.
"""

from __future__ import annotations

import json
from urllib.request import Request, urlopen

import pytest
from lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot
from tests.realservice.lazr_example import WADL_MEDIA_TYPE, LazrExample

from wadlclient import ServiceRoot
from wadlclient.objects import Collection

SLICES = [(start, stop) for start in range(7) for stop in range(start, 8)]


def _visible_ids(service: LazrExample) -> list[int]:
    """The recipes the server shows an anonymous caller, read page by page with urllib."""
    ids: list[int] = []
    link: str | None = service.url + "1.0/recipes"
    while link:
        with urlopen(Request(link, headers={"Accept": "application/json"}), timeout=10) as answer:
            page = json.load(answer)
        ids += [entry["id"] for entry in page["entries"]]
        link = page.get("next_collection_link")
    return ids


def _root(service: LazrExample) -> ServiceRoot:
    return ServiceRoot(None, service.url, wadl_media_type=WADL_MEDIA_TYPE)


def test_the_example_service_hides_a_recipe_and_so_serves_an_empty_page(
    lazr_example_one_per_page: LazrExample,
) -> None:
    request = Request(
        lazr_example_one_per_page.url + "1.0/recipes?ws.start=4&ws.size=1",
        headers={"Accept": "application/json"},
    )
    with urlopen(request, timeout=10) as answer:
        page = json.load(answer)

    assert page["entries"] == []
    assert "ws.start=5" in page["next_collection_link"]
    assert 5 not in _visible_ids(lazr_example_one_per_page)


def test_a_walk_follows_empty_pages_whose_next_link_advances(
    lazr_example_one_per_page: LazrExample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 1)
    with _root(lazr_example_one_per_page) as root:
        ids = [recipe.id for recipe in root.recipes]

    assert ids == _visible_ids(lazr_example_one_per_page) == [1, 2, 3, 4, 6]


def test_len_is_the_size_the_server_states_hidden_entries_included(
    lazr_example_one_per_page: LazrExample,
) -> None:
    with _root(lazr_example_one_per_page) as root:
        assert len(root.recipes) == 6


@pytest.mark.parametrize("batch", [1, 5], ids=["one-per-page", "as-shipped"])
def test_slices_and_indexes_agree_with_the_full_list_and_with_lazr_restfulclient(
    batch: int, lazr_example_one_per_page: LazrExample, lazr_example: LazrExample
) -> None:
    service = lazr_example_one_per_page if batch == 1 else lazr_example
    full = _visible_ids(service)
    theirs = LazrServiceRoot(None, service.url + "1.0/").recipes

    with _root(service) as root:
        recipes = root.recipes
        for start, stop in SLICES:
            ours = [recipe.id for recipe in recipes[start:stop]]
            assert ours == [recipe.id for recipe in theirs[start:stop]], (start, stop)
            if stop <= 4 or start == 0:
                # Before the hidden recipe, positions and the visible list agree.
                assert ours == full[start:stop], (start, stop)
        for index in range(len(full)):
            assert recipes[index].id == theirs[index].id
        assert [recipes[index].id for index in range(4)] == full[:4]
        with pytest.raises(IndexError):
            recipes[6]


def test_a_slice_across_the_empty_page_reads_pages_up_to_the_next_visible_recipe(
    lazr_example_one_per_page: LazrExample,
) -> None:
    with _root(lazr_example_one_per_page) as root:
        before = len(lazr_example_one_per_page.journal())
        ids = [recipe.id for recipe in root.recipes[4:5]]
        pages = [
            hit
            for hit in lazr_example_one_per_page.journal()[before:]
            if hit["path"] == "/1.0/recipes"
        ]

    assert ids == [6]
    assert len(pages) == 2  # the empty page at 4, then the page at 5 its next link names
