"""A walk has a resume token after every entry; resumed from it, a walk goes on (issue 41).

Tokens are short, versioned and URL-safe, carry no secret, and are read
back by any process with a root of the same service; anything else is one
`WalkTokenError`. Requests are counted in the service's journal.
"""

from __future__ import annotations

import base64
import pickle
import re
from collections.abc import Callable
from urllib.parse import parse_qsl

import pytest

from cookbook_service.testing import RunningService
from wadlclient import Collection, ServiceRoot
from wadlclient.errors import WalkTokenError
from wadlclient.objects.tokens import decode_token, digest

from .conftest import clear_journal, journal_entries

#: Entries per page the walks ask for: a walk of the 60 recipes takes six pages.
PAGE = 10


@pytest.fixture
def service(
    cookbook_service_factory: Callable[..., RunningService], monkeypatch: pytest.MonkeyPatch
) -> RunningService:
    """60 recipes (the seed's and generated ones), walked ten at a time."""
    monkeypatch.setattr(Collection, "ITERATION_PAGE_SIZE", PAGE)
    return cookbook_service_factory(seed_recipes=60, page_size=PAGE)


def links(entries: object) -> list[str]:
    return [entry.self_link for entry in entries]  # type: ignore[attr-defined]


def page_reads(service: RunningService) -> list[dict[str, str]]:
    return [
        dict(parse_qsl(entry.query))
        for entry in journal_entries(service)
        if entry.method == "GET" and entry.path.endswith("/recipes")
    ]


