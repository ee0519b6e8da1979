"""Code that names the real service reaches the fake, and nothing else of it leaves: `routed_to`.

    with FakeService(launchpad_wadl()) as fake, routed_to(fake):
        lp = wadlclient.launchpad.login_anonymously("app", "https://api.launchpad.net/",
                                                    version="devel")   # reaches the fake

Every wadlclient `ServiceRoot` started in the block (native, typed, and
lazr.restfulclient's on wadlclient, so launchpadlib on wadlclient too)
for the address the fake stands in for goes to the fake instead: the host
its WADL was published at, and for a fake of Launchpad every Launchpad
host (production, staging, qastaging, dogfood, the dev and test ones).
The path and version are kept: a version the fake does not serve gets
its 404 naming both. Other addresses are left alone.

So does every request any root sends in the block (an absolute URL given
to ``load``, a link, a redirect), whatever the spelling of the host (case,
a trailing dot, a port, user info): it is sent to the fake before any
connection is opened or any name looked up (`wadlclient.http.routes`). A
request for Launchpad's other hosts (``launchpad.net``, its web pages) is
refused with one `RouteRefused` naming it. A recording made in the block
stores the address the code asked for, not the fake's (`as_asked`).
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, quote, unquote, urlsplit, urlunsplit

from wadlclient.http.routes import RouteRefused, request_routes
from wadlclient.objects import rewrite_service_addresses
from wadlclient.testing.shapes import LAUNCHPAD_HOSTS

if TYPE_CHECKING:
    from wadlclient.testing.service import FakeService

__all__ = ["RouteRefused", "as_asked", "routed_to"]

#: Domains all of whose hosts are Launchpad's: a test of a fake Launchpad reaches none of them.
_LAUNCHPAD_DOMAINS = ("launchpad.net", "launchpad.test", "paddev.net")

#: The fake's origin (``http://127.0.0.1:N/``) -> the one the code asked for, while routed.
_asked: dict[str, str] = {}
_asked_lock = threading.Lock()


def _host(parts: SplitResult) -> str:
    """The host a URL names, as a resolver would read it: lower case, unescaped, no final dot."""
    return unquote(parts.hostname or "").rstrip(".").lower()


def _origin(parts: SplitResult) -> str:
    """``scheme://host[:port]/`` of a URL, the host as `_host` reads it."""
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    shown = _host(parts) if port in (None, default) else f"{_host(parts)}:{port}"
    return f"{parts.scheme.lower()}://{shown}/"


class routed_to:
    """A context manager: within it, roots and requests for the fake's service reach ``fake``."""

    def __init__(self, fake: FakeService) -> None:
        published = urlsplit(fake.published_base)
        self._published_host = _host(published)
        self._launchpad = fake.launchpad
        self._target = urlsplit(fake.service_root)
        self._fake_origin = _origin(self._target)
        #: Until a root asks for another (staging), the code is taken to ask for the published one.
        self._published_origin = _origin(published)
        self._addresses = rewrite_service_addresses(self._root_address)
        self._routes = request_routes(self._request_address)

    def _stands_in_for(self, host: str) -> bool:
        return host == self._published_host or (self._launchpad and host in LAUNCHPAD_HOSTS)

    def _moved(self, parts: SplitResult) -> str:
        return urlunsplit(parts._replace(scheme=self._target.scheme, netloc=self._target.netloc))

    def _root_address(self, url: str) -> str | None:
        """A root's start: the fake's address for the real service's, remembered for recordings."""
        parts = urlsplit(url)
        if not self._stands_in_for(_host(parts)):
            return None
        with _asked_lock:
            _asked[self._fake_origin] = _origin(parts)
        return self._moved(parts)

    def _request_address(self, url: str) -> str | None:
        """A request: to the fake for the real service's hosts, refused for Launchpad's others."""
        parts = urlsplit(url)
        host = _host(parts)
        if self._stands_in_for(host):
            return self._moved(parts)
        if self._launchpad and any(
            host == domain or host.endswith("." + domain) for domain in _LAUNCHPAD_DOMAINS
        ):
            raise RouteRefused(
                f"routed_to(fake): {parts.scheme}://{parts.hostname}/ is Launchpad's but not "
                "the web service the fake stands in for; a test under routed_to sends nothing "
                "to the network",
                url=url,
            )
        return None

    def remember(self, url: str) -> None:
        """The code asked for the service at ``url`` (a login moved to the fake without the
        root's rewrite, as `patched_launchpad`'s): recordings hold its address."""
        parts = urlsplit(url)
        if self._stands_in_for(_host(parts)):
            with _asked_lock:
                _asked[self._fake_origin] = _origin(parts)

    def __enter__(self) -> routed_to:
        with _asked_lock:
            _asked[self._fake_origin] = self._published_origin
        self._addresses.__enter__()
        self._routes.__enter__()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._routes.__exit__(kind, error, tb)
        self._addresses.__exit__(kind, error, tb)
        with _asked_lock:
            _asked.pop(self._fake_origin, None)


def as_asked(text: str) -> str:
    """``text`` (a URL, a header, a body) with each routed fake's address as the code asked it.

    Percent-encoded too (a link passed in a query or a form).
    """
    if not _asked:
        return text
    with _asked_lock:
        pairs = list(_asked.items())
    for fake, asked in pairs:
        text = text.replace(fake, asked).replace(quote(fake, safe=""), quote(asked, safe=""))
    return text
