"""`Walk` (a walk with a resume token after every entry) and `Shard` (a part of a walk).

``walk = collection.walk()`` iterates as ``for entry in collection`` does;
``walk.token`` is where it is, after every entry it handed out, and
``collection.walk(resume=token)``, in this process or another, goes on
with the next entry (`wadlclient.objects.resume`). A walk pickles as its
collection and its token.

``collection.shards(n)`` splits a walk into n `Shard` objects that pickle,
each walked anywhere (``for entry in shard``, ``shard.walk(resume=token)``).
A shard starts at the first entries of its part and stops at the first
entries of the next one, told apart by ``self_link``: where entries join or
leave the results meanwhile, the shards still meet at those entries, so
together they hand out every entry once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol

from wadlclient.objects.protocols import EntryT
from wadlclient.objects.resource import Resource, session_of, url_of
from wadlclient.objects.resume import Cursor
from wadlclient.objects.tokens import (
    Position,
    Scope,
    check_scope,
    decode_token,
    digest,
    encode_token,
)

__all__ = ["Shard", "Walk", "Walkable", "checked_ahead"]


class Walkable(Protocol[EntryT]):
    """What a walk is made from (a `Collection`)."""

    def _walk(
        self, scope: Scope, start: Position | None, stop: frozenset[str],
        pages_ahead: int | None = None,
    ) -> Walk[EntryT]: ...  # fmt: skip


class Walk(Generic[EntryT]):
    """The entries of a collection (or a shard) in order, with ``token`` after each one.

    ``token`` is a short, versioned, URL-safe string with no secret: the
    place after the last entry handed out (before the first, the place the
    walk started from; at the end, a token that resumes to nothing). Pickles
    as its collection and its token: unpickled, it goes on from there.
    """

    __slots__ = ("_cursor", "_entries", "_owner", "_stop")

    def __init__(
        self,
        owner: Any,
        entries: Iterator[EntryT],
        cursor: Cursor,
        stop: frozenset[str] = frozenset(),
    ) -> None:
        self._owner = owner
        self._entries = entries
        self._cursor = cursor
        self._stop = stop

    def __iter__(self) -> Walk[EntryT]:
        return self

    def __next__(self) -> EntryT:
        cursor = self._cursor
        try:
            entry = next(self._entries)
        except StopIteration:
            cursor.done = True
            raise
        url = url_of(entry)  # type: ignore[arg-type]
        if url in self._stop:
            # The next shard's first entry: this shard ends here.
            cursor.done = True
            self.close()
            raise StopIteration
        cursor.links.append(url)
        cursor.handed += 1
        return entry

    @property
    def token(self) -> str:
        """Where the walk is: ``collection.walk(resume=token)`` goes on with the next entry."""
        return encode_token(self._cursor.position())

    @property
    def handed_out(self) -> int:
        """The entries this walk (since it started or resumed) handed out."""
        return self._cursor.handed

    def close(self) -> None:
        """Stop: requests not started are cancelled (the token stays valid)."""
        close = getattr(self._entries, "close", None)
        if close is not None:
            close()

    def __reduce__(self) -> tuple[Callable[[Any, str], Walk[Any]], tuple[Any, str]]:
        return _resumed, (self._owner, self.token)

    def __repr__(self) -> str:
        return f"<Walk of {self._owner!r}, {self._cursor.handed} entries handed out>"


def checked_ahead(pages_ahead: object) -> int | None:
    """A walk's ``pages_ahead``: None (the collection's ``PREFETCH_DEPTH``) or 0 or more."""
    if pages_ahead is None:
        return None
    if not isinstance(pages_ahead, int) or isinstance(pages_ahead, bool) or pages_ahead < 0:
        raise ValueError(f"pages_ahead must be a whole number of 0 or more, not {pages_ahead!r}")
    return pages_ahead


def _resumed(owner: Any, token: str) -> Walk[Any]:
    """A pickled walk, unpickled: its owner's walk from its token."""
    walk: Walk[Any] = owner.walk(resume=token)
    return walk


class Shard(Generic[EntryT]):
    """One of ``count`` parts of a walk over a collection (`Collection.shards`); pickles.

    ``for entry in shard`` walks it; ``shard.walk(resume=token)`` goes on
    from a token of one of its walks. ``index`` (from 0), ``count`` and
    ``key`` (the collection's URL with both, and a digest of where the
    parts meet) name it the same in every process: a checkpoint key.
    ``first``: the links of the first entries of this part (empty for the
    first part); ``stop``: those of the next part (empty for the last).
    """

    __slots__ = ("collection", "count", "empty", "first", "index", "start", "stop", "total")

    def __init__(
        self,
        collection: Walkable[EntryT],
        index: int,
        count: int,
        start: int,
        first: tuple[str, ...],
        stop: tuple[str, ...],
        total: int | None,
        empty: bool = False,
    ) -> None:
        self.collection = collection
        #: Whether this part holds no entry (more parts than entries).
        self.empty = empty
        self.index = index
        self.count = count
        #: The offset this part started at when the shards were made.
        self.start = start
        self.first = first
        self.stop = stop
        self.total = total

    def _bounds(self) -> str:
        return "\n".join([*self.first, "|", *self.stop])

    @property
    def scope(self) -> Scope:
        return Scope.of(
            session_of(self._resource).root_url, self.url, self._bounds(), self.index, self.count
        )

    @property
    def _resource(self) -> Resource:
        resource: Resource = self.collection  # type: ignore[assignment]
        return resource

    @property
    def url(self) -> str:
        """The URL of the collection this is a part of."""
        return url_of(self._resource)

    @property
    def key(self) -> str:
        """``<collection URL>#shard-<index>-of-<count>-<digest of the bounds>``: stable anywhere."""
        bounds = digest(self._bounds(), 4).hex()
        return f"{self.url}#shard-{self.index}-of-{self.count}-{bounds}"

    def walk(self, resume: str | None = None, *, pages_ahead: int | None = None) -> Walk[EntryT]:
        """This part's entries, with a token after each (from ``resume``'s place if given).

        ``pages_ahead``: the pages requested ahead (`Collection.walk`).
        """
        scope = self.scope
        if resume is not None:
            start = decode_token(resume)
            check_scope(start, scope, self.url)
        elif self.empty:
            start = Position(scope, self.start, self.total, done=True)
        elif self.first:
            anchors = tuple(digest(link) for link in self.first)
            start = Position(scope, self.start, self.total, anchors, inclusive=True)
        else:
            start = Position(scope)
        return self.collection._walk(scope, start, frozenset(self.stop), checked_ahead(pages_ahead))

    def __iter__(self) -> Iterator[EntryT]:
        return self.walk()

    def __repr__(self) -> str:
        return f"<Shard {self.index + 1} of {self.count} of {self.url}>"
