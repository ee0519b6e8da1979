"""A walk keeps the pages it has not handed out in a shared cache; a resume uses them (issue 41).

A job resumes on the machine (or with the Redis) its killed process used:
with a cache other processes share, a walk stores each page it receives
until it has handed it out, so the walk resumed from its token reads
again only what was in flight. Each walk here stands for a process
killed outright: it is left as it is, never closed. The service's
journal counts the requests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from cookbook_service.testing import RunningService
from wadlclient import BasicHttpAuthorizer, Collection, ServiceRoot
from wadlclient.objects import kept

from .conftest import clear_journal, journal_entries, settle

#: Entries per page: the 60 recipes take six pages; a walk fetches two ahead.
PAGE = 10


@pytest.fixture
def service(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> RunningService:
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    monkeypatch.setattr(Collection, "PREFETCH_DEPTH", 2)
    return cookbook_service_factory(seed_recipes=60, page_size=PAGE)


def links(entries: object) -> list[str]:
    return [entry.self_link for entry in entries]  # type: ignore[attr-defined]


def page_reads(service: RunningService) -> list[dict[str, str]]:
    return [
        dict(parse_qsl(entry.query))
        for entry in journal_entries(service)
        if entry.method == "GET" and "recipes" in entry.path
    ]


def kept_pages(cache: Path, count: int | None = None) -> list[Path]:
    """The pages kept in ``cache`` (once there are ``count``: they are stored as they arrive)."""
    deadline = time.monotonic() + 10
    while True:
        found = sorted(path for path in cache.iterdir() if path.name.startswith("walkpage-"))
        if count is None or len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.01)


def kept_in(cache: str, count: int) -> None:
    """Until ``count`` pages are kept in ``cache`` (a directory or a Redis URL)."""
    if not cache.startswith("redis://"):
        kept_pages(Path(cache), count)
        return
    import redis

    deadline = time.monotonic() + 10
    with redis.Redis.from_url(cache) as client:
        while len(client.keys("*walkpage-*")) < count and time.monotonic() < deadline:
            time.sleep(0.01)


def test_a_walk_keeps_the_pages_not_handed_out_yet_until_it_ends(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        walk = root.recipes.walk()
        for _ in range(25):
            next(walk)

        # The page it hands out (20-29) and the two fetched ahead (30-49).
        assert len(kept_pages(tmp_path, 3)) == 3
        for _entry in walk:
            pass
        assert kept_pages(tmp_path) == []


def test_a_closed_walk_leaves_no_page_behind(service: RunningService, tmp_path: Path) -> None:
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        walk = root.recipes.walk()
        next(walk)
        assert kept_pages(tmp_path, 1)  # the page it hands out, at least
        walk.close()
        assert kept_pages(tmp_path) == []


@pytest.fixture(params=["a cache directory", "Redis"])
def shared_cache(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What two processes of a job share: a cache directory, or a Redis."""
    if request.param == "Redis":
        url: str = request.getfixturevalue("empty_redis")
        return url
    return str(tmp_path)


def test_a_walk_resumed_from_the_pages_its_killed_walk_kept_reads_none_of_them_again(
    service: RunningService, shared_cache: str
) -> None:
    with ServiceRoot(None, service.base_url, cache=shared_cache) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(25)]
        token = killed.token
        kept_in(shared_cache, 3)  # the page it hands out, the two fetched ahead
        clear_journal(service)

    with ServiceRoot(None, service.base_url, cache=shared_cache) as other:
        after = links(other.recipes.walk(resume=token))

    assert before + after == everything
    # Entries 25-49 came from the kept pages; the rest from a window that starts at the
    # last of them (the killed walk may have written meanwhile: the window checks).
    reads = page_reads(service)
    assert reads[0] == {"ws.start": "49", "ws.size": str(PAGE + 1)}
    assert [int(read["ws.start"]) for read in reads[1:]] == list(range(60, len(everything), PAGE))


def test_a_job_killed_between_its_checkpoints_resumes_from_the_pages_kept_since_the_last(
    service: RunningService, tmp_path: Path
) -> None:
    """The page of the token a job committed stays kept while the job goes on past it.

    The job checkpoints the token at the end of each page (as the mirror
    commits a batch); killed while it hands out the next page, before its
    next checkpoint, it resumes from the token: the page that token names,
    handed out already, and those after it are still kept.
    """
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(2 * PAGE)]
        checkpoint = killed.token
        before += [next(killed).self_link for _ in range(5)]  # not checkpointed
        # The page of the checkpoint (10-19), the one handed out (20-29), two fetched ahead.
        kept_pages(tmp_path, 4)
        clear_journal(service)

    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as other:
        after = links(other.recipes.walk(resume=checkpoint))

    assert before[: 2 * PAGE] + after == everything
    # Entries 20-49 came from the kept pages, none read again; the window starts at the last.
    reads = page_reads(service)
    assert reads[0] == {"ws.start": "49", "ws.size": str(PAGE + 1)}
    assert [int(read["ws.start"]) for read in reads[1:]] == list(range(60, len(everything), PAGE))


