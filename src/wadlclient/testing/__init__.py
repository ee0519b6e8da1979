"""A testing kit for code that uses a lazr.restful-dialect service (docs/testing-kit.md).

`FakeService` serves a fake made from any WADL over real HTTP on loopback;
`wadlclient.testing.launchpad` points launchpadlib's logins at it;
`launchpad_wadl` is Launchpad's WADL, shipped, to make a fake Launchpad of.
"""

from wadlclient.testing.journal import FakeJournal, Served
from wadlclient.testing.service import FakeService
from wadlclient.testing.store import LAUNCHPAD_PATHS, FakeEntry
from wadlclient.testing.wadls import launchpad_wadl

__all__ = [
    "LAUNCHPAD_PATHS",
    "FakeEntry",
    "FakeJournal",
    "FakeService",
    "Served",
    "launchpad_wadl",
]
