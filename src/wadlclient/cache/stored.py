"""`StoreCache`: the HTTP rules (`CacheRules`) over any `CacheStore` (memory, Redis, yours).

Entries are the same bytes a disk cache file holds (lazr's layout), under
the same names, so what one backend serves another would too.

When many processes start at once on an empty shared store, each would
download the service's WADL (1.5 MB for Launchpad) and parse it. A
backend with ``claim`` lets one of them fetch it (and store its model)
while the others wait for the entry (the model) to appear; a claim lapses
by itself after ``fill_wait`` seconds, so a fetcher that dies holds no one
up for longer: one of those waiting takes its place (with a store that
offers ``claim_state``), and none waits more than twice ``fill_wait``.
A fetcher whose answer is not to be stored (uncacheable, an error) marks
its claim released at once (`settle`, the store's ``release``): those
waiting, and those who come while the mark lasts, fetch for themselves.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection

from wadlclient.cache.backend import CacheStore
from wadlclient.cache.fileformat import parse
from wadlclient.cache.freshness import CachedResponse
from wadlclient.cache.rules import CacheRules
from wadlclient.headers import HeadersInput

__all__ = ["FILL_WAIT_MEDIA_TYPES", "StoreCache"]

logger = logging.getLogger("wadlclient.cache")

#: The documents worth waiting for another process to fetch: the WADL ones.
FILL_WAIT_MEDIA_TYPES = frozenset(
    {"application/vnd.sun.wadl+xml", "application/vnd.example.wadl+xml"}
)
#: How often a waiting process looks for the entry another is fetching.
_POLL_SECONDS = 0.02


class StoreCache(CacheRules):
    """An HTTP cache whose entries and blobs live in ``store`` (a `CacheStore`).

    ``owns_store``: `close` closes the store too (true when the cache made
    it from a URL). ``fill_wait``: seconds a claim to fetch a missing
    document of ``fill_types`` lasts (0: never wait); used only when the
    store offers ``claim``.
    """

    def __init__(
        self,
        store: CacheStore,
        *,
        clock: Callable[[], float] = time.time,
        owns_store: bool = False,
        fill_wait: float = 5.0,
        fill_types: Collection[str] = FILL_WAIT_MEDIA_TYPES,
    ) -> None:
        if not isinstance(store, CacheStore):
            raise TypeError(
                f"a cache store needs load, save, remove, exists, close and private; "
                f"{type(store).__name__} lacks some"
            )
        super().__init__(clock)
        self.store = store
        self._owns_store = owns_store
        self._fill_wait = fill_wait
        self._fill_types = frozenset(fill_types)

    def __repr__(self) -> str:
        return f"StoreCache({self.store!r})"

    @property
    def is_private(self) -> bool:
        return bool(self.store.private) or self._closed

    def close(self) -> None:
        """Stop using the store; close it too when this cache made it."""
        super().close()
        if self._owns_store:
            self.store.close()

    def get(
        self,
        url: str,
        media_type: str,
        *,
        principal: str | None = None,
        headers: HeadersInput | None = None,
    ) -> CachedResponse | None:
        """As `CacheRules.get`; a missing WADL another process is fetching is waited for."""
        cached = super().get(url, media_type, principal=principal, headers=headers)
        if cached is not None or media_type not in self._fill_types:
            return cached
        if self._wait_for(self.filename(url, media_type)):
            return super().get(url, media_type, principal=principal, headers=headers)
        return None

    def settle(self, url: str, media_type: str) -> None:
        """The exchange for ``url`` is over: a claim this process still holds on it ends.

        Storing the answer ended it already; an answer not stored (one that
        cannot be cached, an error) ends it here, so no one waits for it.
        """
        release = getattr(self.store, "release", None)
        if release is not None and media_type in self._fill_types and not self._closed:
            release(self.filename(url, media_type))

    def get_blob(self, name: str, *, fill: bool = False) -> bytes | None:
        """As `CacheRules.get_blob`; with ``fill``, one another process is making is waited for."""
        blob = super().get_blob(name)
        if blob is None and fill and self._wait_for(name):
            return super().get_blob(name)
        return blob

    def _wait_for(self, name: str) -> bool:
        """Whether ``name``, missing, appeared because another process was filling it.

        False at once when this process wins the claim (it is to fill it),
        when the store has no claims, or waiting is off; False as soon as
        the claim is released (nothing will come), or when this process
        takes over a claim that lapsed; at the latest after a claim's
        lifetime and one more (a lapsed claim taken over by another).
        """
        if getattr(self.store, "claim", None) is None or self._closed or self._fill_wait <= 0:
            return False
        taken = self._take(name)
        if taken is not None:
            return taken
        logger.debug("cache: waiting for another process to store %s", name)
        state_of = getattr(self.store, "claim_state", None)
        lifetimes = 1 if state_of is None else 2  # with states, a lapsed claim is taken over
        deadline = time.monotonic() + lifetimes * self._fill_wait
        while time.monotonic() < deadline:
            time.sleep(_POLL_SECONDS)
            if self.store.exists(name):
                return True
            state = None if state_of is None else state_of(name)
            if state == "released":
                return False
            if state_of is not None and state is None:
                # The claim lapsed, or was met just now: one waiter takes it over.
                taken = self._take(name)
                if taken is not None:
                    return taken
        return False

    def _take(self, name: str) -> bool | None:
        """Claim ``name``: False when this process is to fill it, None when another does.

        True when it was stored just before the claim (whose filler then
        ended its own claim); this claim is then given up at once.
        """
        if not self.store.claim(name, self._fill_wait):  # type: ignore[attr-defined]
            return None
        if not self.store.exists(name):
            return False  # this process fills it; its save (or `settle`) ends the claim
        release = getattr(self.store, "release", None)
        if release is not None:
            release(name)
        return True

    def _read(self, name: str) -> CachedResponse | None:
        data = self.store.load(name)
        if data is None:
            raise FileNotFoundError(name)
        head, separator, body = data.partition(b"\r\n\r\n")
        return parse(head, body) if separator else None

    def _save(self, name: str, data: bytes, *, revalidation: bool) -> bool:
        self.store.save(name, data)
        return True

    def _discard(self, name: str) -> None:
        self.store.remove(name)

    def _load_blob(self, name: str) -> bytes | None:
        return self.store.load(name)

    def _save_blob(self, name: str, data: bytes) -> bool:
        self.store.save(name, data)
        return True

    def _has_blob(self, name: str) -> bool:
        return self.store.exists(name)

    def _discard_blob(self, name: str) -> None:
        self.store.remove(name)
