"""lazr.restfulclient's resource classes: ServiceRoot and what it hands out.

`ServiceRoot` takes lazr's positional arguments and means by them what
lazr means (``version=None``: the URL is used as given; ``cache`` a
directory or an `AtomicFileCache`; ``proxy_info`` for the HTTP object).
Underneath it is wadlclient's root, through its extension points: its
WADL model (persisted in the cache), its cache files and its transport.
"""

from __future__ import annotations

import json
import math
import os
from types import MappingProxyType
from typing import Any, ClassVar, cast

from wadlclient import objects as _objects
from wadlclient.cache import CacheRules, CacheStore, HTTPCache, cache_from_environment
from wadlclient.cache.redis_store import is_redis_url
from wadlclient.errors import Redacted, WADLError
from wadlclient.http import DEFAULT_MAX_BODY, Sender, Transport, Verify
from wadlclient.http.pool import ConnectionPool
from wadlclient.lazr import named_as_lazr
from wadlclient.lazr.restfulclient._browser import (
    AtomicFileCache,
    Browser,
    backoff_sleep,
    restful_http_class,
    verify_from_environment,
)
from wadlclient.lazr.restfulclient._collection import Collection
from wadlclient.lazr.restfulclient._environment import adapt_login, without_renewal
from wadlclient.lazr.restfulclient._hosted import HostedFile, HostedFileBuffer, WadlResource
from wadlclient.lazr.restfulclient._surface import LazrSurface, ScalarValue
from wadlclient.lazr.restfulclient._trace import HTTPLIB2_TRACE
from wadlclient.lazr.restfulclient._values import LAZR_CONVERTERS
from wadlclient.lazr.restfulclient._wire import HttpFactorySender, LazrTransport, UserAgentOnly
from wadlclient.objects import (
    Conventions,
    NamedOperation,
    Resource,
    fetch_now,
    representation_of,
    session_of,
    url_of,
)
from wadlclient.objects.addresses import rewritten_address
from wadlclient.schema import SUN_WADL_MEDIA_TYPE, Schema, schema_for

__all__ = [
    "Collection",
    "CollectionWithKeyBasedLookup",
    "Entry",
    "HostedFile",
    "HostedFileBuffer",
    "NamedOperation",
    "Resource",
    "ScalarValue",
    "ServiceRoot",
]


@named_as_lazr
class Entry(LazrSurface, _objects.Entry):
    """An entry of the service, as lazr.restfulclient's ``Entry``."""

    __slots__ = ()

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            if not name.endswith("_link") or name.startswith("_"):
                raise
            # lazr reads any key of the representation: a link's own URL
            # (``task.bug_link``, ``bug.owner_link``), without fetching where it leads.
            representation = representation_of(self)
            if name not in representation:
                raise
            return representation[name]


class _RootResource(_objects.ServiceRootResource):
    """The root resource loaded again (``service.load("")``), with lazr's ``_wadl_resource``."""

    __slots__ = ()

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))


class RootURI(str):
    """The root URL as text, with the ``ensureSlash()`` of lazr.uri's ``URI``.

    Only where lazr.uri is not installed (`root_uri`): launchpadlib needs it,
    so wherever launchpadlib runs ``_root_uri`` is lazr's own ``URI``.
    """

    __slots__ = ()

    def ensureSlash(self) -> RootURI:
        return self if self.endswith("/") else RootURI(self + "/")


def root_uri(url: str) -> Any:
    """lazr.uri's ``URI`` of ``url`` (``.append``, ``.host``, ``.resolve``), as lazr's root has."""
    try:
        from lazr.uri import URI  # type: ignore[import-untyped]
    except ImportError:
        return RootURI(url)
    return URI(url)


def _caches(cache: Any) -> tuple[CacheRules | CacheStore | str | os.PathLike[str] | None, Any]:
    """(wadlclient's cache, the cache handed to ``httpFactory``) for lazr's ``cache``.

    A directory (or an AtomicFileCache over one), a Redis URL, a wadlclient
    cache or cache store becomes wadlclient's cache and the HTTP object gets
    none: one cache, one set of entries.
    Any other cache object is the HTTP object's; wadlclient then keeps
    a private one.

    ``$WADLCLIENT_CACHE`` (`cache_from_environment`), when set, takes the
    place of no cache or of a directory: launchpadlib always passes one
    (under its ``launchpadlib_dir``), so a fleet of unchanged launchpadlib
    programs can share a Redis cache. A Redis URL or a cache object given
    as ``cache`` still wins.
    """
    if cache is None or _is_directory(cache):
        cache = cache_from_environment() or cache
    if cache is None or isinstance(cache, (str, os.PathLike, CacheRules, CacheStore)):
        return cache, None
    if isinstance(cache, AtomicFileCache):
        return cache.directory, None
    return None, cache


def _is_directory(cache: Any) -> bool:
    """Whether lazr's ``cache`` argument names a directory (not a Redis URL, not an object)."""
    if isinstance(cache, str):
        return not is_redis_url(cache)
    return isinstance(cache, (os.PathLike, AtomicFileCache))


#: lazr's types and classes, values left for the server to check, the WADL before the root.
LAZR_CONVENTIONS = Conventions(
    converters=LAZR_CONVERTERS,
    check_values=False,
    concurrent_start=False,
    undeclared_entries=False,
    classes=MappingProxyType(
        {
            _objects.Entry: Entry,
            _objects.Collection: Collection,
            _objects.HostedFile: HostedFile,
            _objects.ServiceRootResource: _RootResource,
        }
    ),
)


