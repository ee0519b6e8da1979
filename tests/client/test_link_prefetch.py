"""Links of many entries fetched together: explicit `prefetch` and the fixed look-ahead.

The adaptive look-ahead, the default: test_adaptive_look_ahead.py.

The example service answers each request a test measures after 300 ms
(its set-up, the WADL, root and pages, does not wait), so requests sent
together are seen in flight together in its journal, and a loop that
sends one request per entry is plain to see in the count.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.lazr.lpservice import LoopbackServer

from cookbook_service.testing import RunningService
from wadlclient import SUN_WADL_MEDIA_TYPE, EntryList, ServiceRoot, prefetch
from wadlclient.objects.links import LOOK_AHEAD_VARIABLE, WalkMemory
from wadlclient.objects.resource import attached_link, url_of

LATENCY_MS = 300


@pytest.fixture
def far(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    """40 recipes of 6 dishes; ``far.delayed(LATENCY_MS)`` puts them 300 ms away."""
    return cookbook_service_factory(seed_recipes=40)


def _dish_requests(service: RunningService) -> list[str]:
    return [e.path for e in service.journal.entries() if e.path.startswith("/1.0/dishes/")]


def test_prefetch_sends_each_distinct_link_once_and_all_at_once(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:40]
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            recipes.prefetch("dish")

        sent = _dish_requests(far)

    distinct = {raw.dish_link_url for raw in _raw(far, 40)}
    assert len(sent) == len(set(sent)) == len(distinct) == 6
    assert far.journal.most_concurrent() == 6


def test_reading_prefetched_links_sends_nothing(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:40].prefetch("dish")
        far.journal.clear()

        names = [recipe.dish.name for recipe in recipes]

    assert len(names) == 40 and all(names)
    assert far.journal.entries() == []


def test_a_stale_cached_representation_is_revalidated_not_reused(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:40]
        recipes.prefetch("dish")
        far.journal.clear()

        prefetch(root.recipes[:40], "dish")

        conditional = [
            (e.if_none_match is not None, e.status)
            for e in far.journal.entries()
            if e.path.startswith("/1.0/dishes/")
        ]
    assert conditional == [(True, 304)] * 6


def test_prefetch_works_on_a_collection_a_list_and_a_named_operation_result(
    far: RunningService,
) -> None:
    with ServiceRoot(None, far.base_url) as root:
        found = root.cookbooks.find_recipes(search="")
        from_operation = found.prefetch("dish")
        from_list = prefetch(list(root.recipes[:3]), "dish")
        far.journal.clear()

        names = [r.dish.name for r in from_operation] + [r.dish.name for r in from_list]

    assert isinstance(from_operation, EntryList)
    assert names and far.journal.entries() == []


def test_a_link_that_is_not_one_is_a_clear_error(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root, pytest.raises(ValueError, match="'dishh'"):
        root.recipes[:2].prefetch("dishh")


def test_one_link_read_alone_sends_only_that_link_by_default(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:40]
        far.journal.clear()

        recipes[0].dish.name  # noqa: B018

    assert len(_dish_requests(far)) == 1


def test_the_look_ahead_fetches_the_same_link_of_the_next_entries_together(
    far: RunningService,
) -> None:
    with ServiceRoot(None, far.base_url, look_ahead=10) as root:
        recipes = root.recipes[:40]
        expected = len({r.dish_link_url for r in _raw(far, 10)})
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            recipes[0].dish.name  # noqa: B018
            first_read = len(_dish_requests(far))

            names = [recipe.dish.name for recipe in recipes]

    assert first_read == expected
    assert far.journal.most_concurrent() == expected
    assert len(names) == 40
    # Runs of 10; a dish met in an earlier run is not asked for again.
    assert len(_dish_requests(far)) == 6


def test_a_walk_in_the_look_ahead_fetches_each_linked_url_once(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url, look_ahead=5) as root:
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            dishes = [recipe.dish for recipe in root.recipes]
        size = len(root.recipes)

    sent = _dish_requests(far)
    assert len(dishes) == size
    assert len(sent) == len(set(sent)) == 6
    by_url = {url_of(dish): dish for dish in dishes}
    assert all(dish is by_url[url_of(dish)] for dish in dishes)


def test_the_walk_memory_is_bounded(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:40].prefetch("dish")
        memory = WalkMemory(size=2)
        distinct = {url_of(r.dish): r.dish for r in recipes}
        for dish in distinct.values():
            memory.keep(dish)
        fresh = root.recipes[:40]

        memory.attach_known(fresh, "dish")

    assert len(memory) == 2
    kept = [url_of(d) for d in distinct.values()][-2:]
    attached = {url_of(t) for r in fresh if (t := attached_link(r, "dish")) is not None}
    assert attached == set(kept)


def test_the_look_ahead_works_in_a_walk(far: RunningService) -> None:
    with ServiceRoot(None, far.base_url, look_ahead=25) as root:
        far.journal.clear()

        with far.delayed(LATENCY_MS):
            names = [recipe.dish.name for recipe in root.recipes]
        size = len(root.recipes)

    assert len(names) == size
    assert len(_dish_requests(far)) <= 2 * 6
    assert far.journal.most_concurrent() >= 2


def test_the_environment_variable_turns_the_look_ahead_on(
    far: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LOOK_AHEAD_VARIABLE, "10")
    with ServiceRoot(None, far.base_url) as root:
        recipes = root.recipes[:10]
        far.journal.clear()

        recipes[0].dish.name  # noqa: B018

    assert len(_dish_requests(far)) > 1


@pytest.mark.parametrize("value", ["ten", "-1", "\u00b2"])  # "²": str.isdigit() yes, int() no
def test_a_look_ahead_that_is_not_a_whole_number_is_refused_naming_the_variable(
    far: RunningService, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(LOOK_AHEAD_VARIABLE, value)

    with pytest.raises(ValueError, match=f"^{LOOK_AHEAD_VARIABLE} must be a whole number"):
        ServiceRoot(None, far.base_url)


class _Raw:
    def __init__(self, dish_link_url: str) -> None:
        self.dish_link_url = dish_link_url


def _raw(service: RunningService, count: int) -> list[_Raw]:
    """The first ``count`` recipes as the server has them (read with urllib, not the client)."""
    import json
    from urllib.request import Request, urlopen

    url = service.url(f"recipes?ws.size={count}")
    with urlopen(Request(url, headers={"Accept": "application/json"}), timeout=10) as answer:
        return [_Raw(e["dish_link"]) for e in json.load(answer)["entries"]]


def test_a_dotted_path_follows_links_of_links_each_url_once(
    launchpad_wadl_bytes: bytes,
) -> None:
    with LoopbackServer(launchpad_wadl_bytes) as server:
        root = ServiceRoot(None, server.service_root, wadl_media_type=SUN_WADL_MEDIA_TYPE)
        with root:
            bugs = root.bugs[:3]
            server.state.journal.clear()

            prefetch(bugs, "owner.team_owner")
            sent = [e.path for e in server.state.journal]
            server.state.journal.clear()
            team_owners = [bug.owner.team_owner.display_name for bug in bugs]

    # Owners ada and alan, then their team owner grace: three distinct people.
    assert sorted(sent) == ["/1.0/~ada", "/1.0/~alan", "/1.0/~grace"]
    assert team_owners == ["Grace Hopper"] * 3
    assert server.state.journal == []


def test_a_dotted_path_goes_on_from_links_an_earlier_path_fetched(
    launchpad_wadl_bytes: bytes,
) -> None:
    with LoopbackServer(launchpad_wadl_bytes) as server:
        root = ServiceRoot(None, server.service_root, wadl_media_type=SUN_WADL_MEDIA_TYPE)
        with root:
            bugs = root.bugs[:3]
            server.state.journal.clear()

            prefetch(bugs, "owner", "owner.team_owner")
            sent = [e.path for e in server.state.journal]
            server.state.journal.clear()
            team_owners = [bug.owner.team_owner.display_name for bug in bugs]

    # "owner" fetches ada and alan; "owner.team_owner" starts from them, fetching grace.
    assert sorted(sent) == ["/1.0/~ada", "/1.0/~alan", "/1.0/~grace"]
    assert team_owners == ["Grace Hopper"] * 3
    assert server.state.journal == []


def test_entries_the_look_ahead_fetched_look_ahead_in_turn(launchpad_wadl_bytes: bytes) -> None:
    with LoopbackServer(launchpad_wadl_bytes) as server:
        root = ServiceRoot(
            None, server.service_root, wadl_media_type=SUN_WADL_MEDIA_TYPE, look_ahead=10
        )
        with root:
            bugs = root.bugs[:3]
            server.state.journal.clear()

            team_owners = [bug.owner.team_owner.name for bug in bugs]

    assert team_owners == ["grace"] * 3
    # The owners ada and alan come together; reading ada's team owner fetches it for
    # alan too: grace once (without it, alan's would be asked for again).
    assert sorted(e.path for e in server.state.journal) == [
        "/1.0/~ada",
        "/1.0/~alan",
        "/1.0/~grace",
    ]
