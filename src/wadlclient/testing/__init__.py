"""A testing kit for code that uses a lazr.restful-dialect service (docs/testing-kit.md).

`FakeService` serves a fake made from any WADL over real HTTP on loopback;
`launchpad_wadl` is Launchpad's published WADL of each API version,
shipped, to make a fake Launchpad of; `routed_to` points every wadlclient
root for the faked service's address at the fake, and
`wadlclient.testing.launchpad.patched_launchpad` launchpadlib's logins too.
A handler raises `HTTPException` to answer an error status.
`FakeWebhooks` makes a fake Launchpad deliver signed webhooks to a
receiver a test serves with `serving` (docs/webhooks.md).
"""

from wadlclient._lazy import lazy_names as _lazy_names

#: ``typing.TYPE_CHECKING`` without importing typing (type checkers take any name
#: ``TYPE_CHECKING`` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from wadlclient.testing.errors import HTTPException
    from wadlclient.testing.journal import FakeJournal, Served
    from wadlclient.testing.receivers import serving
    from wadlclient.testing.routing import routed_to
    from wadlclient.testing.service import FakeService
    from wadlclient.testing.shapes import LAUNCHPAD_PATHS
    from wadlclient.testing.store import FakeEntry
    from wadlclient.testing.wadls import LAUNCHPAD_VERSIONS, launchpad_wadl
    from wadlclient.testing.webhooks import FakeWebhooks

#: The module each name comes from, imported when the name is first asked for: pytest
#: loads the kit's plugin (`wadlclient.testing.pytest_plugin`, a module of this
#: package) in every session of every project that installs wadlclient, and a session
#: that uses no fake then imports neither the fake nor the HTTP stack under it.
_LAZY: dict[str, tuple[str, ...]] = {
    "wadlclient.testing.errors": ("HTTPException",),
    "wadlclient.testing.journal": ("FakeJournal", "Served"),
    "wadlclient.testing.receivers": ("serving",),
    "wadlclient.testing.routing": ("routed_to",),
    "wadlclient.testing.service": ("FakeService",),
    "wadlclient.testing.shapes": ("LAUNCHPAD_PATHS",),
    "wadlclient.testing.store": ("FakeEntry",),
    "wadlclient.testing.wadls": ("LAUNCHPAD_VERSIONS", "launchpad_wadl"),
    "wadlclient.testing.webhooks": ("FakeWebhooks",),
}

if not TYPE_CHECKING:
    # Hidden from type checkers, which see the names imported above.
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "LAUNCHPAD_PATHS",
    "LAUNCHPAD_VERSIONS",
    "FakeEntry",
    "FakeJournal",
    "FakeService",
    "FakeWebhooks",
    "HTTPException",
    "Served",
    "launchpad_wadl",
    "routed_to",
    "serving",
]
