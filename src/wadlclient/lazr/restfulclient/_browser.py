"""lazr.restfulclient's HTTP layer names: RestfulHttp, Browser and the file caches.

`RestfulHttp` is an ``httplib2.Http`` as in lazr, because that is the
interface launchpadlib subclasses (``_request`` with httplib2's
arguments, ``request`` returning ``(response, content)``). A service
root whose ``httpFactory`` is overridden sends every request of
wadlclient's transport through the object it returns; the WADL model,
the cache, retries and redirects stay wadlclient's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from wadlclient.bounded_read import FileRefused, read_regular
from wadlclient.cache import HTTPCache, cache_file_name
from wadlclient.headers import Headers
from wadlclient.http import Request, Response, Sender, Timeout
from wadlclient.lazr import named_as_lazr
from wadlclient.lazr.restfulclient._certificates import (
    CA_CERTS_VARIABLE,
    ssl_certificate_validation_disabled,
    verify_from_environment,
)
from wadlclient.lazr.restfulclient.errors import LazrResponse
from wadlclient.objects import Resource, session_of, url_of

__all__ = [
    "CA_CERTS_VARIABLE",
    "AtomicFileCache",
    "Browser",
    "MultipleRepresentationCache",
    "safename",
    "sleep",
    "ssl_certificate_validation_disabled",
    "verify_from_environment",
]

#: What the retry back-off waits with, as in lazr: replace it (``_browser.sleep = f``)
#: to watch or skip the waits. Looked up at each wait, so a replacement takes effect.
sleep: Callable[[float], None] = time.sleep

logger = logging.getLogger("wadlclient.cache")


def backoff_sleep(seconds: float) -> None:
    """Wait ``seconds`` through this module's `sleep` (whole seconds as an int, as lazr passes)."""
    sleep(int(seconds) if seconds == int(seconds) else seconds)


def safename(filename: str) -> str:
    """The cache file name of a key: the name wadlclient's cache uses, so files are shared."""
    return cache_file_name(filename)


def _http_class() -> type[Any]:
    """httplib2.Http, imported only when a RestfulHttp is first made."""
    import httplib2

    http_class: type[Any] = httplib2.Http
    return http_class


def __getattr__(name: str) -> Any:
    """``RestfulHttp`` is built on first use: importing httplib2 is slow."""
    if name == "RestfulHttp":
        return restful_http_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def restful_http_class() -> type[Any]:
    """RestfulHttp, an httplib2.Http subclass (made once, on first use)."""
    made = globals().get("RestfulHttp")
    if made is not None:
        return made  # type: ignore[no-any-return]
    base = _http_class()

    class RestfulHttp(base):  # type: ignore[valid-type,misc]
        """An ``httplib2.Http`` that asks an authorizer to sign every request."""

        maximum_cache_filename_length = 143

        def __init__(
            self,
            authorizer: Any = None,
            cache: Any = None,
            timeout: float | None = None,
            proxy_info: Any = _ENVIRONMENT,
        ) -> None:
            if proxy_info is _ENVIRONMENT:
                import httplib2

                proxy_info = httplib2.proxy_info_from_environment
            super().__init__(
                cache,
                timeout,
                proxy_info,
                disable_ssl_certificate_validation=ssl_certificate_validation_disabled(),
            )
            self.authorizer = authorizer
            if authorizer is not None:
                authorizer.authorizeSession(self)

        def _request(
            self,
            conn: Any,
            host: str,
            absolute_uri: str,
            request_uri: str,
            method: str,
            body: Any,
            headers: dict[str, str],
            redirections: int,
            cachekey: str,
        ) -> tuple[Any, bytes]:
            """Sign the request afresh (a redirect must not replay a signature), then send it.

            Sent by wadlclient's connection pool when ``conn`` is its stand-in
            (the service root's transport drives this method), else by httplib2.
            """
            headers.pop("authorization", None)
            if self.authorizer is not None:
                self.authorizer.authorizeRequest(absolute_uri, method, body, headers)
            if isinstance(conn, PoolConnection):
                return conn.exchange(method, absolute_uri, body, headers)
            return super()._request(  # type: ignore[no-any-return]
                conn, host, absolute_uri, request_uri, method, body, headers, redirections, cachekey
            )

    RestfulHttp.__module__ = __name__
    RestfulHttp.__qualname__ = "RestfulHttp"
    named_as_lazr(RestfulHttp)
    globals()["RestfulHttp"] = RestfulHttp
    return RestfulHttp


