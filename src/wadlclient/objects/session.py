"""`Session`: what every object of one service root shares, and the factories of those objects.

Resources are given the session of their root instead of reaching into
the root: through it they send requests (``transport``), read their
type's descriptors (``schema``) and make the objects their links lead to
(`Session.entry`, `Session.collection`, `Session.hosted_file`,
`Session.load`). The factories choose the class of an entry or collection
# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
from ``classes`` (a root's ``RESOURCE_TYPE_CLASSES``), by resource type id.
"""

import urllib.parse
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from wadlclient.cache import CacheRules
from wadlclient.errors import Redacted, ResponseError
from wadlclient.http import Transport
from wadlclient.objects.collection import Collection
from wadlclient.objects.conventions import NATIVE, Conventions
from wadlclient.objects.entry import Entry
from wadlclient.objects.entry_types import entry_class
from wadlclient.objects.hosted import HostedFile
from wadlclient.objects.keys import GENERIC, KeyPaths
from wadlclient.objects.operations import NamedOperation, OnWrite, operation_class
from wadlclient.objects.resource import REDACTED_MESSAGE, Resource, ServiceRootResource
from wadlclient.objects.writelog import WriteLog
from wadlclient.schema import Schema
from wadlclient.wadl import Method, fragment_of

__all__ = ["Session"]

_R = TypeVar("_R", bound=Resource)


class Session(NamedTuple):
    """The transport, schema, cache and root URL of one service root; shared by its objects.

    ``classes`` maps resource type ids to `Entry` or `Collection`
    subclasses; ``root_type`` is the type id of the root resource, which
    `load` serves as a `ServiceRootResource`. Immutable and so safe to
    share between threads.
    """

    transport: Transport
    schema: Schema
    cache: CacheRules
    root_url: str
    classes: Mapping[str, type[Resource]] = MappingProxyType({})
    root_type: str | None = None
    #: The look-ahead: `links.ADAPTIVE` (-1, the default), N entries fixed, 0 off.
    look_ahead: int = 0
    #: How values are read and checked (`wadlclient.objects.conventions`).
    conventions: Conventions = NATIVE
    #: Where a key look-up finds an entry (`wadlclient.objects.keys`).
    keys: KeyPaths = GENERIC
    #: The writes this root's objects send, for the walks running meanwhile (`writelog`).
    writes: WriteLog | None = None
    #: Requests in flight per origin at most: the look-ahead's workers (`http.limits`).
    max_in_flight: int = 8
    #: How the root is made again in another process (`revive.RootRecipe`): what pickles.
    recipe: Any = None

    def class_for(self, type_id: str | None, default: type[_R]) -> type[_R]:
        """The class registered for ``type_id`` when it is a ``default``, else ``default``."""
        if type_id is not None:
            cls = self.classes.get(type_id)
            if cls is not None and issubclass(cls, default):
                return cls
        return self.conventions.classes.get(default, default)

    def entry(self, url: str, type_id: str | None, data: dict[str, Any] | None = None) -> Entry:
        """The entry at ``url``, of type ``type_id`` if known, with its representation if held."""
        if type_id is None:
            return self.class_for(None, Entry)(self, url, None, data)
        info = self.schema.type_info(type_id)
        if type_id in self.classes:
            return self.class_for(type_id, Entry)(self, url, info, data)
        # A class per type, documented from the WADL (help(entry)); a registered class as it is.
        return entry_class(self.class_for(None, Entry), self.schema, info)(self, url, info, data)

    def collection(
        self,
        url: str,
        type_id: str | None,
        first_page: dict[str, Any] | None = None,
        entry_type: str | None = None,
    ) -> Collection[Entry]:
        """The collection at ``url``, with its first page if held."""
        info = self.schema.type_info(type_id) if type_id is not None else None
        return self.class_for(type_id, Collection)(self, url, info, first_page, entry_type)

    def hosted_file(self, url: str) -> HostedFile:
        return self.class_for(None, HostedFile)(self, url)

    def operation(
        self, resource: Resource, name: str, method: Method, on_write: OnWrite
    ) -> NamedOperation:
        """The named operation ``name`` of ``resource``; ``on_write`` is told when it writes."""
        return operation_class(name, method)(self, resource, name, method, on_write)

    def load(self, url: str) -> Resource:
        """The resource at ``url`` (absolute, or relative to the root), fetched now."""
        if url.startswith("tag:"):
            raise Redacted(REDACTED_MESSAGE)
        if not urllib.parse.urlsplit(url).scheme:
            url = self.root_url + url.lstrip("/")
        response = self.transport.request("GET", url)
        try:
            document = response.json()
        except ResponseError:
            raise ValueError(f"{url} does not serve a JSON document") from None
        type_link = document.get("resource_type_link") if isinstance(document, dict) else None
        if not isinstance(type_link, str):
            raise ValueError(f"cannot tell the resource type of {url}")
        assert isinstance(document, dict)
        type_id = fragment_of(type_link)
        info = self.schema.type_info(type_id)
        if info.is_collection or isinstance(document.get("entries"), list):
            return self.collection(url, type_id, first_page=document)
        if type_id == self.root_type:
            return self.class_for(None, ServiceRootResource)(self, url, info, document)
        self_link = document.get("self_link")
        return self.entry(self_link if isinstance(self_link, str) else url, type_id, document)
