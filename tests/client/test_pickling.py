"""Everything a job hands around pickles, and no secret goes with it (issue 41).

Entries (with their representation), collections, walks, shards and the
service root pickle; the bytes hold no credential; another real process
loads them without a request and uses them with the credentials it was
given or finds in its environment, never with the pickle's.
"""

from __future__ import annotations

import base64
import multiprocessing
import operator
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cookbook_service.testing import RunningService
from wadlclient import (
    AccessToken,
    BasicHttpAuthorizer,
    CredentialsNeeded,
    OAuthAuthorizer,
    ServiceRoot,
    close_revived_roots,
    supply_credentials,
)
from wadlclient.objects.revive import cache_recipe

from .conftest import clear_journal, journal_entries

PASSWORD = "pw-Wonderland-7421"
USER = "alice-of-the-looking-glass"
CONSUMER = "app-Tea-Party"
CONSUMER_SECRET = "cs-Cheshire-1865"
TOKEN = "tok-Mad-Hatter-1871"
TOKEN_SECRET = "ts-Looking-Glass-9350"
SECRETS = (
    PASSWORD,
    USER,
    CONSUMER_SECRET,
    TOKEN,
    TOKEN_SECRET,
    base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode(),
)
CREDENTIALS_FILE = f"""[1]
consumer_key = {CONSUMER}
consumer_secret = {CONSUMER_SECRET}
access_token = {TOKEN}
access_secret = {TOKEN_SECRET}
"""


@pytest.fixture(autouse=True)
def no_revived_roots() -> Iterator[None]:
    """Each test starts and ends with no root made for unpickled objects, nothing supplied."""
    close_revived_roots()
    yield
    supply_credentials(None)
    close_revived_roots()


@pytest.fixture
def basic(
    cookbook_service_factory: Callable[..., RunningService],
    add_user: Callable[[RunningService, str, str], None],
) -> RunningService:
    service = cookbook_service_factory(auth="basic", seed_recipes=30)
    add_user(service, USER, PASSWORD)  # hashed once for the pooled service, not once a test
    return service


@pytest.fixture
def oauth(cookbook_service_factory: Callable[..., RunningService]) -> RunningService:
    service = cookbook_service_factory(auth="oauth", seed_recipes=30)
    service.add_consumer(CONSUMER, CONSUMER_SECRET)
    service.add_token(CONSUMER, TOKEN, TOKEN_SECRET)
    return service


def oauth_authorizer() -> OAuthAuthorizer:
    return OAuthAuthorizer(CONSUMER, CONSUMER_SECRET, AccessToken(TOKEN, TOKEN_SECRET))


def job(root: ServiceRoot) -> list[object]:
    """What a job hands around: an entry, a collection, a walk under way, shards, the root."""
    recipe = root.recipes[3]
    walk = root.recipes.walk()
    next(walk)
    search = root.cookbooks.find_recipes(search="Generated")
    return [recipe, root.recipes, walk, root.recipes.shards(3), search, root]


def assert_no_secret(data: bytes) -> None:
    for secret in SECRETS:
        assert secret.encode() not in data, secret


def test_what_a_job_hands_around_pickles_without_a_secret(
    basic: RunningService, oauth: RunningService
) -> None:
    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), basic.base_url) as root:
        assert_no_secret(pickle.dumps(job(root)))
    with ServiceRoot(oauth_authorizer(), oauth.base_url) as root:
        assert_no_secret(pickle.dumps(job(root)))


def test_credentials_in_the_service_url_do_not_go_into_the_pickle(basic: RunningService) -> None:
    address = basic.base_url.replace("http://", f"http://{USER}:{PASSWORD}@")
    with ServiceRoot(None, address) as root:
        assert_no_secret(pickle.dumps(job(root)))


