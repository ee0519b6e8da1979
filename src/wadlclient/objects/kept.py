"""The pages a walk with tokens keeps in a shared cache until it has handed them out, for a resume.

A walk fetches pages ahead (`prefetch`) while its caller works on the
page before. Killed outright (SIGKILL, a lost machine), it takes those
pages with it, and the walk resumed from its last token in another
process would read them again: up to ``PREFETCH_DEPTH`` pages more than
the one page a resume re-reads. So a walk whose root has a cache other
processes share (a cache directory, Redis; not the private temporary one
a root makes by default) stores each page it receives there as a blob,
on the thread that fetched it, and removes it once no token taken may
resume in it: a page handed out goes when a token taken later lies past
it (`hold`), the caller having committed the token before it (a job
checkpoints the last token or the one before, so the pages of the last
two tokens taken stay). A walk whose caller never took a token removes a
page as soon as it is handed out; one whose caller takes tokens rarely
keeps at most `KEPT_BEHIND` pages handed out since its older token. At
the end of the walk (or when it is closed) none is left. A walk resumed
from a token of that walk finds the page the token names and those
fetched after it there, and uses them without a request
(`resume.kept_place`).

A blob's name is a digest of the service, the collection (and shard),
the principal whose answer it is, the walk's random id (which the token
carries) and the page's offset: another principal's walk, or another
walk, never reads it. It records when it was stored, the page's address,
and whether a write of the walk's own root was under way around it (the
steady walk's test for using a page as it is); a page older than
`KEPT_FOR` is not used. A walk killed and never resumed leaves at most
``PREFETCH_DEPTH + 1`` pages behind, and those of its last tokens (Redis
lets them expire with its other keys).
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from wadlclient.cache import CacheRules
from wadlclient.cache.sharing import UNIDENTIFIED
from wadlclient.http.principals import declared_principal
from wadlclient.objects.paging import Page
from wadlclient.objects.tokens import WALK_BYTES, Position, Scope, digest
from wadlclient.objects.wire import start_of
from wadlclient.redact import shown_url

__all__ = ["KEPT_BEHIND", "KEPT_FOR", "KeptPage", "KeptPages"]

#: Seconds a kept page stays usable for a resume: as fresh as a page fetched ahead.
KEPT_FOR = 600.0
#: Pages handed out since the older of the last two tokens that a walk keeps, at most.
KEPT_BEHIND = 8
_MAGIC = b"wadlclient walk page 1\n"


class KeptPage(NamedTuple):
    """A page as kept: where it came from, its bytes, and the walk's writes around it."""

    url: str
    content: bytes
    #: The writes the walk's root had finished, if none was under way around the page (else None).
    quiet: int | None


