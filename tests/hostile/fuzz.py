"""The end-to-end fuzzer: generated WADL, root JSON and pages, served for real over loopback.

Every example starts a `ServiceRoot` on the hostile server (which serves
what hypothesis drew), then walks, counts, indexes and slices each
collection and reads a field of each entry met. The pages are drawn once
the root has given a collection to read them from: reading a top-level
collection sends nothing (SPEC, lazy fetching, rule 2), so no page is
asked for before, and most examples (a broken WADL, a root document with
no usable link) never ask for one; drawing pages for those cost most of
the test's time and reached nothing. The only exceptions
allowed out are `RestfulError` (and its subclasses), plus Python's own
protocol errors where the protocol asks for them: `AttributeError` for a
link the root does not have, `IndexError` past the end of a collection.

Each action must end: the server answers at most `ACTION_REQUESTS`
requests for the collections per action (then a 404, so that an action
that would loop forever ends too) and the example fails past them, as
a hang (issue 40: a walk kept going by a next link repeating between its
re-reads). Some pages are drawn as a chain of offsets (`chains`), the
shape that reaches the walk's re-reads; pages of any JSON rarely do.

`tests/hostile/test_fuzz.py` runs it in the suite with a fixed seed; a
longer run, for a nightly job (``make fuzz``)::

    python -m tests.hostile.fuzz --minutes 10
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from tests.hostile.server import (
    WADL_TYPE,
    Exchange,
    HostileServer,
    default_root,
    running_server,
)

from cookbook_service.wadl import generate_wadl
from wadlclient import ServiceRoot
from wadlclient.errors import RestfulError
from wadlclient.objects import Collection

COLLECTIONS = ("recipes", "dishes", "cookbooks")
#: Requests for the collections one action may cause (an honest bound: a walk over
#: the few offsets drawn sends a few dozen at most); past them the server answers 404.
ACTION_REQUESTS = 100

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=20),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


# The strategies that take the server's address are built once per address
# (functools.cache): a strategy built afresh for every draw works out its
# properties again each time, which cost more than the examples' HTTP. The
# distribution drawn from is the same.


@functools.cache
@st.composite
def links(draw: st.DrawFn, base: str) -> Any:
    """A link as a hostile server might write it: good, relative, foreign, odd, or not a string."""
    return draw(
        st.one_of(
            st.sampled_from(
                [
                    base + "/1.0/recipes",
                    base + "/1.0/recipes?ws.start=1",
                    base + "/1.0/recipes?ws.start=0&ws.size=1",
                    base + "/1.0/recipes?ws.start=zz",
                    base + "/1.0/cookbooks/x",
                    "/1.0/recipes",
                    "file:///etc/passwd",
                    "http://[::1",
                    "http://127.0.0.1:99999/",
                    "",
                ]
            ),
            json_values,
        )
    )


@functools.cache
@st.composite
def entries(draw: st.DrawFn, base: str) -> Any:
    """An entry (half the time) or any JSON; an entry's fields are drawn only when it is one."""
    if not draw(st.booleans()):
        return draw(json_values)
    return {
        "self_link": draw(links(base)),
        "resource_type_link": draw(
            st.sampled_from(["#recipe", "#cookbook", "#dish", "#nothing", 7, base + "/1.0/#recipe"])
        ),
        "title": draw(json_values),
        "price": draw(json_values),
        "copyright_date": draw(json_values),
        "http_etag": draw(json_values),
    }


@functools.cache
@st.composite
def chains(draw: st.DrawFn, base: str) -> bytes:
    """A page that pages: an offset, a next link to an offset, a size or not, any entries."""
    url = base + "/1.0/recipes"
    document: dict[str, Any] = {
        "entries": draw(st.lists(entries(base), max_size=3)),
        "start": draw(st.integers(0, 3)),
    }
    if draw(st.integers(0, 3)):
        document["next_collection_link"] = f"{url}?ws.start={draw(st.integers(0, 3))}"
    if draw(st.booleans()):
        document["total_size"] = draw(st.integers(0, 8))
    return json.dumps(document).encode()


@functools.cache
@st.composite
def pages(draw: st.DrawFn, base: str) -> bytes:
    """A chain (half the time), or a page of any fields: whole, cut short, too deep, or other JSON.

    The shape is drawn first: a page too deep or of other JSON draws no fields it would not send.
    """
    if draw(st.booleans()):
        return draw(chains(base))
    shape = draw(st.sampled_from(["json", "json", "json", "broken", "deep", "other"]))
    if shape == "deep":
        return b'{"entries": ' + b"[" * 5000
    if shape == "other":
        return json.dumps(draw(json_values)).encode()
    document: dict[str, Any] = {"entries": draw(st.lists(entries(base), max_size=4))}
    for key in ("start", "total_size", "next_collection_link", "total_size_link"):
        if draw(st.booleans()):
            value = draw(st.one_of(st.integers(-3, 10), st.just(2**70), links(base), json_values))
            document[key] = value
    if shape == "broken":
        return json.dumps(document).encode()[: draw(st.integers(0, 40))]
    return json.dumps(document).encode()


@functools.cache
def _wadl(root: str) -> bytes:
    """The cookbook WADL for ``root``, made once: an example damages its own copy."""
    return generate_wadl(root, WADL_TYPE)


