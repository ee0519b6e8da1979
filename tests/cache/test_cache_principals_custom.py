"""An authorizer written elsewhere is a principal too, whatever it declares (issue 40).

The docs' own example (``Bearer``, a subclass of `HttpAuthorizer` that sets
``Authorization: Bearer <token>`` and says nothing of a principal) signs
as two users over one directory and one real Redis; the service's journal
shows that neither is ever given the other's answer or sends the other's
validators, that an anonymous caller gets neither, and that the token is
nowhere in the store.
"""

from __future__ import annotations

import base64
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from tests.cache.docs_bearer import docs_bearer
from tests.cache.test_cache_principals import KEPT_TO_ONE
from tests.cache.whose import BEARERS, Seen, WhoseService
from tests.newcomer.docblocks import ROOT

from wadlclient import BasicHttpAuthorizer, HttpAuthorizer
from wadlclient.cache import CacheRules, HTTPCache, RedisStore, StoreCache
from wadlclient.http import Transport
from wadlclient.lazr.restfulclient.authorize import BasicHttpAuthorizer as LazrBasic
from wadlclient.lazr.restfulclient.authorize import HttpAuthorizer as LazrHttpAuthorizer

TOKEN = {user: token for token, user in BEARERS.items()}
#: Answers a shared cache must keep to one principal, and the one the issue found given away.
CASES = (*KEPT_TO_ONE, "public-vary-authorization")


Bearer = docs_bearer()


@pytest.fixture
def whose() -> Any:
    with WhoseService().running() as service:
        yield service


@pytest.fixture(params=["disk", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the shared cache lives: a directory or a real Redis (emptied)."""
    if request.param == "disk":
        return str(tmp_path / "shared")
    url: str = request.getfixturevalue("empty_redis")
    return url


def cache_over(store: str) -> CacheRules:
    """Another worker's cache over ``store``."""
    if store.startswith("redis://"):
        return StoreCache(RedisStore(store), owns_store=True)
    return HTTPCache(store)


def read(whose: WhoseService, store: str, authorizer: object, case: str) -> str:
    """The user whose data a new worker with ``authorizer`` was given for ``case``."""
    with Transport(authorizer=authorizer, cache=cache_over(store)) as transport:  # type: ignore[arg-type]
        user: str = transport.request("GET", whose.url(case)).json()["user"]
    return user


def stored_bytes(store: str) -> bytes:
    """Everything the store holds: every file's name and bytes, or every Redis key and value."""
    if store.startswith("redis://"):
        import redis

        with redis.Redis.from_url(store) as client:
            return b"".join(key + (client.get(key) or b"") for key in client.keys("*"))
    return b"".join(
        str(path).encode() + path.read_bytes() for path in Path(store).rglob("*") if path.is_file()
    )


@pytest.mark.parametrize("case", CASES)
def test_the_docs_bearer_authorizer_never_gets_another_users_answer(
    whose: WhoseService, store: str, case: str
) -> None:
    read(whose, store, Bearer(TOKEN["ann"]), case)

    given = [read(whose, store, Bearer(TOKEN["bob"]), case), read(whose, store, None, case)]

    assert given == ["bob", "anonymous"]
    bob_and_anonymous = [seen for seen in whose.seen() if seen.user != "ann"]
    assert bob_and_anonymous == [
        Seen(case, "bob", None, None, 200),
        Seen(case, "anonymous", None, None, 200),
    ]


@pytest.mark.parametrize("case", ["max-age", "public-vary-authorization"])
def test_the_docs_bearer_authorizer_reuses_its_own_answers_in_another_worker(
    whose: WhoseService, store: str, case: str
) -> None:
    read(whose, store, Bearer(TOKEN["ann"]), case)
    read(whose, store, Bearer(TOKEN["bob"]), case)

    again = read(whose, store, Bearer(TOKEN["ann"]), case)

    assert again == "ann"
    assert [seen.user for seen in whose.seen()] == ["ann", "bob"]


def test_the_docs_bearer_authorizer_revalidates_with_its_own_etag_only(
    whose: WhoseService, store: str
) -> None:
    for user in ("ann", "bob", "ann", "bob"):
        read(whose, store, Bearer(TOKEN[user]), "etag")

    assert [(seen.user, seen.if_none_match, seen.status) for seen in whose.seen()] == [
        ("ann", None, 200),
        ("bob", None, 200),
        ("ann", '"ann-v1"', 304),
        ("bob", '"bob-v1"', 304),
    ]


def test_no_token_can_be_read_back_from_the_store(whose: WhoseService, store: str) -> None:
    for user in ("ann", "bob"):
        for case in ("max-age", "etag", "public-vary-authorization"):
            read(whose, store, Bearer(TOKEN[user]), case)

    held = stored_bytes(store)

    assert held, "the answers were stored"
    for token in BEARERS:
        for form in (token, base64.b64encode(token.encode()).decode(), f"Bearer {token}"):
            assert form.encode() not in held


def test_a_worker_in_another_process_finds_its_own_answer_without_asking(
    whose: WhoseService, tmp_path: Path
) -> None:
    """The derived principal is the same in every process holding the same token."""
    store = str(tmp_path / "shared")
    read(whose, store, Bearer(TOKEN["ann"]), "max-age")
    script = textwrap.dedent(
        f"""
        from tests.cache.docs_bearer import docs_bearer
        from wadlclient.cache import HTTPCache
        from wadlclient.http import Transport
        Bearer = docs_bearer()  # without importing pytest and this module (a third of a second)
        with Transport(authorizer=Bearer({TOKEN["ann"]!r}), cache=HTTPCache({store!r})) as t:
            print(t.request("GET", {whose.url("max-age")!r}).json()["user"])
        """
    )

    child = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )

    assert child.stdout.strip() == "ann"
    assert [seen.user for seen in whose.seen()] == ["ann"]


class SignsAfresh(HttpAuthorizer):
    """A bearer token with a nonce on every request: what it sends never repeats."""

    def __init__(self, token: str) -> None:
        self.token = token

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: object, headers: MutableMapping[str, str]
    ) -> None:
        headers["Authorization"] = f"Bearer {self.token}, nonce={uuid.uuid4().hex}"


