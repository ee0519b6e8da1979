"""Reading the example service's journal reliably in the cache tests."""

from __future__ import annotations

import time

import pytest

from cookbook_service.testing import RunningService

# The service records a request just after sending its answer, so a client
# can hold the answer a moment before the journal shows it. Waiting for the
# expected number of entries (and briefly, when none is expected, for an
# unexpected one) keeps the counts exact.
_CATCH_UP = 2.0
_GRACE_WHEN_NONE_EXPECTED = 0.05


class Wire:
    """What the service saw: (method, path, If-None-Match sent, status) per request."""

    def __init__(self, service: RunningService) -> None:
        self.service = service

    def requests(self, expected: int) -> list[tuple[str, str, str | None, int]]:
        """The requests so far, once ``expected`` of them have been recorded."""
        limit = _CATCH_UP if expected else _GRACE_WHEN_NONE_EXPECTED
        deadline = time.monotonic() + limit
        while len(self.service.journal) < max(expected, 1) and time.monotonic() < deadline:
            time.sleep(0.001)
        entries = self.service.journal.entries()
        return [(e.method, e.path, e.if_none_match, e.status) for e in entries]

    def summary(self, expected: int) -> list[tuple[str, str, bool, int]]:
        """Like `requests`, with only whether each request was conditional."""
        return [(m, p, inm is not None, s) for m, p, inm, s in self.requests(expected)]

    def clear(self, expected: int) -> None:
        """Forget everything so far, once ``expected`` requests have been recorded."""
        self.requests(expected)
        self.service.journal.clear()


@pytest.fixture
def wire(cookbook_service: RunningService) -> Wire:
    return Wire(cookbook_service)