@functools.cache
@st.composite
def wadls(draw: st.DrawFn, root: str) -> bytes:
    wadl = _wadl(root)
    change = draw(st.sampled_from(["none", "none", "cut", "splice", "href"]))
    if change == "cut":
        start = draw(st.integers(0, len(wadl)))
        return wadl[:start] + wadl[start + draw(st.integers(1, 200)) :]
    if change == "splice":
        at = draw(st.integers(0, len(wadl)))
        return wadl[:at] + draw(st.binary(max_size=30)) + wadl[at:]
    if change == "href":
        target = draw(st.sampled_from([b"#recipe-full", b"#service-root-json", b"#recipe-page"]))
        return wadl.replace(target, b"#missing", 1)
    return wadl


@functools.cache
def root_documents(base: str) -> st.SearchStrategy[Any]:
    """A service root's JSON: the good one, links to the three collections (good or not), any JSON.

    The good one is drawn a third of the time: the pages are reached only
    through a root that links to them.
    """
    return st.one_of(
        st.just(default_root(base + "/1.0/")),
        st.fixed_dictionaries(
            {
                "resource_type_link": st.sampled_from(
                    ["#service-root", base + "/1.0/#service-root", 3]
                ),
                **{f"{name}_collection_link": links(base) for name in COLLECTIONS},
            }
        ),
        json_values,
    )


class Requests:
    """The requests for the collections during the current action."""

    def __init__(self) -> None:
        self.count = 0


def _serve(
    hostile: HostileServer, wadl: bytes, root_json: bytes, served: list[bytes], sent: Requests
) -> None:
    """Serve ``wadl``, ``root_json``, and the collections' pages from ``served`` (drawn later)."""

    def root(exchange: Exchange) -> None:
        if "wadl" in exchange.hit.headers.get("accept", ""):
            exchange.send(200, wadl, content_type=WADL_TYPE)
        else:
            exchange.send(200, root_json)

    def collection(exchange: Exchange) -> None:
        sent.count += 1
        # No page drawn yet, or an action that does not end: what a server answers
        # for a path it has not.
        if not served or sent.count > ACTION_REQUESTS:
            exchange.json({"error": "no such route"}, status=404)
            return
        start = parse_qs(exchange.hit.query).get("ws.start", ["0"])[0]
        index = int(start) % len(served) if start.isdigit() else 0
        exchange.send(200, served[index])

    hostile.routes.clear()
    hostile.routes["/1.0/"] = root
    for name in COLLECTIONS:
        hostile.routes[f"/1.0/{name}"] = collection


def _collections(root: ServiceRoot) -> list[Collection[Any]]:
    """The root's top-level collections (reading them sends nothing)."""
    found = []
    for name in COLLECTIONS:
        try:
            collection = getattr(root, name)
        except (AttributeError, RestfulError):
            continue
        if isinstance(collection, Collection):  # else a null or odd link: the field's value
            found.append(collection)
    return found


def _exercise(collections: list[Collection[Any]], sent: Requests) -> None:
    for collection in collections:
        for action in (len, _walk, _first, _slice):
            sent.count = 0
            with contextlib.suppress(RestfulError, IndexError):
                action(collection)
            if sent.count > ACTION_REQUESTS:
                raise AssertionError(
                    f"{getattr(action, '__name__', action)}() on {collection} did not end: "
                    f"{sent.count} requests"
                )


def _walk(collection: Any) -> None:
    for entry in itertools.islice(collection, 20):
        for field in ("title", "price", "copyright_date"):
            with contextlib.suppress(AttributeError, RestfulError):
                getattr(entry, field)


def _first(collection: Any) -> None:
    collection[0]


def _slice(collection: Any) -> None:
    collection[1:4]


def run_example(hostile: HostileServer, data: st.DataObject) -> None:
    """One example: a root on what ``data`` draws, each collection exercised."""
    hostile.reset()  # the journal of the last example: a long run keeps no history
    base = hostile.url
    wadl = data.draw(wadls(base + "/1.0/"), label="wadl")
    root_document = data.draw(root_documents(base), label="root")
    served: list[bytes] = []
    sent = Requests()
    _serve(hostile, wadl, json.dumps(root_document).encode(), served, sent)

    try:
        root = ServiceRoot(None, base, version="1.0", max_retries=0, deadline=10)
    except RestfulError:
        return
    with root:
        collections = _collections(root)
        if collections:
            served += data.draw(st.lists(pages(base), min_size=1, max_size=4), label="pages")
        _exercise(collections, sent)


def fuzz(hostile: HostileServer, examples: int, number: int | None) -> Callable[[], None]:
    """A run of ``examples`` examples on ``hostile``, from seed ``number`` (None: a random one).

    No shrinking: a failing example is reported as drawn, at once.
    """

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        run_example(hostile, data)

    return run if number is None else seed(number)(run)


def main(argv: list[str] | None = None) -> int:
    """Run batches of examples, each from a new seed, for ``--minutes``; stop at a failure."""
    parser = argparse.ArgumentParser(prog="python -m tests.hostile.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=200, help="examples per seed")
    options = parser.parse_args(argv)
    stop = time.monotonic() + 60 * options.minutes
    examples = 0
    with contextlib.contextmanager(running_server)() as hostile:
        while time.monotonic() < stop:
            batch_seed = random.randrange(2**32)
            print(f"seed {batch_seed}: {options.batch} examples", flush=True)
            try:
                fuzz(hostile, options.batch, batch_seed)()
            except Exception as error:
                print(f"FAILED with seed {batch_seed}: {error!r}", file=sys.stderr)
                raise
            examples += options.batch
    print(f"{examples} examples in {options.minutes} minutes: no hang, only wadlclient errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
