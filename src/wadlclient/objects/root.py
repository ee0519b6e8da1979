"""`ServiceRoot`: the entry point to a web service, its WADL and its root resource.

Extension points for subclasses (the lazr.restfulclient compatibility
layer uses them): ``RESOURCE_TYPE_CLASSES`` (the classes of entries and
collections by resource type id), `ServiceRoot.root_url_for` (the root URL
from ``service_root`` and ``version``), `ServiceRoot.make_transport`
(how requests are sent), `ServiceRoot.read_schema` and
`ServiceRoot.read_root_document` (how the WADL and the root's JSON are read).
Every root's URL goes through the rewrites in force
(`wadlclient.objects.addresses`: how the testing kit points code at a fake).
"""

from __future__ import annotations

import logging
import os
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, ClassVar

from wadlclient.auth import BasicHttpAuthorizer
from wadlclient.auth.environment import credentials_refused
from wadlclient.cache import CacheRules, CacheStore, HTTPCache, store_cache_for
from wadlclient.errors import HTTPError, NotFound, ResponseError, Unauthorized, WADLError
from wadlclient.http import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_BODY,
    RETRY_METHODS,
    RETRY_STATUSES,
    InvalidURL,
    Retry,
    Transport,
    Verify,
)
from wadlclient.http.limits import check_max_in_flight, max_in_flight_from_env
from wadlclient.http.pool import ConnectionPool
from wadlclient.objects.addresses import rewritten_address
from wadlclient.objects.conventions import NATIVE, Conventions
from wadlclient.objects.keys import key_paths_for
from wadlclient.objects.links import look_ahead_from_env
from wadlclient.objects.resource import Resource
from wadlclient.objects.revived_root import RootPickling, recipe_for
from wadlclient.objects.session import Session
from wadlclient.objects.wire import media_type_of
from wadlclient.objects.writelog import WriteLog
from wadlclient.schema import (
    EXAMPLE_WADL_MEDIA_TYPE,
    WADL_MEDIA_TYPES,
    Schema,
    schema_for,
)

__all__ = ["ServiceRoot", "load_schema"]

#: Says which of the service root's requests got which document (the two share a URL).
logger = logging.getLogger("wadlclient.objects")

#: Answers to a WADL request after which the other WADL media type is tried.
_NOT_ACCEPTABLE = (406, 415)
#: Answers another media type cannot mend: credentials, and "busy" answers, whose
#: retries the transport has already spent (asking again would spend them twice).
_NOT_THE_MEDIA_TYPE = frozenset({401, *RETRY_STATUSES})
#: The root resource type when the root's JSON does not name one, nor the WADL.
_DEFAULT_ROOT_TYPE = "service-root"

CacheDirectory = str | bytes | os.PathLike[str] | None
CacheArgument = CacheDirectory | CacheRules | CacheStore


#: A path segment that names a version of a lazr.restful service ("1.0", "beta", "devel").
_VERSION_SEGMENT = re.compile(r"\d+(\.\d+)*|beta|devel")


def check_service_address(service_root: str) -> None:
    """Refuse, naming it, a service address that is not an absolute http(s) URL."""
    if not isinstance(service_root, str):
        raise TypeError(f"the service address must be a str, not {type(service_root).__name__}")
    parts = urllib.parse.urlsplit(service_root)
    if parts.scheme in ("http", "https") and parts.hostname:
        return
    example = f"http://{service_root}" if not parts.scheme or not parts.netloc else service_root
    raise InvalidURL(
        f"{service_root!r} is not a service address: give an absolute http(s) URL, "
        f"such as {example.rstrip('/') + '/'!r}"
    )


def _version_hint(service_root: str, version: str | None) -> str:
    """A hint when the address already ends in a version segment and a version was added."""
    last = service_root.rstrip("/").rpartition("/")[2]
    if version is None or not _VERSION_SEGMENT.fullmatch(last):
        return ""
    return (
        f"{service_root} already ends in a version ({last}); pass version=None, "
        f"or drop /{last}/ from the address"
    )


