"""One service root used from several threads at once."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cookbook_service.testing import RunningService
from wadlclient import ServiceRoot

THREADS = 8


def read_everything(root: ServiceRoot) -> list[tuple[int, str, str]]:
    """Iterate, slice, follow links and look up by key: everything a reader does."""
    rows = [(recipe.id, recipe.instructions, "") for recipe in root.recipes]
    rows += [(r.id, r.instructions, r.dish.name) for r in root.recipes[3:17:4]]
    rows += [(root.recipes.lookup(rid).id, "lookup", "") for rid, *_ in rows[:3]]
    rows.append((len(root.dishes[0].recipes), "scoped", ""))
    return rows


def test_threads_sharing_a_root_see_what_one_thread_sees(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    service = cookbook_service_factory(seed_recipes=12, page_size=4)
    with ServiceRoot(None, service.base_url) as root:
        serial = read_everything(root)

        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(lambda _: read_everything(root), range(THREADS)))

    assert len(serial) > 20
    assert results == [serial] * THREADS


def test_threads_creating_lazy_entries_of_one_root_agree(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    service = cookbook_service_factory(seed_recipes=20, page_size=4)
    with ServiceRoot(None, service.base_url, version="devel") as root:
        ids = [recipe.id for recipe in root.recipes[:20]]
        shared = [root.recipes(rid) for rid in ids]

        def read(_: int) -> list[str]:
            return [entry.instructions for entry in shared]

        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(read, range(THREADS)))

    assert results == [results[0]] * THREADS
    assert len(set(results[0])) > 1


def test_lookups_from_threads_sharing_a_root_reach_the_service_at_the_same_time(
    cookbook_service_factory: Callable[..., RunningService],
) -> None:
    # With 100 ms of latency per answer, serialised lookups would never
    # overlap; eight threads on one root must have several in flight at once.
    service = cookbook_service_factory(seed_recipes=40, latency_ms=100)
    with ServiceRoot(None, service.base_url) as root:
        ids = [recipe.id for recipe in root.recipes[:16]]
        service.journal.clear()
        with ThreadPoolExecutor(THREADS) as pool:
            found = list(pool.map(lambda rid: root.recipes.lookup(rid).id, ids))

    assert found == ids
    assert len(service.journal) == len(ids)
    assert service.journal.most_concurrent() >= THREADS // 2
