"""`Collection`: a paged list of entries over a `PageWalker`, and its pages over HTTP."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Generic, cast, overload

from wadlclient.errors import NotFound, ResponseError
from wadlclient.http import Transport
from wadlclient.objects.kept import KeptPages
from wadlclient.objects.links import MAX_WORKERS, EntryList
from wadlclient.objects.lookahead import sliced, walked
from wadlclient.objects.pages import Page, PageWalker, WalkPlan
from wadlclient.objects.protocols import EntryT
from wadlclient.objects.resource import Resource, SessionLike, fetch_now
from wadlclient.objects.resume import Cursor
from wadlclient.objects.tokens import (
    ANCHORS,
    Position,
    Scope,
    check_scope,
    decode_token,
)
from wadlclient.objects.walks import Shard, Walk, checked_ahead
from wadlclient.objects.wire import page_url, start_of
from wadlclient.schema import TypeInfo
from wadlclient.wadl import fragment_of

__all__ = ["Collection", "CollectionPages", "first_page_of", "forget_pages", "page_of"]


#: The largest count a server may state: ``len()`` cannot return more.
MAX_COUNT = sys.maxsize


def is_count(value: Any) -> bool:
    """Whether a server's number can be a position or a size: one ``len()`` can return."""
    return type(value) is int and 0 <= value <= MAX_COUNT


def _int_or_none(document: dict[str, Any], key: str, url: str) -> int | None:
    """An optional count of a page; anything but a whole number is the server's error."""
    value = document.get(key)
    if value is None or is_count(value):
        return value
    raise ResponseError(
        f"a page of {url} has a {key} that is not a whole number from 0 to {MAX_COUNT}: "
        f"{value!r:.40}"
    )


def _link_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def page_of(document: dict[str, Any], url: str = "") -> Page:
    """The `Page` a collection's JSON page (with an ``entries`` list) at ``url`` describes."""
    link = _link_or_none(document.get("next_collection_link"))
    return Page(
        entries=document["entries"],
        start=_int_or_none(document, "start", url),
        total=_int_or_none(document, "total_size", url),
        next=link,
        next_start=start_of(link) if link is not None else None,
        total_link=_link_or_none(document.get("total_size_link")),
    )


def page_text(content: bytes, url: str) -> str:
    """A page's bytes decoded (UTF-8, or the UTF-16/32 JSON allows)."""
    try:
        return content.decode(json.detect_encoding(content))
    except UnicodeDecodeError as exc:
        raise ResponseError(
            f"the response from {url} is not UTF-8 text (bad byte at position {exc.start})"
        ) from exc


def _checked(document: Any, url: str) -> dict[str, Any]:
    if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
        raise ResponseError(f"{url} did not serve a page of a collection")
    return document


class FetchedPage:
    """A page received and not parsed yet: calling it parses it, once, letting go of the bytes.

    ``url`` and ``content`` stay readable until then (a walk that keeps its
    pages in a shared cache stores them: `wadlclient.objects.kept`).
    """

    __slots__ = ("_held", "_source", "url")

    def __init__(self, source: CollectionPages, url: str, content: bytes) -> None:
        self._source = source
        self.url = url
        self._held = [content]

    @property
    def content(self) -> bytes | None:
        return self._held[0] if self._held else None

    def __call__(self) -> Page:
        # The bytes go as soon as they are decoded, before the text is parsed.
        url = self.url
        return page_of(self._source.parse_page(page_text(self._held.pop(), url), url), url)