def split_user_info(service_root: str, authorizer: Any) -> tuple[str, Any]:
    """The service URL without ``user:password@``, and the authorizer: Basic with them if given.

    Credentials in the URL are never kept in it (nor so in a repr, a log
    line or a cache file name); given together with an authorizer, they are
    refused rather than one silently ignored.
    """
    parts = urllib.parse.urlsplit(service_root)
    if parts.username is None and parts.password is None:
        return service_root, authorizer
    host = parts.netloc.rpartition("@")[2]
    url = urllib.parse.urlunsplit(parts._replace(netloc=host))
    if authorizer is not None:
        raise ValueError(
            f"{url}: the service URL holds a user name and password, and an authorizer "
            "was given too; pass only one"
        )
    user = urllib.parse.unquote(parts.username or "")
    password = urllib.parse.unquote(parts.password or "")
    return url, BasicHttpAuthorizer(user, password)


def load_schema(
    transport: Transport,
    url: str,
    preferred: str,
    cache: CacheRules,
    while_parsing: Callable[[], None] | None = None,
) -> Schema:
    """GET the WADL, trying the other WADL media type once if the first fails.

    A failure is an error status, an answer that is not WADL, or WADL that
    cannot be read. 401 and the statuses the transport retries (429, 502,
    503, 504) are raised at once: another media type cannot mend them, and
    asking again would spend the retries a second time. A last error
    status is raised as it is, unless it only refuses the media type (406,
    415). ``while_parsing``: see `schema_for`.
    """
    others = [t for t in WADL_MEDIA_TYPES if t != preferred]
    accepts = [preferred, *others[:1]]
    problems: list[str] = []
    for attempt, accept in enumerate(accepts):
        try:
            response = transport.request("GET", url, accept=accept)
        except HTTPError as error:
            last = attempt == len(accepts) - 1
            status = error.status
            if status in _NOT_THE_MEDIA_TYPE:
                raise
            if last and status not in _NOT_ACCEPTABLE:
                raise
            problems.append(f"{accept}: {error}")
            continue
        media_type = media_type_of(response)
        if media_type not in WADL_MEDIA_TYPES:
            problems.append(f"{accept}: answered {media_type or 'no Content-Type'}")
            continue
        try:
            schema = schema_for(response.content, url, cache, while_parsing=while_parsing)
        except WADLError as error:
            problems.append(f"{accept}: {error}")
            continue
        logger.debug("%s: the WADL description (%s)", url, media_type)
        return schema
    raise WADLError(f"{url} did not serve a WADL description ({'; '.join(problems)})")


def load_service(
    transport: Transport, url: str, preferred: str, cache: CacheRules
) -> tuple[Schema, Any]:
    """The schema (`load_schema`) and the root's JSON, both requests in flight together.

    The JSON request goes out before the WADL request, so a cold start
    costs one round trip, not two, however far the server is; when the
    WADL fails, the JSON answer is dropped unread (its connection closed).
    """
    early = transport.begin("GET", url)
    try:
        schema = load_schema(transport, url, preferred, cache)
    except BaseException:
        early.discard()
        raise
    return schema, early.result().json()


