"""Code that names the real service reaches the fake: `routed_to`, over wadlclient's address hook.

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
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from wadlclient.objects import rewrite_service_addresses
from wadlclient.testing.service import FakeService
from wadlclient.testing.shapes import LAUNCHPAD_HOSTS

__all__ = ["routed_to"]


def routed_to(fake: FakeService) -> rewrite_service_addresses:
    """A context manager: within it, roots for the fake's service reach ``fake``."""
    published = urlsplit(fake.published_base)
    target = urlsplit(fake.service_root)

    def rewrite(url: str) -> str | None:
        parts = urlsplit(url)
        host = parts.hostname or ""
        same = (host, parts.port) == (published.hostname, published.port)
        if not same and not (fake.launchpad and host in LAUNCHPAD_HOSTS):
            return None
        return urlunsplit(parts._replace(scheme=target.scheme, netloc=target.netloc))

    return rewrite_service_addresses(rewrite)