@named_as_lazr
class ServiceRoot(LazrSurface, _objects.ServiceRoot):
    """Entry point to the service, with lazr.restfulclient's constructor and hooks."""

    RESOURCE_TYPE_CLASSES: ClassVar[dict[str, type[Any]]] = {
        "HostedFile": HostedFile,
        "ScalarValue": ScalarValue,
    }
    CONVENTIONS: ClassVar[Conventions] = LAZR_CONVENTIONS

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
        verify = verify_from_environment()
        self._root_uri = root_uri(rewritten_address(self.root_url_for(str(service_root), version)))
        self._base_client_name = base_client_name
        engine_cache, factory_cache = _caches(cache)
        without_renewal(self, authorizer)
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
            verify=verify,
        )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """launchpadlib's ``Launchpad`` may log in from the environment (`adapt_login`)."""
        super().__init_subclass__(**kwargs)
        adapt_login(cls)

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

    def _pool_for_factory(self, verify: Verify) -> Sender | None:
        """wadlclient's pool, to send for the factory's object when no proxy needs httplib2."""
        import httplib2

        if self._proxy_info not in (None, httplib2.proxy_info_from_environment):
            return None
        return ConnectionPool(trace=HTTPLIB2_TRACE, verify=verify)

    # -- wadlclient's extension points -----------------------------------------

    def root_url_for(self, service_root: str, version: str | None) -> str:
        """lazr's rule: ``version`` (when given) is appended as a segment ending in ``/``."""
        if version is None:
            return service_root
        url = (service_root if service_root.endswith("/") else service_root + "/") + str(version)
        return url if url.endswith("/") else url + "/"

    def make_cache(self, directory: str | bytes | os.PathLike[str] | None) -> HTTPCache:
        """As lazr: every cache file is written before the call returns (none behind)."""
        return HTTPCache(directory)

    def make_transport(
        self,
        authorizer: Any,
        cache: CacheRules,
        *,
        timeout: float | None,
        max_retries: int,
        base_client_name: str,
        max_body: int = DEFAULT_MAX_BODY,
        verify: Verify = True,
        max_in_flight: int | None = None,
        **limits: Any,
    ) -> Transport:
        sender: Sender
        if self._uses_http_factory():
            pool = _recorded(self._pool_for_factory(verify), authorizer)
            # The factory's object signs; the transport only needs the User-Agent details.
            authorizer = UserAgentOnly(authorizer)
            sender = HttpFactorySender(self._browser._connection, pool=pool)
        else:
            pool = ConnectionPool(
                max_body=max_body, trace=HTTPLIB2_TRACE, verify=verify, max_in_flight=max_in_flight
            )
            sender = cast(Sender, _recorded(pool, authorizer))
        # lazr's back-off: 0, 1, 2, 4, ... seconds exactly (no cap, no jitter),
        # waited through ``_browser.sleep``.
        return LazrTransport(
            authorizer=authorizer, cache=cache, timeout=timeout, max_retries=max_retries,
            base_client_name=base_client_name, sender=sender, sleep=backoff_sleep,
            jitter=_exact, max_backoff=math.inf, max_body=max_body, **limits,
        )  # fmt: skip

    def read_schema(
        self, transport: Transport, url: str, preferred: str, cache: CacheRules
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

    def load(self, url: str) -> Resource:
        """As lazr: the redacted value is a plain ``ValueError`` (its doctests name the class)."""
        try:
            return super().load(url)
        except Redacted as error:
            raise ValueError(str(error)) from None

    @property
    def _wadl_resource(self) -> WadlResource:
        return WadlResource(url_of(self))

    def _lazr_type(self) -> str | None:
        return session_of(self).root_type

    def lp_refresh(self, new_url: str | None = None, etag: str | None = None) -> None:
        """Fetch the root's representation again."""
        fetch_now(self)

    @property
    def _user_agent(self) -> str:
        return session_of(self).transport.user_agent


def _recorded(pool: Sender | None, authorizer: object) -> Sender | None:
    """``pool``, recorded or replaced by a replay when the environment asks for it.

    ``WADLCLIENT_RECORD`` / ``WADLCLIENT_REPLAY`` (`wadlclient.testing.record`)
    reach programs that make their roots themselves, launchpadlib's. A
    recording scrubs ``authorizer``'s secrets wherever they appear.
    """
    if not (os.environ.get("WADLCLIENT_RECORD") or os.environ.get("WADLCLIENT_REPLAY")):
        return pool
    if pool is None:
        raise ValueError(
            "WADLCLIENT_RECORD and WADLCLIENT_REPLAY need wadlclient's own connections; "
            "requests through a proxy_info go through httplib2"
        )
    # Imported here: the testing kit costs nothing unless asked for.
    from wadlclient.testing.record import sender_from_environment

    return sender_from_environment(pool, authorizer)


def _exact(backoff: float) -> float:
    """No jitter: lazr waits the back-off exactly."""
    return backoff


class _RootView:
    """What lazr's resources reach through ``self._root``: the root URI."""

    def __init__(self, root_url: str) -> None:
        self._root_uri = root_uri(root_url)


@named_as_lazr
class CollectionWithKeyBasedLookup(Collection):
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
