"""launchpadlib flows against a fake of Launchpad's devel WADL, each with its own fake.

Imported by the tests (stock launchpadlib, in their process) and run as a
script on wadlclient (``python -m wadlclient.lazr_compat lp_flows.py``),
which prints one JSON object: flow name -> what the flow saw. The code
under test is written as a project would, against ``"production"``. The
fakes of a process share one port (`tests.stock_wadl`): in the tests'
process, stock wadllib parses their WADL once.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from launchpadlib.launchpad import Launchpad
from lazr.restfulclient.errors import HTTPError
from tests.stock_wadl import fake_on_the_last_port

from wadlclient.testing import FakeEntry, FakeService, HTTPException, launchpad_wadl
from wadlclient.testing.launchpad import patched_launchpad

Flow = Callable[[], dict[str, Any]]
FLOWS: dict[str, Flow] = {}


def flow(function: Flow) -> Flow:
    FLOWS[function.__name__] = function
    return function


@contextmanager
def launchpad() -> Iterator[FakeService]:
    """A fake of the devel WADL with Ada, Ubuntu and its primary archive, logins patched."""
    with fake_on_the_last_port(launchpad_wadl()) as fake, patched_launchpad(fake):
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        ubuntu = fake.add("distributions", name="ubuntu")
        fake.add("archives", name="primary", distribution=ubuntu)
        frobnicator = fake.add("projects", name="frobnicator")
        repository = fake.add("git_repositories", name="frob", owner=ada, target=frobnicator)
        fake.add("git_ref", repository=repository, path="refs/heads/main")
        yield fake


def login() -> Any:
    return Launchpad.login_with("remote-build", "production", version="devel")


def wire(fake: FakeService) -> list[list[Any]]:
    return [[s.method, s.path, s.status] for s in fake.journal if s.path]


def failure(error: HTTPError) -> list[Any]:
    """What an error tells the code under test: its class, status and the fake's message."""
    body = error.content.decode() if isinstance(error.content, bytes) else str(error.content)
    return [type(error).__name__, error.response.status, body.strip()]


@flow
def links() -> dict[str, Any]:
    """Root-relative and absolute links as operation arguments, as Launchpad's docs send them."""
    received: dict[str, Any] = {}
    with launchpad() as fake:

        @fake.operation("snaps", "new")
        def new(_snaps: str, /, owner: FakeEntry, name: str, **rest: Any) -> FakeEntry:
            received["owner"], received["git_ref"] = owner.path, rest["git_ref"].path
            return fake.add("snaps", owner=owner, name=name, git_ref=rest["git_ref"])

        @fake.operation("snap", "requestBuilds")
        def request_builds(snap: FakeEntry, /, archive: FakeEntry, **rest: Any) -> FakeEntry:
            received["archive"] = archive.path
            return fake.add("snap_build_request", snap=snap)

        lp = login()
        snap = lp.snaps.new(
            owner="/~ada", name="frob", git_ref="/~ada/frobnicator/+git/frob/+ref/main"
        )
        request = snap.requestBuilds(archive="/ubuntu/+archive/primary", pocket="Updates")
        by_url = lp.snaps.getByName(owner=fake.base + "~ada", name="frob")
        try:
            lp.snaps.getByName(owner="/~nobody", name="frob")
        except HTTPError as error:
            refused = failure(error)
        return {
            "received": received,
            "snap": snap.self_link.removeprefix(fake.base),
            "request": request.self_link.removeprefix(fake.base),
            "by_url": by_url.name,
            "refused": refused,
        }


@flow
def anonymous() -> dict[str, Any]:
    """An anonymous session reads, and gets Launchpad's 401 for ``me`` and for a write."""
    with launchpad() as fake:
        fake.add("bugs", title="Crash")
        lp = Launchpad.login_anonymously("reader", "production", version="devel")
        bug = lp.bugs[1]
        title = bug.title
        try:
            print(lp.me.name)
        except HTTPError as error:
            me = failure(error)
        bug.title = "Mine now"
        try:
            bug.lp_save()
        except HTTPError as error:
            write = failure(error)
        return {"title": title, "me": me, "write": write, "wire": wire(fake)}


@flow
def logged_in_me() -> dict[str, Any]:
    """``me`` is ``people/+me``, a 303 to the person; a link to it names the person."""
    with launchpad() as fake:
        fake.set_root_link("me", fake.entry_at("~ada"))

        @fake.operation("snaps", "findByOwner")
        def find_by_owner(_snaps: str, /, owner: FakeEntry) -> list[FakeEntry]:
            return [owner] if owner.path == "~ada" else []

        lp = login()
        name = lp.me.name
        try:
            list(lp.snaps.findByOwner(owner=lp.me))
        except HTTPError as error:
            wrong_page = failure(error)
        return {
            "name": name,
            "wire": wire(fake)[:3],
            "wrong_page": wrong_page,
            "handler_errors": [str(e) for e in fake.handler_errors],
        }


