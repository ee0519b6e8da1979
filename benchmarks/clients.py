"""The same work done three ways: wadlclient, lazr.restfulclient, bare http.client (the floor).

Each driver opens the service root once (``start``) and then performs the
measured operations. The library imports happen inside the drivers so that a
fresh process only pays for the client it measures, and so that this module
imports even while one of the clients is missing.
"""

from __future__ import annotations

import http.client
import importlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from benchmarks.config import EXAMPLE_WADL_TYPE, FLOOR, HTTPX, OURS, THEIRS

if TYPE_CHECKING:
    import httpx

VERSION = "1.0"


class Driver(Protocol):
    """The operations every workload is built from."""

    def start(self, base_url: str, cache: Path) -> None:
        """Open the service root at ``base_url`` + version, caching in ``cache``."""

    def iterate(self) -> int:
        """Read every entry of ``recipes`` (one field each); return how many."""

    def slice(self, start: int, stop: int) -> int:
        """Read ``recipes[start:stop]`` (one field each); return how many."""

    def prepare_refresh(self) -> None:
        """Fetch one recipe so that later refreshes can be answered 304."""

    def refresh(self, count: int) -> None:
        """Refresh the prepared recipe ``count`` times."""

    def lookup(self, ids: list[int], threads: int) -> int:
        """Fetch each recipe of ``ids`` by key (one field read), on ``threads`` threads."""

    def close(self) -> None:
        """Release connections."""


class _ObjectDriver:
    """Shared logic of the two object-layer clients (same public API, by design)."""

    def __init__(self) -> None:
        self.root: Any = None
        self.entry: Any = None
        #: Seconds per attempt, when a workload sets one (the library's default otherwise).
        self.timeout: float | None = None

    def _open(self, base_url: str, cache: Path) -> Any:
        raise NotImplementedError

    def start(self, base_url: str, cache: Path) -> None:
        self.root = self._open(base_url, cache)

    def iterate(self) -> int:
        count = 0
        for recipe in self.root.recipes:
            recipe.id  # noqa: B018 -- reading one field is part of the work
            count += 1
        return count

    def slice(self, start: int, stop: int) -> int:
        recipes = self.root.recipes[start:stop]
        for recipe in recipes:
            recipe.id  # noqa: B018
        return len(recipes)

    def prepare_refresh(self) -> None:
        self.entry = self.root.recipes[0]
        self.entry.lp_refresh()

    def refresh(self, count: int) -> None:
        entry = self.entry
        for _ in range(count):
            entry.lp_refresh()

    def _fetch_one(self, key: int) -> int:
        raise NotImplementedError

    def lookup(self, ids: list[int], threads: int) -> int:
        return _spread(self._fetch_one, ids, threads)

    def close(self) -> None:
        self.root = self.entry = None


def _spread(fetch: Any, ids: list[int], threads: int) -> int:
    """Run ``fetch`` on every id, in this thread or on a pool sharing the same client."""
    if threads <= 1:
        return sum(fetch(key) == key for key in ids)
    with ThreadPoolExecutor(threads) as pool:
        return sum(found == key for found, key in zip(pool.map(fetch, ids), ids, strict=True))


class OursDriver(_ObjectDriver):
    """wadlclient, through its public API only."""

    write_behind = False
    #: A `wadlclient.Retry` policy, when a workload sets one (the default otherwise).
    retry: Any = None
    #: wadlclient's iteration page size before `use_page_size` changed it.
    page_size_before: int | None = None

    def _open(self, base_url: str, cache: Path) -> Any:
        wadlclient: Any = importlib.import_module("wadlclient")
        timeout = self.timeout
        if self.write_behind:
            behind = wadlclient.HTTPCache(cache, write_behind=True)
            return wadlclient.ServiceRoot(
                None, base_url, cache=behind, version=VERSION, timeout=timeout, retry=self.retry
            )
        return wadlclient.ServiceRoot(
            None, base_url, cache=str(cache), version=VERSION, timeout=timeout, retry=self.retry
        )

    def use_write_behind(self) -> None:
        """Open the root on ``HTTPCache(..., write_behind=True)`` (call before ``start``)."""
        self.write_behind = True

    def use_page_size(self, size: int) -> None:
        """Walk collections in pages of ``size`` (the extension point), not wadlclient's 150.

        It is a class attribute: `close` puts the old size back, so a later driver in the
        same process (the smoke run's worker runs every row) walks at wadlclient's own.
        """
        wadlclient: Any = importlib.import_module("wadlclient")
        if self.page_size_before is None:
            self.page_size_before = wadlclient.Collection.ITERATION_PAGE_SIZE
        wadlclient.Collection.ITERATION_PAGE_SIZE = size

    def _fetch_one(self, key: int) -> int:
        found: int = self.root.recipes.lookup(key).id
        return found

    def close(self) -> None:
        root, self.root, self.entry = self.root, None, None
        closer = getattr(root, "close", None)
        if callable(closer):
            closer()
        if self.page_size_before is not None:
            wadlclient: Any = importlib.import_module("wadlclient")
            wadlclient.Collection.ITERATION_PAGE_SIZE = self.page_size_before
            self.page_size_before = None


