"""A tour of wadlclient against the cookbook example service (``make demo``).

Each step prints what the program does, what it got, and what the client
logged for it (the HTTP exchanges on ``wadlclient.http``, what they were
for on ``wadlclient.objects``), so the lazy fetching, paging and caching
rules can be watched on the wire.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from decimal import Decimal

import wadlclient
from cookbook_service.running import run_service
from wadlclient import AccessToken, BasicHttpAuthorizer, OAuthAuthorizer, ServiceRoot
from wadlclient.errors import Unauthorized


class _Collect(logging.Handler):
    """Keeps the client's request-log lines so each step can show its own."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


_LOG = _Collect()
_STEP = 0


@contextmanager
def step(title: str) -> Iterator[None]:
    """Print a numbered step, run it, then print the exchanges it caused."""
    global _STEP
    _STEP += 1
    print(f"\n{_STEP:>2}. {title}")
    _LOG.lines.clear()
    yield
    if _LOG.lines:
        for line in _LOG.lines:
            print(f"      log: {line}")
    else:
        print("      log: (nothing)")


def show(label: str, value: object) -> None:
    print(f"      {label}: {value}")


def tour_client(base_url: str, cache_dir: str) -> None:
    with step("Create the service root: one GET for the WADL, one for the JSON"):
        root = ServiceRoot(None, base_url, cache=cache_dir)
        show("collections", ", ".join(root.lp_collections))
        show("entries", ", ".join(root.lp_entries))

    with step("Read a collection attribute: lazy, nothing is sent"):
        recipes = root.recipes
        show("repr", repr(recipes))

    with step("len() fetches the collection's first page"):
        show("len(root.recipes)", len(recipes))

    with step("A slice fetches only the pages it needs"):
        for recipe in recipes[1:7:2]:
            show(f"recipe {recipe.id}", recipe.instructions[:50])

    with step("A for loop walks every page (big pages, the next ones fetched ahead)"):
        show("dishes, in order", ", ".join(dish.name for dish in root.dishes))

    with step("Linked entries and scoped collections are lazy too"):
        recipe = recipes[0]
        dish = recipe.dish
        show("recipe.dish.name", dish.name)
        show("len(dish.recipes)", len(dish.recipes))

    with step("A named operation answers a collection that slices like any other"):
        found = root.cookbooks.find_recipes(search="e")
        show("find_recipes(search='e')[0:3]", [r.id for r in found[0:3]])

    with step("create() answers 201; the client fetches (and caches) the new cookbook"):
        book = root.cookbooks.create(
            name="Tour de Cuisine Française",
            cuisine="Française",
            copyright_date=datetime(2024, 5, 1, tzinfo=timezone.utc),
            price=Decimal("24.95"),
            last_printing=datetime(2026, 1, 15, tzinfo=timezone.utc),
        )
        show("self_link", book.self_link)
        show("price (Decimal)", repr(book.price))

    with step("Edit a field and lp_save(): a PATCH of the changed field with If-Match"):
        book.description = "Every recipe from the tour."
        book.lp_save()
        show("http_etag", book.http_etag)

    with step("lp_refresh(): a conditional GET, answered 304, keeps the data"):
        book.lp_refresh()
        show("description", book.description)

    with step("Index beyond the end: IndexError, with the message of a Python list"):
        try:
            root.cookbooks.find_recipes(search="e")[1000]
        except IndexError as error:
            show("IndexError", error)
    root.close()

    with step("A second client on the same (warm) cache directory sends nothing"):
        again = ServiceRoot(None, base_url, cache=cache_dir)
        show("collections", ", ".join(again.lp_collections))
    again.close()

    print("\n    cache files (named after URL and media type, at most 143 characters):")
    for name in sorted(os.listdir(cache_dir))[:6]:
        print(f"      {name}")


def tour_authorization() -> None:
    with run_service(auth="basic") as service:
        service.add_user("ada", "correct horse")
        with step("--auth basic: no credentials -> 401 Unauthorized"):
            try:
                ServiceRoot(None, service.base_url)
            except Unauthorized as error:
                show("Unauthorized", error)
        with step("--auth basic: BasicHttpAuthorizer -> accepted"):
            root = ServiceRoot(BasicHttpAuthorizer("ada", "correct horse"), service.base_url)
            show("len(root.dishes)", len(root.dishes))
            root.close()

    with run_service(auth="oauth") as service:
        service.add_consumer("tour-consumer", "")
        service.add_token("tour-consumer", "tour-token", "tour-secret")
        with step("--auth oauth: OAuthAuthorizer with an access token -> accepted"):
            authorizer = OAuthAuthorizer(
                "tour-consumer",
                access_token=AccessToken("tour-token", "tour-secret"),
                application_name="tour",
            )
            root = ServiceRoot(authorizer, service.base_url)
            show("len(root.cookbooks)", len(root.cookbooks))
            show("credentials", repr(root.credentials))
            root.close()


def tour_typed() -> None:
    """Typed access: examples/cookbook_typed, written by `wadlclient stubgen` for this service."""
    from cookbook_typed import connect  # examples/ is on sys.path when the tour runs

    with run_service() as service:
        title = "Typed access (wadlclient stubgen): the same objects, typed for mypy and editors"
        with step(title):
            root = connect(None, service.base_url)  # a wadlclient.ServiceRoot, typed
            book = root.cookbooks[0]  # a Cookbook: book.price is a Decimal to mypy
            show("book.price * 2", repr(book.price * 2))
            show("root.recipes[0].dish.name", root.recipes[0].dish.name)
            show("type(root)", type(root))
            root.close()


def main() -> int:
    for name in ("wadlclient.http", "wadlclient.objects"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(_LOG)
    print(f"wadlclient {wadlclient.__version__}: a tour against the cookbook example service")
    print("Under each step, 'log:' shows the client's log (loggers wadlclient.http and")
    print("wadlclient.objects: the requests, and what they were for).")
    print("'(cache: fresh)' means the cache answered and nothing was sent; 'revalidated'")
    print("means a conditional GET got 304; 'stored'/'replaced' mean a full answer was cached;")
    print("'miss' means a full answer the cache could not reuse (a collection page has no ETag).")
    with run_service() as service, tempfile.TemporaryDirectory() as cache_dir:
        print(f"the example service listens on {service.base_url}")
        tour_client(service.base_url, cache_dir)
    tour_authorization()
    tour_typed()
    print("\nThe tour is over.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