class ServiceRoot(RootPickling, Resource):
    """The entry point to a web service: its WADL, its root resource, its transport.

    ``cache`` is None (a private temporary directory), a directory
    (``str``, ``bytes`` or ``os.PathLike``) that persists, a Redis URL
    (``redis://host:6379/0``, shared by a fleet), a `CacheStore` (memory,
    Redis, your own), or a cache (`HTTPCache`, `StoreCache`).
    ``version=None`` means ``service_root`` already ends in a
    version segment. Creating the root sends two GETs for the root URL,
    both in flight together: the JSON goes out first and is read once the
    WADL is parsed, so a cold start costs one round trip, not two (fewer
    GETs when the cache holds them fresh; a subclass that overrides
    `read_schema` or `read_root_document` sends one after the other). `close` closes
    the connections, and the cache the root made (a private temporary
    directory is removed then); a cache or store the caller passed stays
    open, since it may serve other roots.

    A ``user:password@`` in ``service_root`` logs in with HTTP Basic (and
    is removed from the URL). Credentials only ever go to the root's origin
    (scheme, host, port). A 401 to credentials from the environment (an
    authorizer whose ``credentials_source`` is ``"$WADLCLIENT_CREDENTIALS"``)
    raises `CredentialsRefused`: nobody is there to make new ones. A root
    pickles as a recipe without credentials (`RootPickling`).

    ``deadline``, ``max_body``, ``retry_methods``,
    ``allow_insecure_redirects``, ``retry`` (a whole `Retry` policy, in
    place of ``max_retries`` and ``retry_methods``) and ``verify`` (a CA
    bundle or an ``ssl.SSLContext`` for https) are `Transport`'s.

    ``look_ahead``: None (the default) reads ``WADLCLIENT_LOOK_AHEAD``, and
    when it is unset (or ``auto``) the adaptive look-ahead runs
    (`wadlclient.objects.lookahead`): once a loop over a walk or a slice
    shows that it reads a link of entry after entry (or of every n-th),
    that link of the entries it reaches next is fetched ahead. ``0`` turns
    it off; ``N`` fetches the link of an entry and of the next ``N - 1``
    together whenever one is read (`wadlclient.objects.links`).

    ``max_in_flight``: requests in flight to one origin at most, whoever
    sends them (the look-ahead, `prefetch`, walks, the program's threads);
    None reads ``WADLCLIENT_MAX_IN_FLIGHT`` (unset: 8).
    """

    __slots__ = ("_credentials", "_made_cache")

    #: Client classes for resource type ids, like lazr.restfulclient's.
    RESOURCE_TYPE_CLASSES: ClassVar[Mapping[str, type[Resource]]] = {}
    #: How this root's objects read and check values, and how it starts (`Conventions`).
    CONVENTIONS: ClassVar[Conventions] = NATIVE

    _made_cache: CacheRules | None

    def __init__(
        self,
        authorizer: Any,
        service_root: str,
        cache: CacheArgument = None,
        *,
        version: str | None = "1.0",
        timeout: float | None = None,
        base_client_name: str = "",
        max_retries: int = 6,
        wadl_media_type: str = EXAMPLE_WADL_MEDIA_TYPE,
        deadline: float | None = DEFAULT_DEADLINE,
        max_body: int = DEFAULT_MAX_BODY,
        retry_methods: Iterable[str] = RETRY_METHODS,
        allow_insecure_redirects: bool = False,
        retry: Retry | None = None,
        look_ahead: int | None = None,
        verify: Verify = True,
        max_in_flight: int | None = None,
    ) -> None:
        check_service_address(service_root)
        service_root, authorizer = split_user_info(service_root, authorizer)
        if look_ahead is None:
            look_ahead = look_ahead_from_env()
        elif look_ahead < 0:
            raise ValueError("look_ahead must be 0 (off) or more")
        limit = max_in_flight_from_env() if max_in_flight is None else max_in_flight
        check_max_in_flight(limit)
        # Passed on only when asked for: a make_transport overridden before it existed still works.
        in_flight = {} if max_in_flight is None else {"max_in_flight": limit}
        url = rewritten_address(self.root_url_for(service_root, version))
        http_cache = self._cache_for(cache)
        object.__setattr__(self, "_credentials", authorizer)
        object.__setattr__(self, "_made_cache", None if http_cache is cache else http_cache)
        transport = self.make_transport(
            authorizer,
            http_cache,
            timeout=timeout,
            max_retries=max_retries,
            base_client_name=base_client_name,
            deadline=deadline,
            max_body=max_body,
            retry_methods=retry_methods,
            auth_origin=url,
            allow_insecure_redirects=allow_insecure_redirects,
            retry=retry,
            verify=verify,
            **in_flight,
        )
        try:
            schema, document = self._read_service(transport, url, wadl_media_type, http_cache)
            if not isinstance(document, dict):
                raise ResponseError(f"{url} did not serve a JSON object for the service root")
            logger.debug("%s: the service root (application/json)", url)
        except NotFound as error:
            self._close(transport)
            error.note = _version_hint(service_root, version) or error.note
            raise
        except Unauthorized as error:
            self._close(transport)
            source = getattr(authorizer, "credentials_source", None)
            if isinstance(source, str):
                raise credentials_refused(source, authorizer, error) from None
            raise
        except BaseException:
            self._close(transport)
            raise
        type_link = document.get("resource_type_link")
        if not isinstance(type_link, str):
            type_link = schema.app.root_resource_type or _DEFAULT_ROOT_TYPE
        info = schema.type_info(type_link)
        session = Session(
            transport, schema, http_cache, url, self.RESOURCE_TYPE_CLASSES, info.id, look_ahead,
            self.CONVENTIONS, key_paths_for(info), WriteLog(), limit, recipe_for(
                self, url, cache, authorizer, timeout, max_retries, base_client_name,
                wadl_media_type),
        )  # fmt: skip
        super().__init__(session, url, info, document)

    # -- extension points --------------------------------------------------

    def root_url_for(self, service_root: str, version: str | None) -> str:
        """The versioned root URL, ending in ``/``; ``version=None``: ``service_root`` is it."""
        url = service_root if service_root.endswith("/") else service_root + "/"
        if version is not None:
            url += str(version).strip("/") + "/"
        return url

    def make_cache(self, directory: CacheDirectory) -> HTTPCache:
        """The cache of a root given a directory (or None); override to cache otherwise.

        A 304's rewrite of a stored entry goes to a background thread (see HTTPCache).
        """
        return HTTPCache(directory, refresh_behind=True)

    def _cache_for(self, cache: CacheArgument) -> CacheRules:
        """The cache ``cache`` names: itself, one over a store or Redis URL, or `make_cache`'s."""
        if isinstance(cache, CacheRules):
            return cache
        made = store_cache_for(cache)
        if made is not None:
            return made
        assert not isinstance(cache, CacheStore)
        return self.make_cache(cache)

    def make_transport(
        self,
        authorizer: Any,
        cache: CacheRules,
        *,
        timeout: float | None,
        max_retries: int,
        base_client_name: str,
        deadline: float | None = DEFAULT_DEADLINE,
        max_body: int = DEFAULT_MAX_BODY,
        retry_methods: Iterable[str] = RETRY_METHODS,
        auth_origin: str | None = None,
        allow_insecure_redirects: bool = False,
        retry: Retry | None = None,
        verify: Verify = True,
        max_in_flight: int | None = None,
    ) -> Transport:
        """The transport every request of this root goes through; override to send otherwise.

        ``max_in_flight`` is given only when the root was (`ServiceRoot`).
        """
        pool = ConnectionPool(max_body=max_body, verify=verify, max_in_flight=max_in_flight)
        return Transport(
            sender=pool,
            authorizer=authorizer,
            cache=cache,
            timeout=timeout,
            max_retries=max_retries,
            base_client_name=base_client_name,
            deadline=deadline,
            max_body=max_body,
            retry_methods=retry_methods,
            auth_origin=auth_origin,
            allow_insecure_redirects=allow_insecure_redirects,
            retry=retry,
            verify=verify,
        )

    def read_schema(
        self, transport: Transport, url: str, preferred: str, cache: CacheRules
    ) -> Schema:
        """The service's schema: its WADL, asked for as ``preferred`` first (`load_schema`)."""
        return load_schema(transport, url, preferred, cache)

    def read_root_document(self, transport: Transport, url: str) -> Any:
        """The root resource's JSON representation, parsed."""
        return transport.request("GET", url).json()

    def _read_service(
        self, transport: Transport, url: str, preferred: str, cache: CacheRules
    ) -> tuple[Schema, Any]:
        """`read_schema` and `read_root_document`, their requests in flight together.

        The root's JSON is asked for first (`Transport.begin`); a subclass's
        `read_root_document` asking for it again joins that request in
        flight rather than sending another.
        """
        cls = type(self)
        if not cls.CONVENTIONS.concurrent_start:
            return self.read_schema(transport, url, preferred, cache), self.read_root_document(
                transport, url
            )
        if (
            cls.read_schema is ServiceRoot.read_schema
            and cls.read_root_document is ServiceRoot.read_root_document
        ):
            return load_service(transport, url, preferred, cache)
        early = transport.begin("GET", url)
        try:
            schema = self.read_schema(transport, url, preferred, cache)
            document = self.read_root_document(transport, url)
        finally:
            early.discard()
        return schema, document

    # -- public ------------------------------------------------------------

    @property
    def service_root(self) -> str:
        """The root URL, version segment included."""
        return self._url

    def load(self, url: str) -> Resource:
        """The resource at ``url`` (absolute, or relative to the versioned root)."""
        return self._session.load(url)

    def close(self) -> None:
        """Close the connection pool, and the cache if the root made it."""
        self._close(self._session.transport)

    def _close(self, transport: Transport) -> None:
        transport.close()
        if self._made_cache is not None:
            self._made_cache.close()

    def __enter__(self) -> ServiceRoot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _describe(self) -> str:
        return f"ServiceRoot at {self._url}"