def test_an_authorizer_that_signs_afresh_keeps_its_answers_to_itself(
    whose: WhoseService, tmp_path: Path
) -> None:
    cache = HTTPCache(tmp_path / "shared")
    first, second = SignsAfresh(TOKEN["ann"]), SignsAfresh(TOKEN["ann"])
    with (
        Transport(authorizer=first, cache=cache) as one,
        Transport(authorizer=second, cache=cache) as other,
    ):
        for transport in (one, one, other, one):
            transport.request("GET", whose.url("max-age"))

    assert [seen.user for seen in whose.seen()] == ["ann", "ann"]


class BasicButBearer(BasicHttpAuthorizer):
    """Inherits Basic's declared principal, but sends a bearer token instead."""

    def __init__(self, token: str) -> None:
        super().__init__("same-user", "same-password")
        self.token = token

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: object, headers: MutableMapping[str, str]
    ) -> None:
        headers["Authorization"] = f"Bearer {self.token}"


class LazrBearer(LazrHttpAuthorizer):
    """A lazr.restfulclient script's authorizer, on the compatibility layer's base class."""

    def __init__(self, token: str) -> None:
        self.token = token

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: object, headers: MutableMapping[str, str]
    ) -> None:
        headers["authorization"] = f"Bearer {self.token}"


@pytest.mark.parametrize("kind", [BasicButBearer, LazrBearer], ids=["basic-subclass", "lazr"])
def test_a_principal_inherited_from_another_way_of_signing_is_not_trusted(
    whose: WhoseService, store: str, kind: Callable[[str], object]
) -> None:
    read(whose, store, kind(TOKEN["ann"]), "max-age")

    given = read(whose, store, kind(TOKEN["bob"]), "max-age")

    assert given == "bob"
    assert [seen.user for seen in whose.seen()] == ["ann", "bob"]


def test_the_null_authorizer_sends_nothing_so_it_is_anonymous(
    whose: WhoseService, tmp_path: Path
) -> None:
    store = str(tmp_path / "shared")
    read(whose, store, None, "max-age")

    given = [read(whose, store, HttpAuthorizer(), "max-age"), read(whose, store, None, "max-age")]

    assert given == ["anonymous", "anonymous"]
    assert [seen.user for seen in whose.seen()] == ["anonymous"]


def test_the_lazr_basic_authorizer_keeps_basics_principal() -> None:
    """It only spells the header ``authorization``; its credentials are Basic's."""
    from wadlclient.http.principals import declared_principal

    assert declared_principal(LazrBasic("ada", "pw")) == BasicHttpAuthorizer("ada", "pw").principal


class SaysAnonymousButSendsAToken(HttpAuthorizer):
    """Declares None (as the docs say anonymous callers do), yet sends a bearer token."""

    principal = None

    def __init__(self, token: str) -> None:
        self.token = token

    def authorizeRequest(
        self, absolute_uri: str, method: str, body: object, headers: MutableMapping[str, str]
    ) -> None:
        headers["Authorization"] = f"Bearer {self.token}"


def test_anonymous_means_no_credential_sent_whatever_the_authorizer_declares(
    whose: WhoseService, store: str
) -> None:
    read(whose, store, SaysAnonymousButSendsAToken(TOKEN["ann"]), "max-age")

    given = [
        read(whose, store, None, "max-age"),
        read(whose, store, SaysAnonymousButSendsAToken(TOKEN["bob"]), "max-age"),
    ]

    assert given == ["anonymous", "bob"]
    assert [seen.user for seen in whose.seen()] == ["ann", "anonymous", "bob"]
