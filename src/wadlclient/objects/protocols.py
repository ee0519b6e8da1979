"""The public surfaces of an entry, a collection and a service root, as `Protocol`s.

Typed access (`wadlclient stubgen`) describes a service's resource types
as protocols that extend these: a generated class declares only what the
WADL says, so a misspelt field is an error for the type checker, whereas
the classes themselves answer any name at run time (``__getattr__``) and so
type every attribute as ``Any``. Nothing here runs: the objects a caller
gets are the ordinary `Entry`, `Collection` and `ServiceRoot`, which have
every member declared here.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from wadlclient.objects.links import EntryList
    from wadlclient.objects.resource import Resource

__all__ = ["CollectionLike", "EntryLike", "EntryT", "RootLike"]


class EntryLike(Protocol):
    """What every entry has, whatever its resource type: `Entry`'s own members."""

    @property
    def self_link(self) -> str:
        """The entry's canonical URL."""

    @property
    def resource_type_link(self) -> str:
        """The URL of the entry's resource type in the WADL."""

    @property
    def http_etag(self) -> str | None:
        """The ETag of the representation held."""

    @property
    def lp_attributes(self) -> list[str]: ...
    @property
    def lp_entries(self) -> list[str]: ...
    @property
    def lp_collections(self) -> list[str]: ...
    @property
    def lp_operations(self) -> list[str]: ...
    def lp_values_for(self, name: str) -> list[str] | None: ...
    def lp_has_parameter(self, name: str) -> bool: ...
    def lp_refresh(self) -> None: ...
    def lp_save(self) -> None: ...
    def lp_delete(self) -> None: ...


#: The type of a collection's entries.
EntryT = TypeVar("EntryT", bound=EntryLike)


class CollectionLike(Protocol[EntryT]):
    """What every collection has: `Collection`'s sequence protocol and look-ups."""

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[EntryT]: ...
    @overload
    def __getitem__(self, key: int) -> EntryT: ...
    @overload
    def __getitem__(self, key: slice) -> EntryList[EntryT]: ...
    @overload
    def __getitem__(self, key: str) -> EntryT: ...
    def __call__(self, key: object) -> EntryT: ...
    def lookup(self, key: object) -> EntryT: ...
    def prefetch(self, *paths: str, workers: int = ...) -> EntryList[EntryT]: ...
    @property
    def lp_operations(self) -> list[str]: ...


_Root = TypeVar("_Root", bound="RootLike")


class RootLike(Protocol):
    """What every service root has: `ServiceRoot`'s own members."""

    @property
    def service_root(self) -> str: ...
    @property
    def credentials(self) -> Any: ...
    @property
    def lp_collections(self) -> list[str]: ...
    @property
    def lp_entries(self) -> list[str]: ...
    @property
    def lp_operations(self) -> list[str]: ...
    def load(self, url: str) -> Resource: ...
    # Any: a typed package's overloads return its own classes (``kind="bug_task"``: BugTask).
    def load_web(self, text: str, kind: str | None = ...) -> Any: ...
    def close(self) -> None: ...
    def __enter__(self: _Root) -> _Root: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
