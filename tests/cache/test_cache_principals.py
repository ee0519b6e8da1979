"""One store, many principals: an authorized answer is kept for the principal that asked.

Two real principals (``ann`` and ``bob``, different OAuth tokens) ask a
real service whose answer for a URL depends on who asks (`whose`), through
real transports sharing one store: a directory, memory, Redis, or a store
written to the documented interface. The service's journal shows what
each one sent: bob never gets ann's answer unless it says it may be
shared (RFC 9111 3.5), and never sends ann's validators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.cache.whose import CONSUMER, SHAREABLE, Seen, WhoseService, authorizer

from wadlclient import AccessToken, OAuthAuthorizer, Unauthorized
from wadlclient.cache import CacheRules, HTTPCache, MemoryStore, RedisStore, StoreCache
from wadlclient.http import Transport

STORES = ("disk", "memory", "redis", "custom")
#: The issue's table, and the other answers a shared cache must keep to one principal.
KEPT_TO_ONE = (
    "max-age", "expires", "private", "vary-authorization", "etag", "last-modified", "no-store",
)  # fmt: skip


class DictStore:
    """A store written to the documented interface (docs/cache-backends.md), nothing more."""

    private = False

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def load(self, name: str) -> bytes | None:
        return self.data.get(name)

    def save(self, name: str, data: bytes) -> None:
        self.data[name] = data

    def remove(self, name: str) -> None:
        self.data.pop(name, None)

    def exists(self, name: str) -> bool:
        return name in self.data

    def close(self) -> None:
        pass


@pytest.fixture
def whose() -> Iterator[WhoseService]:
    with WhoseService().running() as service:
        yield service


@pytest.fixture(params=STORES)
def new_cache(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], CacheRules]:
    """Each call: another worker's cache over the one store of the test."""
    kind = request.param
    if kind == "disk":
        return lambda: HTTPCache(tmp_path / "shared")
    if kind == "redis":
        url = request.getfixturevalue("empty_redis")
        return lambda: StoreCache(RedisStore(url), owns_store=True)
    store = MemoryStore() if kind == "memory" else DictStore()
    return lambda: StoreCache(store)


@pytest.fixture
def client(new_cache: Callable[[], CacheRules]) -> Iterator[Callable[..., Transport]]:
    """``client(user)``: a transport signing as ``user`` ("ann", "bob"; else anonymous).

    ``user`` None: a transport with no authorizer at all.
    """
    made: list[Transport] = []

    def make(user: str | None, **options: object) -> Transport:
        signer = None if user is None else authorizer(user)
        transport = Transport(authorizer=signer, cache=new_cache(), **options)  # type: ignore[arg-type]
        made.append(transport)
        return transport

    yield make
    for transport in made:
        transport.close()


def _read(transport: Transport, whose: WhoseService, case: str) -> str:
    """The user whose data ``transport`` was given for ``case``."""
    user: str = transport.request("GET", whose.url(case)).json()["user"]
    return user


def _sent(whose: WhoseService, user: str) -> list[Seen]:
    return [seen for seen in whose.seen() if seen.user == user]


@pytest.mark.parametrize("case", KEPT_TO_ONE)
def test_another_principal_never_gets_an_answer_kept_for_one(
    whose: WhoseService, client: Callable[..., Transport], case: str
) -> None:
    _read(client("ann"), whose, case)

    given = _read(client("bob"), whose, case)

    assert given == "bob"
    assert _sent(whose, "bob") == [Seen(case, "bob", None, None, 200)]


@pytest.mark.parametrize("case", ["max-age", "expires", "private", "vary-authorization"])
def test_a_principal_still_reuses_its_own_fresh_answers(
    whose: WhoseService, client: Callable[..., Transport], case: str
) -> None:
    _read(client("ann"), whose, case)
    _read(client("bob"), whose, case)

    again = _read(client("ann"), whose, case)

    assert again == "ann"
    assert [seen.user for seen in whose.seen()] == ["ann", "bob"]


@pytest.mark.parametrize(
    ("case", "validator"),
    [("etag", '"ann-v1"'), ("last-modified", "Sun, 13 Sep 2020 12:26:40 GMT")],
)
def test_a_principal_revalidates_its_own_entry_with_its_own_validator(
    whose: WhoseService, client: Callable[..., Transport], case: str, validator: str
) -> None:
    _read(client("ann"), whose, case)
    _read(client("bob"), whose, case)

    again = _read(client("ann"), whose, case)

    assert again == "ann"
    sent = _sent(whose, "ann")[1]
    assert (sent.if_none_match or sent.if_modified_since, sent.status) == (validator, 304)


def test_a_no_store_answer_is_never_stored(
    whose: WhoseService, client: Callable[..., Transport]
) -> None:
    _read(client("ann"), whose, "no-store")

    _read(client("ann"), whose, "no-store")

    assert _sent(whose, "ann") == [Seen("no-store", "ann", None, None, 200)] * 2