@flow
def answers() -> dict[str, Any]:
    """Handlers answer errors with HTTPException, and values as the WADL declares them."""
    with launchpad() as fake:
        ada = fake.entry_at("~ada")
        snap = fake.add("snaps", owner=ada, name="frob")
        build = fake.add_to(snap, "builds", snap=snap, buildstate="Successfully built")

        @fake.operation("snaps", "getByName")
        def get_by_name(_snaps: str, /, owner: FakeEntry, name: str) -> FakeEntry:
            if name != "frob":
                raise HTTPException(404, f"No such snap package with this owner: '{name}'.")
            return snap

        @fake.operation("snap_build", "cancel")
        def cancel(build: FakeEntry, /) -> None:
            raise HTTPException(400, "Cannot cancel a build that is Successfully built.")

        @fake.operation("snap_build", "getFileUrls")
        def file_urls(build: FakeEntry, /) -> list[str]:
            return ["https://launchpad.test/frob_1.0_amd64.snap"]

        @fake.operation("snaps", "findByOwner")
        def find_by_owner(_snaps: str, /, owner: FakeEntry) -> list[FakeEntry]:
            return [snap]

        lp = login()
        found = lp.snaps.getByName(owner=lp.people["ada"], name="frob")
        try:
            lp.snaps.getByName(owner=lp.people["ada"], name="nope")
        except HTTPError as error:
            missing = failure(error)
        seen = lp.load(fake.url_of(build))
        try:
            seen.cancel()
        except HTTPError as error:
            cancelled = failure(error)
        return {
            "found": found.name,
            "missing": missing,
            "cancelled": cancelled,
            "file_urls": seen.getFileUrls(),
            "owned": [s.name for s in lp.snaps.findByOwner(owner=lp.people["ada"])],
            "handler_errors": len(fake.handler_errors),
        }


@flow
def shapes() -> dict[str, Any]:
    """Entries live at Launchpad's URLs; launchpadlib's key look-ups reach them."""
    with launchpad() as fake:
        ada = fake.entry_at("~ada")
        frobnicator = fake.entry_at("frobnicator")
        snap = fake.add("snaps", owner=ada, name="frob")
        charm = fake.add("charm_recipes", owner=ada, project=frobnicator, name="frob-charm")
        rock = fake.add("rock_recipes", owner=ada, project=frobnicator, name="frob-rock")
        bug = fake.add("bugs", title="Crash")
        fake.add_to(bug, "bug_tasks", bug=bug, target=frobnicator)
        fake.add_to(ada, "ppas", distribution=fake.entry_at("ubuntu"), name="ppa")
        fake.add_to(snap, "builds", snap=snap)
        fake.add("snap_build_request", snap=snap)
        lp = login()
        return {
            "lookups": [
                lp.people["ada"].self_link,
                lp.projects["frobnicator"].self_link,
                lp.bugs[1].self_link,
                lp.distributions["ubuntu"].self_link,
            ],
            "seeded": sorted(fake.store.entries),
            "loaded": [
                lp.load(fake.base + path).self_link.removeprefix(fake.base)
                for path in (charm.path, rock.path, "~ada/frobnicator/+git/frob/+ref/main")
            ],
            "listed": [[s.name for s in lp.snaps], [d.name for d in lp.distributions]],
            "wire": wire(fake)[-2:],
            "base": fake.base,
        }


@flow
def canonical_names() -> dict[str, Any]:
    """A name in upper case is redirected to its lower-case one, query and all."""
    with launchpad() as fake:

        @fake.operation("distribution", "searchTasks")
        def search_tasks(ubuntu: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
            return []

        lp = login()
        name = lp.distributions["Ubuntu"].name
        person = lp.people["Ada"].name
        found = list(lp.load(fake.base + "Ubuntu").searchTasks(status=["New"]))
        calls = [[s.path, s.status, s.ws_op] for s in fake.journal if s.path]
        return {"names": [name, person], "found": found, "calls": calls}


@flow
def other_version() -> dict[str, Any]:
    """Code that logs in with launchpadlib's default version (1.0) is not served devel."""
    with launchpad():
        try:
            Launchpad.login_with("remote-build", "production")
        except HTTPError as error:
            return {"refused": failure(error)}
    return {"refused": None}


def lazr_root_routed() -> dict[str, Any]:
    """launchpadlib's root on wadlclient under `routed_to` alone, launchpadlib unpatched.

    Only on wadlclient (whose lazr.restfulclient asks the address hook): stock
    lazr.restfulclient is untouched by `routed_to`, so it is not in ``FLOWS``.
    """
    from launchpadlib.credentials import AnonymousAccessToken, Credentials

    from wadlclient.testing import routed_to

    with fake_on_the_last_port(launchpad_wadl()) as fake, routed_to(fake):
        fake.add("people", name="ada", display_name="Ada Lovelace")
        credentials = Credentials("reader", access_token=AnonymousAccessToken())
        lp = Launchpad(credentials, None, None, "production", proxy_info=None, version="devel")
        root_uri = str(lp._root_uri)  # what a program building URLs by hand starts from
        name = lp.people["ada"].display_name
        return {"name": name, "root_is_the_fake": root_uri == fake.base, "wire": wire(fake)}


def main(names: list[str]) -> None:
    flows = {**FLOWS, "lazr_root_routed": lazr_root_routed}
    print(json.dumps({name: flows[name]() for name in names or flows}))


if __name__ == "__main__":
    main(sys.argv[1:])
