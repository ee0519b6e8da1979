"""A testing kit for code that uses a lazr.restful-dialect service (docs/testing-kit.md).

`FakeService` serves a fake made from any WADL over real HTTP on loopback;
`launchpad_wadl` is Launchpad's published WADL of each API version,
shipped, to make a fake Launchpad of; `routed_to` points every wadlclient
root for the faked service's address at the fake, and
`wadlclient.testing.launchpad.patched_launchpad` launchpadlib's logins too.
A handler raises `HTTPException` to answer an error status.
"""

from wadlclient.testing.errors import HTTPException
from wadlclient.testing.journal import FakeJournal, Served
from wadlclient.testing.routing import routed_to
from wadlclient.testing.service import FakeService
from wadlclient.testing.shapes import LAUNCHPAD_PATHS
from wadlclient.testing.store import FakeEntry
from wadlclient.testing.wadls import LAUNCHPAD_VERSIONS, launchpad_wadl

__all__ = [
    "LAUNCHPAD_PATHS",
    "LAUNCHPAD_VERSIONS",
    "FakeEntry",
    "FakeJournal",
    "FakeService",
    "HTTPException",
    "Served",
    "launchpad_wadl",
    "routed_to",
]