_ENVIRONMENT: Any = object()


class Renewals:
    """Lets exchanges through ``_request`` run together while a token renewal runs alone.

    launchpadlib's ``_request`` override answers a 401 "Expired token" by
    running its authorization engine and sending again. Two threads meeting
    the same expired token must not both renew it (two browser prompts), so
    a thread answered 401 takes ``lock`` and keeps it until its call is over,
    renewal and resend included. ``finished`` counts those calls: a thread
    whose request was signed before one finished signs it again and resends
    it instead of renewing a second time.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.finished = 0


class PoolConnection:
    """Stands for httplib2's connection in `RestfulHttp._request`: wadlclient's pool sends.

    The compatibility root's transport hands one to the ``httpFactory``
    object's ``_request`` per call, so overrides of it (launchpadlib's token
    renewal) take part while the exchange goes over wadlclient's keep-alive
    connections. ``sign`` (the object's authorizer) signs a request again
    after another thread renewed the token (`Renewals`); `close` ends the
    call.
    """

    def __init__(
        self,
        sender: Sender,
        timeout: Timeout,
        renewals: Renewals | None = None,
        sign: Callable[[str, str, bytes | str | None, dict[str, str]], None] | None = None,
    ) -> None:
        self._sender = sender
        self._timeout = timeout
        self._renewals = renewals
        self._sign = sign
        self._signed_after = renewals.finished if renewals is not None else 0
        self._holding = False

    def set_debuglevel(self, level: int) -> None:
        """httplib2's debug printing does not apply: exchanges are logged by wadlclient.http."""

    def exchange(
        self, method: str, url: str, body: bytes | str | None, headers: dict[str, str]
    ) -> tuple[LazrResponse, bytes]:
        """One exchange; the answer as httplib2 gives it: (response, content)."""
        response = self._send(method, url, body, headers)
        renewals = self._renewals
        if response.status == 401 and renewals is not None and not self._holding:
            renewals.lock.acquire()
            self._holding = True
            if renewals.finished != self._signed_after and self._sign is not None:
                # Another thread renewed the token since this request was signed.
                self._sign(url, method, body, headers)
                response = self._send(method, url, body, headers)
        return LazrResponse(response.status, response.reason, response.headers), response.content

    def _send(
        self, method: str, url: str, body: bytes | str | None, headers: dict[str, str]
    ) -> Response:
        if isinstance(body, str):
            body = body.encode("utf-8")
        request = Request(method, url, Headers(headers), body)
        return self._sender.send(request, timeout=self._timeout)

    def close(self) -> None:
        """The call is over: let the next 401 be handled."""
        if self._holding and self._renewals is not None:
            self._holding = False
            self._renewals.finished += 1
            self._renewals.lock.release()


@named_as_lazr
class AtomicFileCache:
    """An httplib2 cache whose files several processes can share (written atomically).

    File names are wadlclient's cache file names, so a directory used by
    launchpadlib and by wadlclient holds one set of files.
    """

    TEMPFILE_PREFIX = ".temp"

    def __init__(
        self, cache: str | os.PathLike[str], safe: Callable[[str], str] = safename
    ) -> None:
        self.directory = os.path.normpath(cache)
        self._get_safe_name = safe
        os.makedirs(self.directory, exist_ok=True)

    def _get_key_path(self, key: str) -> str:
        name = self._get_safe_name(key)
        if name.startswith(self.TEMPFILE_PREFIX):
            raise ValueError(f"Cache key cannot start with '{self.TEMPFILE_PREFIX}'")
        return os.path.join(self.directory, name)

    def get(self, key: str) -> bytes | None:
        """The value stored for ``key``, or None.

        A file that is not a regular one (a FIFO, a device) or bigger than
        wadlclient's cache allows (`HTTPCache.MAX_ENTRY_BYTES`) is not
        read: a miss, with a warning.
        """
        path = self._get_key_path(key)
        try:
            return read_regular(path, HTTPCache.MAX_ENTRY_BYTES, "cache entry").data
        except FileNotFoundError:
            return None
        except FileRefused as error:
            logger.warning("cache file %s not read (%s): treated as a miss", path, error.reason)
            return None

    def set(self, key: str, value: bytes) -> None:
        """Store ``value`` for ``key``: written to a temporary file, then renamed."""
        handle, temporary = tempfile.mkstemp(prefix=self.TEMPFILE_PREFIX, dir=self.directory)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(value)
            os.replace(temporary, self._get_key_path(key))
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise

    def delete(self, key: str) -> None:
        """Forget ``key`` (nothing happens when it is not stored)."""
        with contextlib.suppress(FileNotFoundError):
            os.remove(self._get_key_path(key))


@named_as_lazr
class MultipleRepresentationCache(AtomicFileCache):
    """An AtomicFileCache keyed by URL and media type, as wadlclient's cache is."""

    def __init__(self, cache: str | os.PathLike[str]) -> None:
        super().__init__(cache, self.append_media_type)
        self.request_media_type: str | None = None

    def append_media_type(self, key: str) -> str:
        """The file name of ``key`` fetched as the current request media type."""
        if self.request_media_type is not None:
            key = f"{key}-{self.request_media_type}"
        return safename(key)


@named_as_lazr
class Browser:
    """Holds the HTTP object a service root's ``httpFactory`` made (``_connection``).

    The object is made when first needed: a root whose ``httpFactory`` is
    not overridden sends over wadlclient's own connections and may never
    need one.
    """

    NOT_MODIFIED = object()
    MAX_RETRIES = 6

    def __init__(
        self,
        service_root: Any,
        credentials: Any,
        cache: Any = None,
        timeout: float | None = None,
        proxy_info: Any = None,
        user_agent: str | None = None,
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self._factory_arguments = (credentials, cache, timeout, proxy_info)
        self._service_root = service_root
        self._made: Any = None
        self.user_agent = user_agent
        self.max_retries = max_retries

    def get(
        self, resource_or_uri: Any, headers: dict[str, str] | None = None,
        return_response: bool = False,
    ) -> Any:  # fmt: skip
        """GET a URL (a ``str`` or ``lazr.uri.URI``) or a resource, as lazr.restfulclient's
        browser does: the body's bytes, or ``(response, body)``; an error status raises.

        Scripts call it for what the WADL does not describe: a librarian file read
        through the API's root (``launchpad._browser.get(launchpad._root_uri.append(
        path))``), a resource's raw JSON. A conditional GET answered 304 gives
        ``NOT_MODIFIED``.
        """
        is_resource = isinstance(resource_or_uri, Resource)
        url = url_of(resource_or_uri) if is_resource else str(resource_or_uri)
        transport = session_of(self._service_root).transport
        response = transport.request("GET", url, headers=headers, use_cache=not headers)
        content: Any = response.content
        if response.status == 304:
            content = self.NOT_MODIFIED
        if return_response:
            return LazrResponse(response.status, response.reason, response.headers.items()), content
        return content

    @property
    def _connection(self) -> Any:
        """The ``httpFactory`` object (an httplib2.Http-like ``RestfulHttp``)."""
        if self._made is None:
            self._made = self._service_root.httpFactory(*self._factory_arguments)
        return self._made