class KeptPages:
    """One walk's pages in a shared cache, by offset (see the module)."""

    __slots__ = (
        "_behind", "_cache", "_clock", "_held", "_lock", "_names", "_prefix", "parse", "walk",
    )  # fmt: skip

    def __init__(
        self,
        cache: CacheRules,
        scope: Scope,
        principal: str | None,
        walk: bytes,
        parse: Callable[[str, bytes], Page],
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``parse``: the page a kept page's address and bytes hold (the collection's parser)."""
        self._cache = cache
        self.walk = walk
        self.parse = parse
        who = b"" if principal is None else principal.encode("utf-8", "surrogatepass")
        self._prefix = (
            scope.service + scope.collection + scope.shard + walk + digest(who.hex())
        ).hex()
        self._clock = clock
        self._lock = threading.Lock()
        #: The names this walk stored or read and has not removed yet.
        self._names: set[str] = set()
        #: The pages of the last two tokens taken (their offsets), the newest last.
        self._held: deque[int] = deque(maxlen=2)
        #: Pages handed out and still kept for those tokens, by offset, the oldest first.
        self._behind: list[int] = []

    @classmethod
    def of_walk(
        cls, cache: CacheRules, authorizer: object, scope: Scope, start: Position | None,
        parse: Callable[[str, bytes], Page],
    ) -> KeptPages | None:  # fmt: skip
        """A walk's pages in ``cache``, under the walk id of ``start`` if it has one, else anew.

        None when whose answers the pages are cannot be told (an authorizer
        that declares no principal): nothing is kept then.
        """
        principal = None if authorizer is None else declared_principal(authorizer)
        if principal == UNIDENTIFIED:
            return None
        walk = start.walk if start is not None and start.walk else os.urandom(WALK_BYTES)
        return cls(cache, scope, principal, walk, parse)

    def name(self, start: int) -> str:
        """The blob name of the page at offset ``start``."""
        return "walkpage-" + digest(f"{self._prefix}:{start}", 12).hex()

    def keep(self, fetched: Any, quiet: int | None) -> None:
        """Store a page just received (``fetched``: a `collection.FetchedPage`; else nothing)."""
        url, content = getattr(fetched, "url", None), getattr(fetched, "content", None)
        if not isinstance(url, str) or not isinstance(content, bytes):
            return
        name = self.name(start_of(url) or 0)
        # The address only names the page in errors: no credential it may carry goes in.
        head = f"{self._clock():.3f} {'-' if quiet is None else quiet} {shown_url(url)}\n"
        with self._lock:
            self._names.add(name)
        self._cache.put_blob(name, _MAGIC + head.encode("utf-8", "surrogateescape") + content)

    def find(self, start: int) -> KeptPage | None:
        """The page kept at offset ``start``, if there is one fresh enough to use."""
        name = self.name(start)
        data = self._cache.get_blob(name)
        if data is None or not data.startswith(_MAGIC):
            return None
        with self._lock:
            self._names.add(name)
        head, newline, content = data[len(_MAGIC) :].partition(b"\n")
        try:
            stored, quiet, url = head.decode("utf-8", "surrogateescape").split(" ", 2)
            age = self._clock() - float(stored)
            writes = None if quiet == "-" else int(quiet)
        except ValueError:
            return None
        if not newline or not 0 <= age <= KEPT_FOR or start_of(url) not in (start, None):
            return None
        return KeptPage(url, content, writes)

    def drop(self, start: int) -> None:
        """The page at offset ``start`` is handed out: remove it unless a token may resume in it."""
        with self._lock:
            if self._held:
                self._behind.append(start)
                gone = self._prune()
            else:
                gone = [start]
        self._remove(gone)

    def hold(self, start: int) -> None:
        """A token was taken in the page at offset ``start``: pages before the token before go."""
        with self._lock:
            self._held.append(start)
            gone = self._prune()
        self._remove(gone)

    def _prune(self) -> list[int]:
        """The pages handed out that no token kept may resume in (called under the lock)."""
        oldest = min(self._held)
        gone = [start for start in self._behind if start < oldest]
        behind = [start for start in self._behind if start >= oldest]
        while len(behind) > KEPT_BEHIND:
            gone.append(behind.pop(0))
        self._behind = behind
        return gone

    def _remove(self, starts: list[int]) -> None:
        for start in starts:
            name = self.name(start)
            with self._lock:
                if name not in self._names:
                    continue
                self._names.discard(name)
            self._cache.delete_blob(name)

    def drop_before(self, start: int, size: int) -> None:
        """Remove the pages before ``start`` the walk before kept for its older tokens.

        A walk resumed at ``start`` never reads them, and the walk that kept
        them is gone: unless removed here, a finished job would leave them.
        """
        if size <= 0:
            return
        for before in range(start - size, max(-1, start - (KEPT_BEHIND + 2) * size), -size):
            self._cache.delete_blob(self.name(before))

    def drop_all(self) -> None:
        """Remove every page this walk stored or read (it ended, or was closed)."""
        with self._lock:
            names, self._names = self._names, set()
        for name in names:
            self._cache.delete_blob(name)
