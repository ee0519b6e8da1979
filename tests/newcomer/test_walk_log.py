"""A walk over a collection starts with an INFO line naming it and its size."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cookbook_service.testing import PUBLIC_RECIPE_COUNT
from wadlclient import ServiceRoot


def test_a_walk_logs_its_collection_and_total_at_info(
    cookbook_service: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root:
        caplog.set_level(logging.INFO, logger="wadlclient.objects")

        walked = sum(1 for _ in root.recipes)

    url = cookbook_service.url("recipes")
    assert walked == PUBLIC_RECIPE_COUNT
    assert [r.getMessage() for r in caplog.records if r.name == "wadlclient.objects"] == [
        f"walking {url}: {PUBLIC_RECIPE_COUNT} entries"
    ]
    assert all(r.levelno == logging.INFO for r in caplog.records if r.name == "wadlclient.objects")


def test_a_walk_after_len_logs_the_size_it_already_knows(
    cookbook_service: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root:
        recipes = root.recipes
        total = len(recipes)
        caplog.set_level(logging.INFO, logger="wadlclient.objects")

        list(recipes)

    assert f": {total} entries" in caplog.records[-1].getMessage()