class CollectionPages:
    """The pages of one collection, over HTTP: the `PageSource` of its `PageWalker`."""

    __slots__ = ("_transport", "url")

    def __init__(self, transport: Transport, url: str) -> None:
        self._transport = transport
        self.url = url

    def fetch_page(self, start: int | None, size: int | None) -> Page:
        return self._get(page_url(self.url, start, size))

    def follow_next(self, link: str, size: int | None) -> Page:
        return self._get(page_url(link, None, size))

    def _get(self, url: str) -> Page:
        """GET one page and check that it is one."""
        return page_of(_checked(self._transport.request("GET", url).json(), url), url)

    def fetch_later(
        self, link: str | None, start: int | None, size: int | None
    ) -> Callable[[], Page]:
        """GET one page now; the result decodes and parses it, once.

        Pages fetched ahead wait as the bytes received, which take less than
        half the memory of the parsed page. The bytes are let go as they are
        decoded, before the text is parsed, so that a page's bytes, text and
        entries are never held together (decoding on the fetching thread
        would hold the bytes and the text while the walk holds a parsed page).
        """
        response = self._transport.request(
            "GET", page_url(self.url if link is None else link, start, size)
        )
        fetched = FetchedPage(self, response.url, response.content)
        del response
        return fetched

    def parse_raw(self, url: str, content: bytes) -> Page:
        """The page ``content`` (received from ``url``) holds."""
        return page_of(self.parse_page(page_text(content, url), url), url)

    def parse_page(self, text: str, url: str) -> dict[str, Any]:
        """The page ``text`` (from ``url``) holds, checked to be one."""
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResponseError(
                f"malformed JSON in the response from {url}: {exc.msg} "
                f"at line {exc.lineno} column {exc.colno} (char {exc.pos})"
            ) from exc
        except RecursionError:
            raise ResponseError(f"the JSON from {url} is nested too deeply") from None
        return _checked(document, url)

    def count(self, page: Page) -> int | None:
        if page.total_link is None:
            return None
        value: object = self._transport.request("GET", page.total_link).json()
        if not isinstance(value, int) or not is_count(value):
            raise ResponseError(
                f"the size of {self.url} ({page.total_link}) is not a whole number "
                f"from 0 to {MAX_COUNT}: {value!r:.40}"
            )
        return value


#: How lazr.restful ends the WADL id of a page of entries of a type.
_PAGE_TYPE_SUFFIX = "-page-resource"