@pytest.mark.parametrize("case", SHAREABLE)
def test_an_answer_that_says_it_may_be_shared_serves_every_principal(
    whose: WhoseService, client: Callable[..., Transport], case: str
) -> None:
    _read(client("ann"), whose, case)

    given = [_read(client(user), whose, case) for user in ("bob", "anonymous")]

    assert given == ["ann", "ann"]  # the server said so (RFC 9111 3.5)
    assert [seen.user for seen in whose.seen()] == ["ann"]


@pytest.mark.parametrize("case", ["public-stale", "s-maxage-zero"])
def test_a_shared_entry_past_its_lifetime_is_not_revalidated_with_anothers_validators(
    whose: WhoseService, client: Callable[..., Transport], case: str
) -> None:
    _read(client("ann"), whose, case)

    given = _read(client("bob"), whose, case)

    assert given == "bob"
    assert _sent(whose, "bob") == [Seen(case, "bob", None, None, 200)]


def test_s_maxage_is_the_lifetime_of_a_shared_entry_and_max_age_of_ones_own(
    whose: WhoseService, client: Callable[..., Transport]
) -> None:
    """``s-maxage=0, max-age=3600``: stale where shared, fresh for the principal that asked."""
    _read(client("ann"), whose, "s-maxage-zero")
    _read(client("bob"), whose, "s-maxage-zero")

    again = _read(client("bob"), whose, "s-maxage-zero")

    assert again == "bob"
    assert [seen.if_none_match for seen in _sent(whose, "bob")] == [None, '"bob-v1"']


def test_anonymous_answers_are_shared_by_anonymous_callers_only(
    whose: WhoseService, client: Callable[..., Transport]
) -> None:
    _read(client("anonymous"), whose, "etag")

    given = [_read(client(None), whose, "etag"), _read(client("ann"), whose, "etag")]

    assert given == ["anonymous", "ann"]
    assert [(s.user, s.if_none_match, s.status) for s in whose.seen()] == [
        ("anonymous", None, 200),
        ("anonymous", '"anonymous-v1"', 304),
        ("ann", None, 200),
    ]


def test_vary_is_honoured_for_any_request_header(
    whose: WhoseService, client: Callable[..., Transport]
) -> None:
    """``Vary: User-Agent``: another User-Agent asks the server (and its answer is kept)."""
    _read(client("ann", base_client_name="one"), whose, "vary-user-agent")

    given = [
        _read(client("ann", base_client_name="two"), whose, "vary-user-agent"),
        _read(client("ann", base_client_name="two"), whose, "vary-user-agent"),
    ]

    assert given == ["ann", "ann"]
    assert len(_sent(whose, "ann")) == 2


def test_an_authorizer_forged_from_anothers_token_key_gets_none_of_their_answers(
    whose: WhoseService, client: Callable[..., Transport], new_cache: Callable[[], CacheRules]
) -> None:
    """The token key travels in every request; without its secret it opens no cache entry."""
    _read(client("ann"), whose, "max-age")
    forged = Transport(
        authorizer=OAuthAuthorizer(CONSUMER, "", AccessToken("ann-token", "guessed")),
        cache=new_cache(),
    )

    with pytest.raises(Unauthorized):
        _read(forged, whose, "max-age")

    forged.close()
    assert [(seen.user, seen.status) for seen in whose.seen()] == [("ann", 200), ("refused", 401)]


class SignsWithoutSayingWho:
    """An authorizer of the caller's own: it signs as ann, and has no ``principal``."""

    def __init__(self) -> None:
        self._signer: OAuthAuthorizer = authorizer("ann")

    def authorizeRequest(self, uri: str, method: str, body: object, headers: object) -> None:
        self._signer.authorizeRequest(uri, method, None, headers)  # type: ignore[arg-type]

    @property
    def user_agent_params(self) -> dict[str, str]:
        return {}


def test_an_authorizer_that_does_not_say_whose_credentials_is_a_principal_of_its_own(
    whose: WhoseService, new_cache: Callable[[], CacheRules]
) -> None:
    """Its principal is derived from what it sends: ann's entries are not its, its own are kept."""
    cache = new_cache()
    ann = Transport(authorizer=authorizer("ann"), cache=cache)
    unknown = Transport(authorizer=SignsWithoutSayingWho(), cache=cache)
    _read(ann, whose, "max-age")
    _read(ann, whose, "public")

    given = [_read(unknown, whose, case) for case in ("max-age", "max-age", "public")]

    ann.close()
    unknown.close()
    assert given == ["ann", "ann", "ann"]
    assert [seen.path for seen in whose.seen()] == ["max-age", "public", "max-age"]
