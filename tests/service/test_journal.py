"""The journal records every answered request, never a secret; reset clears it."""

from __future__ import annotations

import base64
from typing import Any

import httpx

from cookbook_service.testing import JournalEntry, RunningService


def test_journal_records_what_was_asked_and_answered(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    web.get(
        cookbook_service.url("recipes"),
        params={"ws.size": 2},
        headers={"Accept": "application/json", "If-None-Match": '"x"', "User-Agent": "t/1"},
    )

    assert cookbook_service.journal.entries() == [
        JournalEntry(
            method="GET",
            path="/1.0/recipes",
            query="ws.size=2",
            accept="application/json",
            if_none_match='"x"',
            if_match=None,
            auth_scheme=None,
            user_agent="t/1",
            status=200,
        )
    ]


def test_journal_records_errors_too(cookbook_service: RunningService, web: httpx.Client) -> None:
    web.get(cookbook_service.url("nowhere"))

    assert [e.status for e in cookbook_service.journal.entries()] == [404]


def test_journal_keeps_the_path_percent_encoded(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    web.get(cookbook_service.url("cookbooks/The%20Joy%20of%20Cooking"))

    assert cookbook_service.journal.entries()[0].path == "/1.0/cookbooks/The%20Joy%20of%20Cooking"


def test_journal_records_the_auth_scheme_but_not_the_secret(
    cookbook_service_factory: Any, web: httpx.Client
) -> None:
    service = cookbook_service_factory(auth="basic")
    credentials = base64.b64encode(b"mallory:hunter2").decode()

    web.get(service.url("recipes"), headers={"Authorization": f"Basic {credentials}"})

    entry = service.journal.entries()[0]
    assert entry.auth_scheme == "Basic"
    assert credentials not in repr(service.journal.entries())


def test_reset_clears_the_journal_and_restores_the_data(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    web.delete(cookbook_service.url("recipes/1"))

    cookbook_service.reset()

    assert cookbook_service.journal.entries() == []
    assert web.get(cookbook_service.url("recipes/1")).status_code == 200