def test_a_walk_has_a_short_url_safe_versioned_token_after_every_entry(
    service: RunningService,
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        walk = root.recipes.walk()
        tokens = [walk.token]
        for _entry in walk:
            tokens.append(walk.token)
        count = len(root.recipes)

    # The start's token, one after each entry (the last also says that the walk ended).
    assert len(tokens) == len(set(tokens)) == count + 1
    assert all(re.fullmatch(r"w2\.[A-Za-z0-9_-]+", token) for token in tokens)
    assert max(map(len, tokens)) <= 90


def test_a_resumed_walk_goes_on_with_the_next_entry_re_reading_one_page(
    service: RunningService,
) -> None:
    with ServiceRoot(None, service.base_url) as root:
        everything = links(root.recipes)
        walk = root.recipes.walk()
        before = [next(walk).self_link for _ in range(25)]
        token = walk.token
        walk.close()
        clear_journal(service)

        after = links(root.recipes.walk(resume=token))

    assert before + after == everything
    reads = page_reads(service)
    # One page from just before the place (the last entry handed out, and a page after it).
    assert reads[0] == {"ws.start": "24", "ws.size": str(PAGE + 1)}
    assert len(reads) == len(range(25, len(everything), PAGE))


def test_a_token_resumes_in_another_root_of_the_same_service(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        everything = links(root.recipes)
        walk = root.recipes.walk()
        before = [next(walk).self_link for _ in range(7)]
        token = walk.token
    with ServiceRoot(None, service.base_url) as other:
        assert before + links(other.recipes.walk(resume=token)) == everything


def test_the_last_token_resumes_to_nothing_without_a_request(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        walk = root.recipes.walk()
        for _entry in walk:
            pass
        clear_journal(service)

        assert list(root.recipes.walk(resume=walk.token)) == []
    assert journal_entries(service) == []


def test_a_walk_pickles_as_its_place(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        everything = links(root.recipes)
        walk = root.recipes.walk()
        before = [next(walk).self_link for _ in range(13)]

        again = pickle.loads(pickle.dumps(walk))

        assert before + links(again) == everything


def test_a_resumed_walk_of_the_loop_that_edits_what_it_walks_hands_out_every_entry_once(
    service: RunningService,
) -> None:
    """The loop takes each entry out of the search; stopped and resumed, it still sees all."""
    seen: list[int] = []
    with ServiceRoot(None, service.base_url) as root:
        search = root.cookbooks.find_recipes(search="Generated")
        walk = search.walk()
        for recipe in walk:
            recipe.instructions = "Done by the loop."
            recipe.lp_save()
            seen.append(recipe.id)
            if len(seen) == 17:
                break
        token = walk.token
    with ServiceRoot(None, service.base_url) as root:
        search = root.cookbooks.find_recipes(search="Generated")
        for recipe in search.walk(resume=token):
            recipe.instructions = "Done by the loop."
            recipe.lp_save()
            seen.append(recipe.id)

    rows, _total = service.store.recipes(0, 1000, sees_private=True, search="Generated")
    assert rows == []
    assert len(seen) == len(set(seen)) == 60  # every generated recipe


def test_a_resume_finds_its_place_when_entries_left_before_it(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        everything = links(root.recipes)
        walk = root.recipes.walk()
        before = [next(walk).self_link for _ in range(30)]
        token = walk.token
        walk.close()
        for link in before[3:9]:
            root.load(link).lp_delete()

        after = links(root.recipes.walk(resume=token))

    assert before + after == everything


def test_a_resume_finds_its_place_when_entries_joined_before_it(service: RunningService) -> None:
    """Someone else makes three recipes match the search; they sort before the walk's place."""
    with ServiceRoot(None, service.base_url) as root:
        search = root.cookbooks.find_recipes(search="Generated")
        everything = links(search)
        walk = search.walk()
        before = [next(walk).self_link for _ in range(20)]
        token = walk.token
        walk.close()
        for recipe_id in (1, 2, 3):
            service.store.update_recipe(recipe_id, {"instructions": "Generated by hand."})

        after = links(root.cookbooks.find_recipes(search="Generated").walk(resume=token))

    assert before + after == everything


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("not a token", "is not a walk's resume token"),
        ("w3.AAAA", "of format 3; this wadlclient reads formats 1 and 2"),
        ("w1.AAAAAAAAAAAAAAAAAAAAAAAAAAAA", "damaged"),
        ("w2.AAAAAAAAAAAAAAAAAAAAAAAAAAAA", "damaged"),
    ],
)
def test_a_token_this_library_did_not_write_is_one_clear_error(
    service: RunningService, token: str, message: str
) -> None:
    with ServiceRoot(None, service.base_url) as root, pytest.raises(WalkTokenError) as caught:
        root.recipes.walk(resume=token)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def format_1(token: str) -> str:
    """The token a wadlclient of format 1 wrote for the same place: no walk id, no page."""
    position = decode_token(token)
    body = base64.urlsafe_b64decode(token[3:] + "==")[:-4]
    page_bytes = max(1, (position.page.bit_length() + 6) // 7)
    body = body[: len(body) - 1 - len(position.walk) - page_bytes]
    body += digest(body.hex(), 4)
    return "w1." + base64.urlsafe_b64encode(body).rstrip(b"=").decode("ascii")


def test_a_token_of_format_1_still_resumes(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        everything = links(root.recipes)
        walk = root.recipes.walk()
        before = [next(walk).self_link for _ in range(14)]
        old = format_1(walk.token)
        walk.close()

        assert decode_token(old) == decode_token(walk.token)._replace(walk=b"", page=0)
        assert before + links(root.recipes.walk(resume=old)) == everything


def test_a_token_changed_by_one_character_is_damaged(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        walk = root.recipes.walk()
        next(walk)
        token = walk.token
        changed = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
        with pytest.raises(WalkTokenError, match="damaged"):
            root.recipes.walk(resume=changed)


def test_a_token_of_another_collection_is_refused(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        walk = root.cookbooks.walk()
        next(walk)
        with pytest.raises(WalkTokenError, match="another collection"):
            root.recipes.walk(resume=walk.token)


def test_a_token_of_another_service_is_refused(
    service: RunningService, cookbook_service_factory: Callable[..., RunningService]
) -> None:
    other = cookbook_service_factory(seed_recipes=60, page_size=PAGE + 1)
    with ServiceRoot(None, other.base_url) as root:
        walk = root.recipes.walk()
        next(walk)
        token = walk.token
    with ServiceRoot(None, service.base_url) as root, pytest.raises(WalkTokenError) as caught:
        root.recipes.walk(resume=token)
    assert "another service" in str(caught.value)


def test_a_token_holds_no_url_and_no_secret(service: RunningService) -> None:
    with ServiceRoot(None, service.base_url) as root:
        walk = root.recipes.walk()
        entry = next(walk)
        raw = base64.urlsafe_b64decode(walk.token[3:] + "==")
    assert b"127.0.0.1" not in raw and b"recipes" not in raw
    assert entry.self_link.encode() not in raw
