"""`FakeService`: a lazr.restful-dialect service made from any WADL, on loopback HTTP.

    with FakeService(Path("launchpad-devel.wadl")) as fake:
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        ...  # code under test reaches fake.service_root

The WADL is served as is, its base moved to the fake; the JSON is made
from wadlclient's reading of it (`wadlclient.schema`), so whatever the
WADL does not describe is refused on the wire.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit

from wadlclient.schema import Schema
from wadlclient.testing.description import Description, Refused
from wadlclient.testing.journal import FakeJournal
from wadlclient.testing.operations import Handler, Operations
from wadlclient.testing.render import Renderer
from wadlclient.testing.resources import Resources
from wadlclient.testing.server import FakeServer
from wadlclient.testing.store import LAUNCHPAD_PATHS, FakeEntry, Store
from wadlclient.wadl import parse_wadl

__all__ = ["FakeService"]

T = TypeVar("T")

_BASE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?resources\b[^>]*?\bbase=\"([^\"]+)\"")


class FakeService:
    """A fake of the service ``wadl`` describes, listening on 127.0.0.1 (an ephemeral port).

    ``entry_paths`` says where the entries of a top-level collection live,
    as a template of their fields (``{"people": "~{name}"}``); by default
    Launchpad's (`LAUNCHPAD_PATHS`), else ``<collection>/<name>`` or
    ``<collection>/<id>`` (an id is numbered from 1 when not given).
    """

    def __init__(
        self, wadl: bytes | str | Path, *, entry_paths: Mapping[str, str] = LAUNCHPAD_PATHS
    ) -> None:
        content = wadl if isinstance(wadl, bytes) else Path(wadl).read_bytes()
        found = _BASE.search(content)
        if found is None:
            raise ValueError("this WADL has no <resources base=...>: a fake cannot serve it")
        original = found.group(1)
        version_path = urlsplit(original.decode("utf-8")).path or "/"
        if not version_path.endswith("/"):
            version_path += "/"
        self.journal = FakeJournal()
        self._server = FakeServer(version_path, b"", self.journal)
        try:
            #: The host root (``http://127.0.0.1:N/``), and the versioned root below it.
            self.service_root = f"http://127.0.0.1:{self._server.port}/"
            self.base = self.service_root.rstrip("/") + version_path
            self.version = version_path.strip("/")
            self._server.wadl = content.replace(original, self.base.encode("utf-8"))
            self.description = Description(Schema(parse_wadl(self._server.wadl, self.base)))
            self.store = Store(self.description, entry_paths)
            self._render = Renderer(self.description, self.base)
            self._operations = Operations(self.description, self.store, self.base)
            self._server.resources = Resources(
                self.description, self.store, self._render, self._operations
            )
        except BaseException:
            self._server.stop()
            raise

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

    def add(self, collection: str, **fields: Any) -> FakeEntry:
        """A new entry of a top-level collection; a field the WADL does not list is a ValueError."""
        return _seeding(lambda: self.store.add(collection, fields))

    def add_to(
        self, parent: FakeEntry, collection: str, entry: FakeEntry | None = None, **fields: Any
    ) -> FakeEntry:
        """An entry of ``parent``'s scoped collection (``bug_tasks``): ``entry`` or a new one."""
        return _seeding(lambda: self.store.add_to(parent, collection, entry, fields))

    def change(self, entry: FakeEntry, **fields: Any) -> None:
        """Change an entry behind the clients' backs: its ETag changes (a stale PATCH: 412)."""
        _seeding(lambda: self.store.change(entry, fields))

    def delete(self, entry: FakeEntry) -> None:
        self.store.delete(entry)

    def set_root_link(self, name: str, entry: FakeEntry) -> None:
        """What a link of the root (Launchpad's ``me``) points at."""
        if name not in self.description.root.fields:
            raise ValueError(f"the root of this WADL has no link {name!r}")
        self._render.root_links[name] = entry

    @property
    def total_size_link(self) -> bool:
        """Whether pages of named operations give ``total_size_link``, not ``total_size``."""
        assert self._server.resources is not None
        return self._server.resources.total_size_link

    @total_size_link.setter
    def total_size_link(self, value: bool) -> None:
        assert self._server.resources is not None
        self._server.resources.total_size_link = value

    @property
    def handler_errors(self) -> list[Exception]:
        """What operation handlers raised (each was answered 500 naming it), oldest first."""
        assert self._server.resources is not None
        return self._server.resources.handler_errors

    def url_of(self, entry: FakeEntry) -> str:
        return self._render.url(entry)

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
    except Refused as refused:
        raise ValueError(refused.message) from None
