"""`collection.shards(n)`: n picklable parts of a walk, together every entry once (issue 41).

Parts meet at entries (by ``self_link``), not offsets: where entries join
or leave the results while the parts are walked, each entry is still
handed out by one part only. Requests are counted in the service's journal.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot, Shard
from wadlclient.errors import WalkTokenError

from .conftest import clear_journal, journal_entries

#: The issue's figure: 4 shards of a walk of 20,000 entries.
MANY = 20_000


def links(entries: object) -> list[str]:
    return [entry.self_link for entry in entries]  # type: ignore[attr-defined]


@pytest.fixture
def small(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> RunningService:
    """60 generated recipes, walked ten at a time."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 10)
    return cookbook_service_factory(seed_recipes=60, page_size=10)


def test_four_shards_of_20000_entries_yield_every_entry_once(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What one walk yields is the service's list (tested elsewhere); here it comes from the store.

    That keeps the test to one walk's work (some 4 s of CPU, server included).
    """
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 300)  # the service's largest page
    service = cookbook_service_factory(seed_recipes=MANY)
    rows, total = service.store.recipes(0, 2 * MANY, sees_private=False)
    one_walk = [f"{service.base_url}1.0/recipes/{row['id']}" for row in rows]
    with ServiceRoot(None, service.base_url) as root:
        clear_journal(service)
        shards = root.recipes.shards(4)
        parts = [links(shard) for shard in shards]

    handed = [link for part in parts for link in part]
    assert total == len(one_walk) > MANY
    assert len(handed) == len(set(handed)) == len(one_walk)
    assert handed == one_walk  # in order, part after part
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    # The size, the first entries of parts 2 to 4, then each part's pages (the page a part
    # starts with is asked for from one entry before it).
    pages = [e for e in journal_entries(service) if e.path.endswith("/recipes")]
    assert len(pages) <= 1 + 3 + len(one_walk) // 300 + 4 + 4


def test_the_entries_where_the_parts_meet_are_asked_for_together(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fleet waits one round trip for where its parts meet, not one per part."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", 10)
    service = cookbook_service_factory(seed_recipes=60, page_size=10, latency_ms=300)
    with ServiceRoot(None, service.base_url) as root:
        recipes = root.recipes
        total = len(recipes)
        clear_journal(service)
        recipes.shards(4)
        asked = journal_entries(service)

    starts = sorted(int(e.query.split("&")[0].removeprefix("ws.start=")) for e in asked)
    assert starts == [part * total // 4 for part in (1, 2, 3)]
    assert service.journal.most_concurrent() == 3


def test_shards_pickle_and_keep_their_identity(small: RunningService) -> None:
    with ServiceRoot(None, small.base_url) as root:
        shards = root.recipes.shards(3)
        again: list[Shard[object]] = pickle.loads(pickle.dumps(shards))

        assert [s.key for s in again] == [s.key for s in shards]
        assert len({s.key for s in shards}) == 3
        assert [(s.index, s.count, s.url) for s in again] == [
            (i, 3, f"{small.base_url}1.0/recipes") for i in range(3)
        ]
        assert [links(s) for s in again] == [links(s) for s in shards]


def test_a_shard_resumes_from_its_own_token(small: RunningService) -> None:
    with ServiceRoot(None, small.base_url) as root:
        shard = root.recipes.shards(3)[1]
        whole = links(shard)
        walk = shard.walk()
        before = [next(walk).self_link for _ in range(6)]
        token = walk.token
        walk.close()

        assert before + links(shard.walk(resume=token)) == whole


def test_a_token_of_another_shard_or_of_the_whole_walk_is_refused(small: RunningService) -> None:
    with ServiceRoot(None, small.base_url) as root:
        first, second = root.recipes.shards(2)
        walk = first.walk()
        next(walk)
        with pytest.raises(WalkTokenError, match="from shard 1 of 2"):
            second.walk(resume=walk.token)
        whole = root.recipes.walk()
        next(whole)
        with pytest.raises(WalkTokenError, match="from a whole walk"):
            first.walk(resume=whole.token)


def test_more_shards_than_entries_leaves_some_empty(small: RunningService) -> None:
    with ServiceRoot(None, small.base_url) as root:
        search = root.cookbooks.find_recipes(search="Generated 1")  # a handful of recipes
        expected = links(search)
        shards = search.shards(len(expected) + 3)
        clear_journal(small)
        parts = [links(shard) for shard in shards]

    assert [link for part in parts for link in part] == expected
    assert sum(1 for shard in shards if shard.empty) == 3
    assert all(parts[i] == [] for i, shard in enumerate(shards) if shard.empty)


@pytest.mark.parametrize("count", [0, -1, 1.5, True])
def test_a_number_of_shards_that_is_not_a_positive_whole_number_is_refused(
    small: RunningService, count: object
) -> None:
    with ServiceRoot(None, small.base_url) as root, pytest.raises(ValueError, match="shards"):
        root.recipes.shards(count)  # type: ignore[arg-type]


def test_shards_meet_at_entries_while_entries_join_and_leave_the_results(
    small: RunningService,
) -> None:
    """Someone else changes the search while four shards are walked: each entry once."""
    with ServiceRoot(None, small.base_url) as root:
        search = root.cookbooks.find_recipes(search="Generated")
        shards = search.shards(4)
        walks = [shard.walk() for shard in shards]
        handed = [[next(walk).self_link] for walk in walks]
        # The first entry of the third part leaves the results; three recipes join before all.
        boundary = int(shards[2].first[0].rsplit("/", 1)[1])
        small.store.update_recipe(boundary, {"instructions": "Hand-made."})
        for recipe_id in (1, 2, 3):
            small.store.update_recipe(recipe_id, {"instructions": "Generated by hand."})
        for part, walk in zip(handed, walks, strict=True):
            part.extend(links(walk))
        now = set(links(search))

    every = [link for part in handed for link in part]
    assert len(every) == len(set(every))
    joined = {f"{small.base_url}1.0/recipes/{i}" for i in (1, 2, 3)}
    assert now - joined <= set(every)