class Collection(Resource, Generic[EntryT]):
    """A paged list of entries: ``len()``, iteration, ``[i]``, ``[start:stop:step]``, ``(key)``.

    Extension points for subclasses (mapped to resource types with
    ``ServiceRoot.RESOURCE_TYPE_CLASSES``): ``collection_of`` (the resource
    type of the entries); `key_url` (the URL of the entry with a key);
    ``coll[x]`` goes to `get_slice` for a slice, else to `get_item`, which
    sends an int to `get_index` and a str to `lookup`: override `get_item`
    to make ``coll[1]`` a key look-up.

    Generic in the type of its entries for type checkers: a collection the
    API hands out is a ``Collection[Entry]``; typed access
    (`wadlclient stubgen`) names ``Collection[Recipe]``.
    """

    __slots__ = ("_entry_type", "_pages")

    collection_of: ClassVar[str | None] = None
    #: The page size iteration asks for (the server may serve fewer per page).
    ITERATION_PAGE_SIZE: ClassVar[int] = 150
    #: Pages iteration requests ahead of the one being read.
    PREFETCH_DEPTH: ClassVar[int] = 2
    #: Whether a walk with tokens keeps the pages it has not handed out in a cache other
    #: processes share, for a resume after a kill (`wadlclient.objects.kept`): about 2 ms
    #: of CPU a page, on the threads that fetch them.
    KEEP_PAGES: ClassVar[bool] = True

    _entry_type: str | None
    _pages: PageWalker

    def __init__(
        self,
        session: SessionLike,
        url: str,
        info: TypeInfo | None = None,
        first_page: dict[str, Any] | None = None,
        entry_type: str | None = None,
    ) -> None:
        super().__init__(session, url, info, None)
        if entry_type is None:
            entry_type = self.collection_of or (info.entry_type if info is not None else None)
        object.__setattr__(self, "_entry_type", entry_type)
        first = page_of(first_page, url) if first_page is not None else None
        source = CollectionPages(session.transport, url)
        object.__setattr__(self, "_pages", PageWalker(source, first, session.writes))

    def _pickled_state(self) -> dict[str, Any]:
        return {"entry_type": self._entry_type}

    @classmethod
    def _revived(
        cls, session: Any, url: str, info: Any, data: dict[str, Any] | None, state: dict[str, Any]
    ) -> Collection[Any]:
        """Without its pages: an unpickled collection asks for them again when walked."""
        collection = cls.__new__(cls)
        Resource.__init__(collection, session, url, info, None)
        object.__setattr__(collection, "_entry_type", state.get("entry_type"))
        source = CollectionPages(session.transport, url)
        object.__setattr__(collection, "_pages", PageWalker(source, None, session.writes))
        return collection

    # A collection's own fields are paging details; only its operations are attributes.

    def _info(self) -> TypeInfo:
        info = self._state.info
        return info if info is not None else TypeInfo(id=None)

    def _lookup(self, name: str) -> Any:
        method = self._info().operations.get(name)
        if method is None:
            raise self._no_attribute(name)
        return self._operation(name, method)

    def _describe(self) -> str:
        """``recipes collection at <url>``: not a page type's WADL id, its entries' type.

        lazr.restful names the type of a scoped collection or an
        operation's result ``<entry>-page-resource``: an id of the WADL, not
        a name a reader knows.
        """
        info = self._state.info
        kind = info.id if info is not None and info.id else None
        if kind is None or kind == "collection" or kind.endswith(_PAGE_TYPE_SUFFIX):
            kind = self._entry_type
        return f"{kind} collection at {self._url}" if kind else f"collection at {self._url}"

    def _plan(self, ahead: int | None = None) -> WalkPlan:
        depth = self.PREFETCH_DEPTH if ahead is None else ahead
        return WalkPlan(self.ITERATION_PAGE_SIZE, depth, self._url)

    def _entry_for(self, document: Any) -> EntryT:
        """The entry a page holds, of the type it states (else the collection's entry type)."""
        if not isinstance(document, dict):
            raise ResponseError(f"a page of {self._url} holds something that is not an entry")
        url = document.get("self_link")
        type_link = document.get("resource_type_link")
        if not isinstance(url, str):
            raise ResponseError(f"an entry of {self._url} has no self_link")
        type_id = fragment_of(type_link) if isinstance(type_link, str) else self._entry_type
        return cast("EntryT", self._session.entry(url, type_id, document))

    # -- the sequence protocol ----------------------------------------------

    def __len__(self) -> int:
        return self._pages.length(self._plan())

    def __iter__(self) -> Iterator[EntryT]:
        """Every entry, in order, fetching pages ahead while the caller reads (`PageWalker.walk`).

        Pages of up to ``ITERATION_PAGE_SIZE`` entries and at most
        ``PREFETCH_DEPTH`` requests in flight.
        """
        with contextlib.closing(self._pages.walk(self._plan())) as documents:
            entries = (self._entry_for(document) for document in documents)
            yield from walked(entries, self._session)

    def walk(self, resume: str | None = None, *, pages_ahead: int | None = None) -> Walk[EntryT]:
        """Every entry, as iteration hands them out, with a resume token after each (`Walk`).

        ``resume``: a token of an earlier walk of this collection (from any
        process, with a root of the same service); the walk goes on with the
        entry after it (what it reads again: docs/long-jobs.md). A token of another
        collection or service, or one damaged, is a `WalkTokenError`.
        ``pages_ahead``: the pages this walk requests ahead (``PREFETCH_DEPTH``
        if None): what a kill may cost, pages in flight (docs/long-jobs.md).
        """
        scope = Scope.of(self._session.root_url, self._url)
        start = None
        if resume is not None:
            start = decode_token(resume)
            check_scope(start, scope, self._describe())
        return self._walk(scope, start, frozenset(), checked_ahead(pages_ahead))

    def _walk(
        self, scope: Scope, start: Position | None, stop: frozenset[str], ahead: int | None = None
    ) -> Walk[EntryT]:
        cursor = Cursor(scope, start)
        return Walk(self, self._walked(start, cursor, ahead), cursor, stop)

    def _kept(self, scope: Scope, start: Position | None) -> KeptPages | None:
        """Where the walk keeps its pages for a resume: a cache other processes share, else None."""
        session, source = self._session, self._pages.source
        if (
            not self.KEEP_PAGES
            or session.cache.is_private
            or not isinstance(source, CollectionPages)
        ):
            return None
        authorizer = session.transport.authorizer
        return KeptPages.of_walk(session.cache, authorizer, scope, start, source.parse_raw)

    def _walked(
        self, start: Position | None, cursor: Cursor, ahead: int | None
    ) -> Iterator[EntryT]:
        # Here, at the first entry asked for: an unpickled walk's root connects only then.
        kept = self._kept(cursor.scope, start)
        if kept is not None:
            cursor.walk, cursor.taken = kept.walk, kept.hold
        walk = self._pages.walk(self._plan(ahead), start, cursor, kept)
        with contextlib.closing(walk) as documents:
            entries = (self._entry_for(document) for document in documents)
            yield from walked(entries, self._session)

    def shards(self, n: int) -> list[Shard[EntryT]]:
        """The walk split into ``n`` parts that pickle (`Shard`), together every entry once.

        Costs a request for the size (unless known) and one per part after
        the first, for the entries where the parts meet: those are sent
        together (at most ``MAX_WORKERS`` in flight), so a fleet waits one
        round trip for them, not one per part.
        """
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"shards(n) needs a whole number of parts of 1 or more, not {n!r}")
        total = len(self)
        starts = [index * total // n for index in range(n)] + [total]
        empty = [starts[index] == starts[index + 1] for index in range(n)]
        meets = [index for index in range(1, n) if not empty[index]]
        firsts: list[tuple[str, ...]] = [()] * n
        for index, documents in zip(meets, self._meeting_entries(starts, meets), strict=True):
            firsts[index] = tuple(str(document.get("self_link")) for document in documents)
        shards = []
        for index in range(n):
            stop = next((firsts[i] for i in range(index + 1, n) if not empty[i]), ())
            shard = Shard(self, index, n, starts[index], firsts[index], stop, total, empty[index])
            shards.append(shard)
        return shards

    def _meeting_entries(self, starts: list[int], meets: list[int]) -> list[list[Any]]:
        """The first ``ANCHORS`` entries of each part in ``meets``, asked for together."""
        from concurrent.futures import ThreadPoolExecutor  # as in links.py: shards only pay it

        stops = [starts[i] + ANCHORS for i in meets]
        with ThreadPoolExecutor(max(1, min(MAX_WORKERS, len(meets))), "wadlclient-shards") as pool:
            return list(pool.map(self._pages.entries, [starts[i] for i in meets], stops))

    @overload
    def __getitem__(self, key: int) -> EntryT: ...
    @overload
    def __getitem__(self, key: slice) -> EntryList[EntryT]: ...
    @overload
    def __getitem__(self, key: str) -> EntryT: ...
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.get_slice(key)
        return self.get_item(key)

    def get_item(self, key: object) -> Any:
        """``coll[key]`` but for a slice: an index when an int, a key look-up when a str."""
        if isinstance(key, int):
            return self.get_index(key)
        if isinstance(key, str):
            return self.lookup(key)
        raise TypeError(
            f"collection indices must be integers, slices or string keys, not {type(key).__name__}"
        )

    def get_index(self, index: int) -> EntryT:
        """The entry at ``index`` (one GET of the page it is on, unless held)."""
        return self._entry_for(self._pages.item(index))

    def get_slice(self, key: slice) -> EntryList[EntryT]:
        """The entries of a slice: definite, nonnegative start and stop; any step."""
        entries = (self._entry_for(document) for document in self._pages.slice(key))
        return sliced(entries, self._session)

    def prefetch(self, *paths: str, workers: int = MAX_WORKERS) -> EntryList[EntryT]:
        """Every entry (a walk), with the links ``paths`` name fetched together (`links.prefetch`).

        For a part of a big collection, slice it first:
        ``coll[:100].prefetch("dish")``.
        """
        return EntryList(self).prefetch(*paths, workers=workers)

    # -- key-based look-up ---------------------------------------------------

    def key_url(self, key: object) -> str:
        """The URL of the entry with this key: ``<collection>/<key>``, or the service's own.

        The session's `KeyPaths` knows Launchpad's (``~ada``, ``bugs/1``,
        ``<root>/frobnicator``); override for other URL schemes.
        """
        session = self._session
        return session.keys.url(session.root_url, self._url, self._info().id, key)

    def lookup(self, key: object) -> EntryT:
        """Fetch the entry with this key now (one GET); KeyError when there is none."""
        entry = self(key)
        try:
            fetch_now(cast(Resource, entry))
        except NotFound:
            raise KeyError(key) from None
        return entry

    def __call__(self, key: object) -> EntryT:
        """The entry with this key, unfetched: no request until a field is read."""
        return cast("EntryT", self._session.entry(self.key_url(key), self._entry_type))


def first_page_of(collection: Collection[Any]) -> Page:
    """The collection's first page, fetched once (lazr reads its ``total_size`` there)."""
    return collection._pages.first_page()


def forget_pages(collection: Collection[Any]) -> None:
    """Let go of the pages held: the next read fetches the first page again (a refresh)."""
    session = collection._session
    pages = PageWalker(CollectionPages(session.transport, collection._url), None, session.writes)
    object.__setattr__(collection, "_pages", pages)
