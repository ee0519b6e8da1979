"""lazr.restfulclient's resources, as protocols every object of the service satisfies.

Code written against launchpadlib annotates with lazr's classes
(``def __init__(self, lp_obj: Entry)``) and passes them what launchpadlib
hands out, which the launchpadlib stubs type from Launchpad's WADL
(``lp.snaps.getByName(...)`` is a `wadlclient.launchpad.Snap`). So that
such a value is an `Entry` for the type checker, as it is at run time,
these are protocols of the members every entry, collection and root has
(the generated classes extend `wadlclient.EntryLike`, `CollectionLike`
and `RootLike`), marked runtime-checkable so that
``isinstance(x, Entry)`` stays legal. Reading a field the WADL declares
needs the generated class (``Snap``), not `Entry`: an `Entry` may be
any entry.
"""

from collections.abc import Iterator
from typing import Any, Protocol, runtime_checkable

from wadlclient.objects.protocols import EntryLike, RootLike

__all__ = [
    "Collection",
    "CollectionWithKeyBasedLookup",
    "Entry",
    "HostedFile",
    "NamedOperation",
    "Resource",
    "ScalarValue",
    "ServiceRoot",
]

@runtime_checkable
class Resource(Protocol):
    """Any resource of the service: its meta-attributes."""

    @property
    def lp_operations(self) -> list[str]: ...

@runtime_checkable
class Entry(EntryLike, Protocol):
    """An entry of the service (``self_link``, ``lp_save()``, ``lp_attributes`` ...)."""

@runtime_checkable
class Collection(Protocol):
    """A collection of the service: its size, its entries, ``[i]`` and slices."""

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __getitem__(self, key: Any) -> Any: ...
    @property
    def lp_operations(self) -> list[str]: ...

@runtime_checkable
class CollectionWithKeyBasedLookup(Collection, Protocol):
    """A collection whose ``[key]`` is a look-up by key (launchpadlib's people, bugs ...)."""

@runtime_checkable
class ServiceRoot(RootLike, Protocol):
    """The root of the service."""

@runtime_checkable
class HostedFile(Protocol):
    """A file the service keeps for an entry (``open()``, ``delete()``)."""

    def open(
        self, mode: str = ..., content_type: str | None = ..., filename: str | None = ...
    ) -> Any: ...
    def delete(self) -> None: ...

@runtime_checkable
class ScalarValue(Protocol):
    """A plain value at its own URL."""

    @property
    def value(self) -> Any: ...

@runtime_checkable
class NamedOperation(Protocol):
    """A named operation, called with keyword arguments only."""

    def __call__(self, **kwargs: Any) -> Any: ...