def test_a_walk_resumed_past_the_pages_kept_for_an_older_token_leaves_none_behind(
    service: RunningService, tmp_path: Path
) -> None:
    """The pages the walk before kept for its older token, the resumed walk removes.

    Killed just past a page's end with a token taken at each entry, the
    walk before keeps the page of its older token too (the job may have
    committed that one); the resumed walk starts after it, never reads it,
    and removes it all the same: a finished job leaves no page behind.
    """
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before, tokens = [], []
        for _ in range(2 * PAGE + 1):
            before.append(next(killed).self_link)
            tokens.append(killed.token)
        kept_pages(tmp_path, 4)  # the page of the older token, the one handed out, two ahead

    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as other:
        assert before + links(other.recipes.walk(resume=tokens[-1])) == everything

    assert kept_pages(tmp_path) == []


def test_a_walk_whose_tokens_are_rare_keeps_a_bounded_number_of_pages_handed_out(
    service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept, "KEPT_BEHIND", 2)
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        walk = root.recipes.walk()
        next(walk)
        assert walk.token  # the only token: the job takes no other
        for _ in range(5 * PAGE):
            next(walk)
        # At most two pages handed out since the token, the one handed out, two ahead.
        assert len(kept_pages(tmp_path)) <= 2 + 1 + 2
        walk.close()
        assert kept_pages(tmp_path) == []


@pytest.mark.parametrize("handed", [PAGE, 2 * PAGE])
def test_a_walk_killed_at_the_end_of_a_page_resumes_from_the_pages_it_kept(
    service: RunningService, tmp_path: Path, handed: int
) -> None:
    """The token names the page it was handing out, all of it handed: the resume goes on after."""
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(handed)]
        kept_pages(tmp_path, 1)

        after = links(root.recipes.walk(resume=killed.token))

    assert before + after == everything


def test_kept_pages_too_old_are_not_used(
    service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(25)]
        kept_pages(tmp_path, 3)
        clear_journal(service)
        monkeypatch.setattr(kept, "KEPT_FOR", -1.0)

        after = links(root.recipes.walk(resume=killed.token))

    assert before + after == everything
    assert page_reads(service)[0] == {"ws.start": "24", "ws.size": str(PAGE + 1)}


def test_the_loop_that_edits_what_it_walks_resumed_from_kept_pages_sees_every_entry_once(
    service: RunningService, tmp_path: Path
) -> None:
    """The loop takes each entry out of the search; killed and resumed, it still sees all."""
    seen: list[int] = []
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        killed = root.cookbooks.find_recipes(search="Generated").walk()
        for recipe in killed:
            recipe.instructions = "Done by the loop."
            recipe.lp_save()
            seen.append(recipe.id)
            if len(seen) == 17:
                break
        token = killed.token
        assert kept_pages(tmp_path)  # the pages the killed loop had not handed out
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        search = root.cookbooks.find_recipes(search="Generated")
        for recipe in search.walk(resume=token):
            recipe.instructions = "Done by the loop."
            recipe.lp_save()
            seen.append(recipe.id)

    rows, _total = service.store.recipes(0, 1000, sees_private=True, search="Generated")
    assert rows == []
    assert len(seen) == len(set(seen)) == 60  # every generated recipe


def test_kept_pages_hold_no_credential_and_serve_no_other_principal(
    cookbook_service_factory: Callable[..., RunningService],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    service = cookbook_service_factory(auth="basic", seed_recipes=60, page_size=PAGE)
    service.add_user("alice", "pw-Looking-Glass-42")
    service.add_user("bob", "pw-Jabberwock-77")
    address = service.base_url.replace("http://", "http://alice:pw-Looking-Glass-42@")
    with ServiceRoot(None, address, cache=str(tmp_path)) as root:
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(25)]
        pages = kept_pages(tmp_path, 3)
        assert not [path for path in pages if b"pw-Looking-Glass-42" in path.read_bytes()]
        clear_journal(service)

    bob = BasicHttpAuthorizer("bob", "pw-Jabberwock-77")
    with ServiceRoot(bob, service.base_url, cache=str(tmp_path)) as other:
        after = links(other.recipes.walk(resume=killed.token))

    assert not set(before) & set(after)
    # Bob's walk reads his own pages: alice's kept ones are not his.
    assert page_reads(service)[0] == {"ws.start": "24", "ws.size": str(PAGE + 1)}


def test_a_walk_keeps_no_page_when_told_not_to(
    service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Collection, "KEEP_PAGES", False)
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        walk = root.recipes.walk()
        next(walk)
        settle(service)
        assert kept_pages(tmp_path) == []
        walk.close()


def test_a_damaged_kept_page_is_read_again_from_the_service(
    service: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(None, service.base_url, cache=str(tmp_path)) as root:
        everything = links(root.recipes)
        killed = root.recipes.walk()
        before = [next(killed).self_link for _ in range(25)]
        for path in kept_pages(tmp_path, 3):  # any process may write to a shared cache
            head, _, _ = path.read_bytes().partition(b"}")
            path.write_bytes(head + b"no longer JSON")

        after = links(root.recipes.walk(resume=killed.token))

    assert before + after == everything