class LazrDriver(_ObjectDriver):
    """lazr.restfulclient (with wadllib and httplib2), as a script would use it."""

    def _open(self, base_url: str, cache: Path) -> Any:
        resource: Any = importlib.import_module("lazr.restfulclient.resource")
        self.recipes_url = base_url.rstrip("/") + f"/{VERSION}/recipes/"
        return resource.ServiceRoot(
            None, base_url, cache=str(cache), version=VERSION, timeout=self.timeout
        )

    def _fetch_one(self, key: int) -> int:
        found: int = self.root.load(f"{self.recipes_url}{key}").id
        return found


class _BareDriver:
    """The same HTTP exchanges without an object layer: the floor.

    Bodies are read and JSON is decoded (every client must do that much); no
    WADL is parsed and no objects are built. Subclasses send one GET.
    """

    def __init__(self) -> None:
        self.root_url = ""
        self.entry_url = ""
        self.etag = ""

    def _open(self, base_url: str) -> None:
        raise NotImplementedError

    def _exchange(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """One GET: the status, the headers (lower-case names) and the body."""
        raise NotImplementedError

    def _get(
        self, url: str, accept: str = "application/json", **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        answer = self._exchange(url, {"Accept": accept, **headers})
        if answer[0] not in (200, 304):
            raise AssertionError(f"GET {url}: {answer[0]}")
        return answer

    def start(self, base_url: str, cache: Path) -> None:
        self._open(base_url)
        self.root_url = base_url.rstrip("/") + f"/{VERSION}/"
        self._get(self.root_url, EXAMPLE_WADL_TYPE)
        json.loads(self._get(self.root_url)[2])

    def _pages(self, url: str) -> Iterator[list[dict[str, Any]]]:
        next_url: str | None = url
        while next_url:
            page = json.loads(self._get(next_url)[2])
            yield page["entries"]
            next_url = page.get("next_collection_link")

    def iterate(self) -> int:
        count = 0
        for entries in self._pages(self.root_url + "recipes"):
            for entry in entries:
                entry["id"]
                count += 1
        return count

    def slice(self, start: int, stop: int) -> int:
        wanted = stop - start
        found = 0
        url = f"{self.root_url}recipes?ws.start={start}&ws.size={wanted}"
        for entries in self._pages(url):
            for entry in entries[: wanted - found]:
                entry["id"]
                found += 1
            if found >= wanted:
                break
        return found

    def prepare_refresh(self) -> None:
        page = json.loads(self._get(self.root_url + "recipes?ws.size=1")[2])
        self.entry_url = page["entries"][0]["self_link"]
        self.etag = self._get(self.entry_url)[1]["etag"]

    def refresh(self, count: int) -> None:
        for _ in range(count):
            status = self._get(self.entry_url, **{"If-None-Match": self.etag})[0]
            if status != 304:
                raise AssertionError(f"expected 304, got {status}")

    def _fetch_one(self, key: int) -> int:
        found: int = json.loads(self._get(f"{self.root_url}recipes/{key}")[2])["id"]
        return found

    def lookup(self, ids: list[int], threads: int) -> int:
        return _spread(self._fetch_one, ids, threads)

    def close(self) -> None:
        raise NotImplementedError


class StdlibDriver(_BareDriver):
    """The floor: keep-alive ``http.client`` connections, one per thread.

    The standard library is what wadlclient's default transport sends on, and
    the fastest bare client measured here.
    """

    def __init__(self) -> None:
        super().__init__()
        self.host = ""
        self._local = threading.local()

    def _open(self, base_url: str) -> None:
        self.host = urlsplit(base_url).netloc

    def _exchange(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = http.client.HTTPConnection(self.host)
        parts = urlsplit(url)
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                           headers=headers)  # fmt: skip
        response = connection.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()


class HttpxDriver(_BareDriver):
    """The same exchanges with a bare ``httpx.Client`` (the floor before issue 14).

    For a plain-http service the client skips loading the CA bundle
    (``verify=False``): certificates are not part of the wire cost of an
    http exchange, and loading them costs ``httpx.Client()`` tens of
    milliseconds.
    """

    def __init__(self) -> None:
        super().__init__()
        self.client: httpx.Client | None = None

    def _open(self, base_url: str) -> None:
        import httpx

        self.client = httpx.Client(verify=not base_url.startswith("http://"))

    def _exchange(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        assert self.client is not None, "start() first"
        response = self.client.get(url, headers=headers)
        return response.status_code, dict(response.headers), response.content

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.client = None


def make_driver(client: str) -> Driver:
    """The driver for one of ``ours``, ``lazr``, ``http.client`` (the floor), ``httpx``."""
    drivers: dict[str, type[Driver]] = {
        OURS: OursDriver,
        THEIRS: LazrDriver,
        FLOOR: StdlibDriver,
        HTTPX: HttpxDriver,
    }
    try:
        return drivers[client]()
    except KeyError:
        raise ValueError(f"unknown client {client!r}; expected one of {sorted(drivers)}") from None
