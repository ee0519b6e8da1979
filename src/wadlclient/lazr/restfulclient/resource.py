"""lazr.restfulclient's resource classes: ServiceRoot and what it hands out.

`ServiceRoot` takes lazr's positional arguments and means by them what
lazr means (``version=None``: the URL is used as given; ``cache`` a
directory or an `AtomicFileCache`; ``proxy_info`` for the HTTP object).
Underneath it is wadlclient's root, through its extension points: its
WADL model (persisted in the cache), its cache files and its transport.
"""

from __future__ import annotations

import json
import os
from typing import Any, ClassVar

from wadlclient.cache import HTTPCache
from wadlclient.errors import WADLError
from wadlclient.http import Sender, Transport
from wadlclient.http.pool import ConnectionPool
from wadlclient.lazr.restfulclient._browser import (
    AtomicFileCache,
    Browser,
    restful_http_class,
)
from wadlclient.lazr.restfulclient._wire import HttpFactorySender, LazrTransport, UserAgentOnly
from wadlclient.objects import (
    Collection,
    Entry,
    HostedFile,
    NamedOperation,
    Resource,
    session_of,
    url_of,
)
from wadlclient.objects import ServiceRoot as _ServiceRoot
from wadlclient.schema import SUN_WADL_MEDIA_TYPE, Schema, schema_for

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


class ScalarValue(Resource):
    """A resource whose representation is one JSON value rather than an object."""

    @property
    def value(self) -> Any:
        """The value, fetched now."""
        return session_of(self).transport.request("GET", url_of(self)).json()


class RootURI(str):
    """The root URL as text, with the ``ensureSlash()`` of lazr.uri's ``URI``."""

    __slots__ = ()

    def ensureSlash(self) -> RootURI:
        return self if self.endswith("/") else RootURI(self + "/")


def _caches(cache: Any) -> tuple[HTTPCache | str | os.PathLike[str] | None, Any]:
    """(wadlclient's cache, the cache handed to ``httpFactory``) for lazr's ``cache``.

    A directory (or an AtomicFileCache over one) becomes wadlclient's
    cache and the HTTP object gets none: one cache, one set of files.
    Any other cache object is the HTTP object's; wadlclient then keeps
    a private one.
    """
    if cache is None or isinstance(cache, (str, os.PathLike, HTTPCache)):
        return cache, None
    if isinstance(cache, AtomicFileCache):
        return cache.directory, None
    return None, cache


class ServiceRoot(_ServiceRoot):
    """Entry point to the service, with lazr.restfulclient's constructor and hooks."""

    RESOURCE_TYPE_CLASSES: ClassVar[dict[str, type[Any]]] = {
        "HostedFile": HostedFile,
        "ScalarValue": ScalarValue,
    }

    def __init__(
        self,
        authorizer: Any,
        service_root: str,
        cache: Any = None,
        timeout: float | None = None,
        proxy_info: Any = None,
        version: str | None = None,
        base_client_name: str = "",
        max_retries: int = Browser.MAX_RETRIES,
    ) -> None:
        self._root_uri = RootURI(self.root_url_for(str(service_root), version))
        self._base_client_name = base_client_name
        engine_cache, factory_cache = _caches(cache)
        self._browser = Browser(self, authorizer, factory_cache, timeout, proxy_info)
        self._proxy_info = proxy_info
        super().__init__(
            authorizer,
            str(self._root_uri),
            engine_cache,
            version=None,
            timeout=timeout,
            base_client_name=base_client_name,
            max_retries=max_retries,
            wadl_media_type=SUN_WADL_MEDIA_TYPE,
        )

    def httpFactory(
        self, authorizer: Any, cache: Any, timeout: float | None, proxy_info: Any
    ) -> Any:
        """The httplib2-style object requests go through; override to take part in them."""
        return restful_http_class()(authorizer, cache, timeout, proxy_info)

    def _uses_http_factory(self) -> bool:
        """Whether requests must go through ``httpFactory``'s object.

        They must when a subclass overrides the hook or a proxy is given;
        otherwise wadlclient's own connection pool sends them.
        """
        overridden = type(self).httpFactory is not ServiceRoot.httpFactory
        return overridden or self._proxy_info is not None

    def _pool_for_factory(self) -> Sender | None:
        """wadlclient's pool, to send for the factory's object when no proxy needs httplib2."""
        import httplib2

        if self._proxy_info not in (None, httplib2.proxy_info_from_environment):
            return None
        return ConnectionPool()

    # -- wadlclient's extension points -----------------------------------------

    def root_url_for(self, service_root: str, version: str | None) -> str:
        """lazr's rule: ``version`` (when given) is appended as a segment ending in ``/``."""
        if version is None:
            return service_root
        url = (service_root if service_root.endswith("/") else service_root + "/") + str(version)
        return url if url.endswith("/") else url + "/"

    def make_transport(
        self,
        authorizer: Any,
        cache: HTTPCache,
        *,
        timeout: float | None,
        max_retries: int,
        base_client_name: str,
        **limits: Any,
    ) -> Transport:
        sender = None
        if self._uses_http_factory():
            # The factory's object signs; the transport only needs the User-Agent details.
            authorizer = UserAgentOnly(authorizer)
            sender = HttpFactorySender(self._browser._connection, pool=self._pool_for_factory())
        return LazrTransport(
            authorizer=authorizer, cache=cache, timeout=timeout, max_retries=max_retries,
            base_client_name=base_client_name, sender=sender, **limits,
        )  # fmt: skip

    def read_schema(
        self, transport: Transport, url: str, preferred: str, cache: HTTPCache
    ) -> Schema:
        """lazr asks once, for Sun's WADL type, and reads any success as WADL (else SyntaxError)."""
        response = transport.request("GET", url, accept=SUN_WADL_MEDIA_TYPE)
        try:
            return schema_for(response.content, url, cache)
        except WADLError as error:
            raise SyntaxError(str(error)) from error

    def read_root_document(self, transport: Transport, url: str) -> Any:
        """The root's JSON; malformed JSON raises json's own error, as in lazr."""
        return json.loads(transport.request("GET", url).content)

    @property
    def _user_agent(self) -> str:
        return session_of(self).transport.user_agent


class _RootView:
    """What lazr's resources reach through ``self._root``: the root URI."""

    def __init__(self, root_url: str) -> None:
        self._root_uri = RootURI(root_url)


class CollectionWithKeyBasedLookup(Collection[Entry]):
    """A collection where ``[key]`` looks an entry up by its key (integers too).

    Subclasses implement ``_get_url_from_id(key)`` and may set
    ``collection_of`` to the entries' resource type. Slices still page.
    """

    @property
    def _root(self) -> _RootView:
        """lazr's ``self._root``, for ``_get_url_from_id`` (``_root._root_uri``)."""
        return _RootView(session_of(self).root_url)

    def _get_url_from_id(self, key: Any) -> str | None:
        raise NotImplementedError()

    def key_url(self, key: object) -> str:
        try:
            url = self._get_url_from_id(key)
        except NotImplementedError:
            raise TypeError("unsubscriptable object") from None
        if url is None:
            raise KeyError(key)
        return url

    def get_item(self, key: object) -> Any:
        """Every key but a slice is looked up, integers included (``bugs[1]`` is bug 1)."""
        return self.lookup(key)
