"""Fixtures of the tests against lazr.restful's own example web service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.realservice.lazr_example import LazrExample


@pytest.fixture(scope="module")
def lazr_example_one_per_page() -> Iterator[LazrExample]:
    """The example service serving one recipe per page, so its private recipe empties a page."""
    with LazrExample(batch_size=1) as service:
        yield service


@pytest.fixture(scope="module")
def lazr_example() -> Iterator[LazrExample]:
    """The example service as it ships (pages of five)."""
    with LazrExample() as service:
        yield service
