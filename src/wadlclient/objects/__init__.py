"""The object layer: a service root and the resources of its service as Python objects.

A `ServiceRoot` reads the service's WADL once and its JSON root; from then
on every resource is an ordinary object whose fields, links, scoped
collections and named operations are attributes. Objects fetch lazily:
reading a collection attribute, following a link to an entry, or looking
an entry up with ``collection(key)`` sends nothing until data is needed.

Modules, in their one-way import order (tests/test_layers.py forbids
rings, typing-only and lazy imports included): `addresses` (the
service-address rewrites a test may put in force), `conventions` (how a
root's objects read values), `resource` (and `SessionLike`, what a
resource asks of its session), then `wire`, `links`
(links of many entries fetched together), `entry`, `hosted`,
`operations`; `writelog` (the writes of a root, for walks), `paging`
(what a page says), `prefetch` (pages fetched ahead), `steady` (walks
that stay right while the results move) and `pages` (the page walker),
then `collection`; `session` (what
the objects of one root share, and their factories) and `root` on top.
`protocols` declares the public surfaces typed access builds on. Walks
that outlive a process: `tokens` (resume tokens), `resume` (finding a
walk's place again), `walks` (`Walk`, `Shard`), `revive` (pickling
without secrets: a root's recipe and the lazy session of unpickled
objects) and `revived_root` (what a root adds to pickle).

Thread safety: a service root may be used from several threads at once.
Shared and safe: the schema (immutable, memoised under a lock), the
transport (thread-safe by contract), the cache, the session (immutable).
Lazily filled per-object state (an entry's representation, a collection's
first page and size) is replaced by single atomic assignments of
immutable-in-practice values, so two threads racing to fill it at worst
both fetch it. Not guarded: an `Entry` being modified from two threads at
once, and a `HostedFileReader` or `HostedFileBuffer`, which belongs to the
thread that opened it.
"""

from wadlclient.objects.addresses import AddressRewrite, rewrite_service_addresses
from wadlclient.objects.collection import Collection
from wadlclient.objects.conventions import NATIVE, Conventions
from wadlclient.objects.entry import Entry
from wadlclient.objects.hosted import HostedFile, HostedFileBuffer, HostedFileReader
from wadlclient.objects.links import EntryList, prefetch
from wadlclient.objects.operations import NamedOperation
from wadlclient.objects.pages import Page, PageSource, PageWalker, WalkPlan
from wadlclient.objects.protocols import CollectionLike, EntryLike, EntryT, RootLike
from wadlclient.objects.resource import (
    Resource,
    ResourceState,
    ServiceRootResource,
    fetch_now,
    representation_of,
    session_of,
    url_of,
)
from wadlclient.objects.root import ServiceRoot
from wadlclient.objects.session import Session
from wadlclient.objects.walks import Shard, Walk

__all__ = [
    "NATIVE",
    "AddressRewrite",
    "Collection",
    "CollectionLike",
    "Conventions",
    "Entry",
    "EntryLike",
    "EntryList",
    "EntryT",
    "HostedFile",
    "HostedFileBuffer",
    "HostedFileReader",
    "NamedOperation",
    "Page",
    "PageSource",
    "PageWalker",
    "Resource",
    "ResourceState",
    "RootLike",
    "ServiceRoot",
    "ServiceRootResource",
    "Session",
    "Shard",
    "Walk",
    "WalkPlan",
    "fetch_now",
    "prefetch",
    "representation_of",
    "rewrite_service_addresses",
    "session_of",
    "url_of",
]
