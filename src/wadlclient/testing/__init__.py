"""A testing kit for code that uses a lazr.restful-dialect service (docs/testing-kit.md).

`FakeService` serves a fake made from any WADL over real HTTP on loopback;
`wadlclient.testing.launchpad` points launchpadlib's logins at it.
"""

from wadlclient.testing.journal import FakeJournal, Served
from wadlclient.testing.service import FakeService
from wadlclient.testing.store import LAUNCHPAD_PATHS, FakeEntry

__all__ = ["LAUNCHPAD_PATHS", "FakeEntry", "FakeJournal", "FakeService", "Served"]