def test_a_redis_cache_is_named_without_its_password() -> None:
    assert cache_recipe(f"redis://:{PASSWORD}@127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert cache_recipe(f"redis://{USER}:{PASSWORD}@h:1/2?password={PASSWORD}") == "redis://h:1/2"


#: Loads a pickle (no request), says so and waits; then uses it and prints what it read.
CHILD = """
import pickle, sys
from wadlclient import supply_credentials
recipe, recipes, walk, shards, search, root = pickle.loads(open(sys.argv[1], "rb").read())
print("loaded", flush=True)
sys.stdin.readline()
if len(sys.argv) > 2:
    from wadlclient import BasicHttpAuthorizer
    supply_credentials(BasicHttpAuthorizer(sys.argv[2], sys.argv[3]))
print(recipe.dish.name)
print(next(walk).self_link)
print(sum(1 for shard in shards for _ in shard), len(recipes), len(list(search)))
print(root.credentials is not None, type(root.recipes).__name__)
"""


def run_child(
    path: Path, service: RunningService, *args: str, env: dict[str, str] | None = None
) -> list[str]:
    """Run `CHILD` on the pickle at ``path``: no request while it loads; what it printed after."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    assert child.stdout is not None and child.stdin is not None
    try:
        assert child.stdout.readline() == "loaded\n"
        assert journal_entries(service) == []  # loading sent nothing
        out, err = child.communicate("go\n", timeout=120)
    finally:
        child.kill()
    assert child.returncode == 0, err[-3000:]
    return out.splitlines()


def test_another_process_loads_without_a_request_and_uses_the_credentials_it_supplies(
    basic: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), basic.base_url) as root:
        path = tmp_path / "job.pickle"
        path.write_bytes(pickle.dumps(job(root)))
        found = len(root.cookbooks.find_recipes(search="Generated"))
        expected = [
            root.recipes[3].dish.name,
            root.recipes[1].self_link,
            f"{len(root.recipes)} {len(root.recipes)} {found}",
            "True Collection",
        ]
        clear_journal(basic)

    assert run_child(path, basic, USER, PASSWORD) == expected
    assert {entry.auth_scheme for entry in journal_entries(basic)} == {"Basic"}


def test_another_process_finds_oauth_credentials_in_its_environment(
    oauth: RunningService, tmp_path: Path
) -> None:
    with ServiceRoot(oauth_authorizer(), oauth.base_url) as root:
        path = tmp_path / "job.pickle"
        path.write_bytes(pickle.dumps(job(root)))
        name = root.recipes[3].dish.name
        clear_journal(oauth)

    lines = run_child(path, oauth, env={"WADLCLIENT_CREDENTIALS": CREDENTIALS_FILE})
    assert lines[0] == name and lines[3] == "True Collection"


def test_a_root_that_needs_credentials_and_finds_none_says_so(
    basic: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WADLCLIENT_CREDENTIALS", raising=False)
    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), basic.base_url) as root:
        data = pickle.dumps(root.recipes[3])
    recipe = pickle.loads(data)  # no request, no error yet

    with pytest.raises(CredentialsNeeded) as caught:
        recipe.dish  # noqa: B018 (reading a link makes the root)
    message = str(caught.value)
    assert "\n" not in message and basic.base_url in message
    assert "supply_credentials" in message and "WADLCLIENT_CREDENTIALS" in message


def test_a_root_pickled_without_credentials_comes_back_without_them(
    cookbook_service: RunningService,
) -> None:
    supply_credentials(BasicHttpAuthorizer(USER, PASSWORD))
    with ServiceRoot(None, cookbook_service.base_url) as root:
        data = pickle.dumps(root)
        clear_journal(cookbook_service)
    again = pickle.loads(data)
    assert len(again.recipes) > 0 and again.credentials is None
    assert {entry.auth_scheme for entry in journal_entries(cookbook_service)} == {None}


def test_an_unpickled_entry_keeps_its_unsaved_changes(cookbook_service: RunningService) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root:
        recipe = root.recipes[0]
        recipe.instructions = "Stir twice."
        again = pickle.loads(pickle.dumps(recipe))
        again.lp_save()
        assert root.recipes[0].instructions == "Stir twice."


def test_a_process_pool_walks_pickled_shards_and_entries_with_supplied_credentials(
    basic: RunningService,
) -> None:
    """multiprocessing's spawned workers get credentials from their initializer, not the pickle."""
    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), basic.base_url) as root:
        expected = [recipe.self_link for recipe in root.recipes]
        shards = root.recipes.shards(3)
        context = multiprocessing.get_context("spawn")
        credentials = BasicHttpAuthorizer(USER, PASSWORD)
        with context.Pool(2, initializer=supply_credentials, initargs=(credentials,)) as pool:
            parts = pool.map(list, shards)
            names = pool.map(operator.attrgetter("dish.name"), parts[0][:3])
        # Entries the workers send back use this process's own root while it is open.
        assert names == [recipe.dish.name for recipe in parts[0][:3]]

    assert [entry.self_link for part in parts for entry in part] == expected


#: A root used before and after a fork: the child must not write on the parent's connection.
FORK = """
import os, sys
from wadlclient import ServiceRoot
root = ServiceRoot(None, sys.argv[1])
first, second = root.recipes[0].self_link, root.recipes[1].self_link  # a connection now idle
transport = root.load(first)._session.transport
ready, go = os.pipe()
pid = os.fork()
if pid == 0:
    early = transport.begin("GET", first)  # written now, read later
    os.write(go, b"x")
    os._exit(0 if early.result().json()["self_link"] == first else 3)
os.read(ready, 1)
got = root.load(second).self_link
_, status = os.waitpid(pid, 0)
print(got == second, os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_does_not_share_its_parents_connections(
    cookbook_service: RunningService,
) -> None:
    # Answers come late, so the parent writes its request before the child's answer arrives
    # (a connection with an answer waiting is taken for a stale one and not reused).
    with cookbook_service.delayed(200):
        done = subprocess.run(
            [sys.executable, "-c", FORK, cookbook_service.base_url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["True", "0"]


def test_an_unpickled_entry_outlives_the_root_of_this_process_it_used(
    cookbook_service: RunningService,
) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root:
        recipe = pickle.loads(pickle.dumps(root.recipes[0]))
        recipes = pickle.loads(pickle.dumps(root.recipes))
        name = recipe.dish.name  # through this process's open root
        count = len(list(recipes))
    # That root is closed now: the next request makes a root of their own.
    recipe.lp_refresh()
    assert recipe.dish.name == name and len(list(recipes)) == count


def test_credentials_are_supplied_per_service_or_made_by_a_function(
    basic: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WADLCLIENT_CREDENTIALS", raising=False)
    with ServiceRoot(BasicHttpAuthorizer(USER, PASSWORD), basic.base_url) as root:
        data = pickle.dumps(root.recipes[3])
        name = root.recipes[3].dish.name

    supply_credentials(BasicHttpAuthorizer(USER, PASSWORD), "http://example.invalid/")
    with pytest.raises(CredentialsNeeded):
        pickle.loads(data).dish  # noqa: B018 (supplied for another service only)

    made: list[BasicHttpAuthorizer] = []

    def login() -> BasicHttpAuthorizer:
        made.append(BasicHttpAuthorizer(USER, PASSWORD))
        return made[-1]

    supply_credentials(login, basic.base_url)
    recipe = pickle.loads(data)
    assert recipe.dish.name == name and pickle.loads(data).dish.name == name
    assert len(made) == 1  # one root made for the service in this process
