"""Idioms of public launchpadlib code that read what only lazr's surface gives.

Imported by the tests (stock launchpadlib, in their process) and run as a
script on wadlclient (``python -m wadlclient.lazr_compat idioms.py``),
which prints one JSON object: idiom name -> what the code saw. Each is
written as the project it comes from writes it. The fakes of a process
share one port (`tests.stock_wadl`): in the tests' process, stock wadllib
parses their WADL once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from launchpadlib.launchpad import Launchpad
from tests.stock_wadl import fake_on_the_last_port

from wadlclient.testing import FakeEntry, FakeService, launchpad_wadl
from wadlclient.testing.launchpad import patched_launchpad

Idiom = Callable[[], dict[str, Any]]
IDIOMS: dict[str, Idiom] = {}


def idiom(function: Idiom) -> Idiom:
    IDIOMS[function.__name__] = function
    return function


@contextmanager
def launchpad() -> Iterator[tuple[FakeService, Any]]:
    """A fake of the devel WADL with Ada and her bug of three comments; a login to it."""
    with fake_on_the_last_port(launchpad_wadl()) as fake, patched_launchpad(fake):
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        fake.set_root_link("me", ada)
        bug = fake.add("bugs", title="It breaks", owner=ada)
        for number in range(1, 4):
            fake.add_to(bug, "messages", content=f"comment {number}", owner=ada)
        yield fake, Launchpad.login_with("idioms", "production", version="devel")


@idiom
def last_comment() -> dict[str, Any]:
    """The Launchpad manual's tutorial: ``comments[comments.total_size - 1]``."""
    with launchpad() as (_fake, lp):
        comments = lp.bugs[1].messages
        last = comments[comments.total_size - 1]
        return {
            "total_size": comments.total_size,
            "start": comments.start,
            "first": comments.entries[0]["content"],
            "last": last.content,
        }


@idiom
def root_uri() -> dict[str, Any]:
    """ubuntu-cloud-image-changelog builds URLs from ``launchpad._root_uri``."""
    with launchpad() as (fake, lp):
        return {
            "type": type(lp._root_uri).__name__,
            "bug": str(lp._root_uri.append("bugs/1")).removeprefix(fake.service_root),
            "host": lp._root_uri.host,
        }


@idiom
def subscribe_answers_a_dict() -> dict[str, Any]:
    """``bug.subscribe(person=...)``: the WADL declares no answer; Launchpad sends the entry."""
    with launchpad() as (fake, lp):

        @fake.operation("bug", "subscribe")
        def subscribe(bug: FakeEntry, /, person: FakeEntry, **_rest: Any) -> FakeEntry:
            return fake.add("bug_subscription", bug=bug, person=person)

        result = lp.bugs[1].subscribe(person=lp.people["ada"])
        return {
            "type": type(result).__name__,
            "person_link": result["person_link"].removeprefix(fake.base),
        }


@idiom
def search_results_entries() -> dict[str, Any]:
    """launchpadtools reads a named operation's result through ``.entries``."""
    with launchpad() as (fake, lp):

        @fake.operation("people", "find")
        def find(_people: str, /, text: str) -> list[FakeEntry]:
            return [entry for entry in fake.store.members("people") if text in entry["name"]]

        found = lp.people.find(text="ad")
        return {
            "names": [entry["name"] for entry in found.entries],
            "total_size": found.total_size,
            "by_name": lp.people.lp_get_named_operation("find")(text="ad").total_size,
        }


@idiom
def parameters_by_name() -> dict[str, Any]:
    """``lp_get_parameter``, ``lp_refresh`` and the class constants, as lazr's own docs show."""
    with launchpad() as (_fake, lp):
        bug = lp.bugs[1]
        lp.lp_refresh()
        bug.messages.lp_refresh()
        return {
            "title": bug.lp_get_parameter("title"),
            "owner": bug.lp_get_parameter("owner").name,
            "people": lp.lp_get_parameter("people").lp_get_named_operation("find") is not None,
            "media_type": type(bug).JSON_MEDIA_TYPE,
            "kinds": len({bug.FIND_ATTRIBUTES, bug.FIND_COLLECTIONS, bug.FIND_ENTRIES}),
        }


def outcome(run: Idiom) -> dict[str, Any]:
    """What an idiom saw, or what it raised (so one failing idiom fails one test)."""
    try:
        return run()
    except Exception as error:  # the test shows it
        return {"raised": f"{type(error).__name__}: {error}"}


if __name__ == "__main__":
    print(json.dumps({name: outcome(run) for name, run in IDIOMS.items()}))
