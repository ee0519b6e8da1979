"""`FakeService`: a lazr.restful-dialect service made from any WADL, on loopback HTTP.

    with FakeService(launchpad_wadl()) as fake:
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        ...  # code under test reaches fake.service_root

The WADL is served as is, its base moved to the fake; the JSON is made
from wadlclient's reading of it (`wadlclient.schema`), so whatever the
WADL does not describe is refused on the wire. The model of a WADL is
read once per process (`schema_for`): a second fake of it starts at once;
that of a WADL the kit ships is kept on disk once parsed (`wadlclient.testing.models`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit

from wadlclient.facts.launchpad import ARGUMENTS, FOUND_OR_404
from wadlclient.facts.launchpad_urls import LAUNCHPAD_VERSIONS, TOTAL_SIZE_LINK_VERSIONS
from wadlclient.testing.description import Description
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.journal import FakeJournal
from wadlclient.testing.models import fake_schema
from wadlclient.testing.operations import Handler, Operations
from wadlclient.testing.paths import PathRule
from wadlclient.testing.render import Renderer
from wadlclient.testing.resources import Resources
from wadlclient.testing.server import FakeServer
from wadlclient.testing.shapes import (
    LAUNCHPAD_COLLECTIONS,
    LAUNCHPAD_PATHS,
    LAUNCHPAD_ROOT_LINKS,
    is_launchpad,
    web_link_maker,
)
from wadlclient.testing.store import FakeEntry, Layout, Store

__all__ = ["FakeService"]

T = TypeVar("T")

_BASE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?resources\b[^>]*?\bbase=\"([^\"]+)\"")


class FakeService:
    """A fake of the service ``wadl`` describes, listening on 127.0.0.1 (an ephemeral port).

    It serves the one version its WADL describes, at ``/<version>/``; a
    request for another version is a 404 naming both. Entries live where
    a path rule of their collection or type puts them (`wadlclient.testing.paths`):
    for a WADL of Launchpad's, where Launchpad keeps them
    (`wadlclient.facts.launchpad_urls`: ``~ada``, ``~ada/+snap/frob``,
    ``bugs/1``); else ``<collection>/<name>`` or ``<collection>/<id>``.
    ``entry_paths`` adds rules, or replaces Launchpad's, by collection
    name or entry type (``{"recipes": "recipes/{id}"}``). ``port``: listen
    there (0, the default: a free port the system picks); a port in use is
    an OSError saying so.
    """

    def __init__(
        self,
        wadl: bytes | str | Path,
        *,
        entry_paths: Mapping[str, PathRule] | None = None,
        port: int = 0,
    ) -> None:
        content = wadl if isinstance(wadl, bytes) else Path(wadl).read_bytes()
        found = _BASE.search(content)
        if found is None:
            raise ValueError("this WADL has no <resources base=...>: a fake cannot serve it")
        original = found.group(1)
        #: The versioned root the WADL was published at: the service this fake stands in for.
        self.published_base = original.decode("utf-8")
        if not self.published_base.endswith("/"):
            self.published_base += "/"
        #: Whether the WADL is Launchpad's (its base on one of Launchpad's hosts).
        self.launchpad = is_launchpad(self.published_base)
        version_path = urlsplit(self.published_base).path or "/"
        self.journal = FakeJournal()
        try:
            self._server = FakeServer(
                version_path, b"", self.journal, launchpad=self.launchpad, port=port
            )
        except OSError as error:
            raise OSError(
                error.errno, f"the fake cannot listen on 127.0.0.1:{port} ({error.strerror})"
            ) from None
        try:
            #: The host root (``http://127.0.0.1:N/``), and the versioned root below it.
            self.service_root = f"http://127.0.0.1:{self._server.port}/"
            self.base = self.service_root.rstrip("/") + version_path
            self.version = version_path.strip("/")
            self._server.wadl = content.replace(original, self.base.encode("utf-8"))
            self.description = Description(fake_schema(content, self.published_base))
            self.store = Store(self.description, self._layout(entry_paths))
            self._render = Renderer(
                self.description,
                self.base,
                self.store.layout.collections,
                LAUNCHPAD_ROOT_LINKS if self.launchpad else {},
                web_link_maker(self.published_base) if self.launchpad else None,
            )
            self._operations = Operations(
                self.description,
                self.store,
                ARGUMENTS if self.launchpad else {},
                FOUND_OR_404 if self.launchpad else {},
            )
            self._server.resources = Resources(
                self.description, self.store, self._render, self._operations
            )
            self._server.resources.canonical_names = self.launchpad
        except BaseException:
            self._server.stop()
            raise

    def _layout(self, entry_paths: Mapping[str, PathRule] | None) -> Layout:
        rules: dict[str, PathRule] = dict(LAUNCHPAD_PATHS) if self.launchpad else {}
        rules.update(entry_paths or {})
        collections = LAUNCHPAD_COLLECTIONS if self.launchpad else {}
        return Layout(rules, collections, self._bases())

    def _bases(self) -> tuple[str, ...]:
        """The versioned roots a link may be absolute under: the fake's and the published
        one; for Launchpad, those of every version it serves (lazr.restful takes a link
        of any active version: ``.../1.0/ubuntu`` in a call to devel)."""
        own = (self.base, self.published_base)
        if not self.launchpad:
            return own
        published_root = self.published_base.removesuffix(f"{self.version}/")
        others = tuple(
            f"{root}{version}/"
            for root in (self.service_root, published_root)
            for version in LAUNCHPAD_VERSIONS
            if version != self.version
        )
        return own + others

    # -- lifetime ------------------------------------------------------------

    def start(self) -> FakeService:
        """Start answering (the port is bound from the constructor on)."""
        self._server.start()
        return self

    def close(self) -> None:
        self._server.stop()

    def __enter__(self) -> FakeService:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- seeding -------------------------------------------------------------

    def add(self, collection: str, *, self_link: str | None = None, **fields: Any) -> FakeEntry:
        """A new entry of a top-level collection (``"snaps"``), or of an entry type that
        none lists (``"snap_build_request"``); a field the WADL does not list is a ValueError.

        ``self_link``: where it lives (``"~ada/+snap/frob"``, ``"/~ada/+snap/frob"`` or
        a URL below the root), in place of its path rule.
        """
        return _seeding(lambda: self.store.add(collection, fields, self_link))

    def add_to(
        self,
        parent: FakeEntry,
        collection: str,
        entry: FakeEntry | None = None,
        *,
        self_link: str | None = None,
        **fields: Any,
    ) -> FakeEntry:
        """An entry of ``parent``'s scoped collection (``bug_tasks``): ``entry`` or a new one."""
        return _seeding(lambda: self.store.add_to(parent, collection, entry, fields, self_link))

    def change(self, entry: FakeEntry, **fields: Any) -> None:
        """Change an entry behind the clients' backs: its ETag changes (a stale PATCH: 412)."""
        _seeding(lambda: self.store.change(entry, fields))

    def delete(self, entry: FakeEntry) -> None:
        self.store.delete(entry)

    def set_root_link(self, name: str, entry: FakeEntry) -> None:
        """What a link of the root points at: for Launchpad's ``me``, the person
        ``people/+me`` redirects a logged-in session to."""
        if name not in self.description.root.fields:
            raise ValueError(f"the root of this WADL has no link {name!r}")
        self._render.root_links[name] = entry
        fixed = self._render.root_paths.get(name)
        if fixed is not None:
            self.store.redirects[fixed] = entry

    def add_file(
        self, path: str, data: bytes, media_type: str = "application/octet-stream"
    ) -> None:
        """A file served as it is at ``path`` below the root (``ubuntu/+archive/primary/
        +files/hello_1.0.changes``): what Launchpad's API serves from its librarian (it
        redirects there; the fake answers the file itself), for code that reads a
        ``buildinfo_url`` or a ``changelogUrl()`` through the API's root."""
        self._server.files[path.strip("/")] = (media_type, data)

    @property
    def total_size_link(self) -> bool:
        """Whether pages of named operations give ``total_size_link``, not ``total_size``."""
        assert self._server.resources is not None
        return self._server.resources.total_size_link

    @total_size_link.setter
    def total_size_link(self, value: bool) -> None:
        """A fake of a Launchpad version that never sends it (1.0, beta) refuses to."""
        assert self._server.resources is not None
        if value and self.launchpad and self.version not in TOTAL_SIZE_LINK_VERSIONS:
            raise ValueError(
                f"Launchpad's {self.version} API never sends total_size_link (only "
                + ", ".join(sorted(TOTAL_SIZE_LINK_VERSIONS))
                + " does): a fake of it gives total_size, as Launchpad does"
            )
        self._server.resources.total_size_link = value

    @property
    def handler_errors(self) -> list[Exception]:
        """What operation handlers raised, or returned that their WADL does not allow
        (each answered 500 naming it), oldest first; the pytest fixture re-raises the first."""
        assert self._server.resources is not None
        return self._server.resources.handler_errors

    def url_of(self, entry: FakeEntry) -> str:
        return self._render.url(entry)

    # -- reading (for handlers and assertions) -------------------------------

    def entries_of(self, collection: str | FakeEntry, name: str | None = None) -> list[FakeEntry]:
        """The entries of a collection, in order, as a page of it lists them.

        ``fake.entries_of("snaps")`` for a top-level collection (what an operation
        handler of it gets as ``owner``), ``fake.entries_of(ada, "ppas")`` for an
        entry's scoped one. A name the WADL does not give is a ValueError naming it.
        """
        return _seeding(lambda: self.store.entries_of(collection, name))

    def entry_at(self, link: str) -> FakeEntry:
        """The entry at ``link``: a path (``"~ada"``, ``"/~ada"``) or a URL below the root.

        A link to nothing is a KeyError naming it.
        """
        entry = self.store.entry_at(link)
        if entry is None:
            raise KeyError(f"nothing is seeded at {link!r}")
        return entry

    def operation(self, owner: str, name: str) -> Callable[[Handler], Handler]:
        """Register ``handler(owner, /, **arguments)`` for a named operation of ``owner``.

        ``owner`` is a top-level collection (``"people"``) or a resource type
        (``"distribution"``); an operation the WADL does not list is a
        ValueError here, at registration.
        """
        self._operations.resolve(owner, name)

        def register(handler: Handler) -> Handler:
            self._operations.register(owner, name, handler)
            return handler

        return register


def _seeding(action: Callable[[], T]) -> T:
    """A refusal while seeding as a ValueError: the test's own mistake, at its own line."""
    try:
        return action()
    except HTTPException as problem:
        raise ValueError(problem.message) from None
