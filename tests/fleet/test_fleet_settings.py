"""The fleet's settings from the environment: every worker of a fleet is started the same way."""

from __future__ import annotations

import pytest

from wadlclient.fleet import settings_from_env


def test_the_fleets_redis_is_the_broker_backend_and_budget_unless_celery_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WADLCLIENT_FLEET_REDIS", "redis://fleet.example:6379/2")
    monkeypatch.setenv("CELERY_RESULT_BACKEND", "redis://results.example:6379/0")
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    monkeypatch.setenv("WADLCLIENT_FLEET_RATE", "2.5")
    monkeypatch.setenv("WADLCLIENT_FLEET_IN_FLIGHT", "4")

    settings = settings_from_env()

    assert settings.broker_url == settings.redis_url == "redis://fleet.example:6379/2"
    assert settings.backend_url == "redis://results.example:6379/0"
    budget = settings.budget()
    assert budget is not None and (budget.rate, budget.in_flight) == (2.5, 4)


def test_without_limits_there_is_no_shared_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RATE", "IN_FLIGHT"):
        monkeypatch.delenv(f"WADLCLIENT_FLEET_{name}", raising=False)

    assert settings_from_env().budget() is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WADLCLIENT_FLEET_RATE", "fast"),
        ("WADLCLIENT_FLEET_RATE", "0"),
        ("WADLCLIENT_FLEET_IN_FLIGHT", "2.5"),
        ("WADLCLIENT_FLEET_VISIBILITY_TIMEOUT", "-1"),
        ("WADLCLIENT_FLEET_LEASE", "soon"),
        ("WADLCLIENT_FLEET_CHECKPOINT_EVERY", "nan"),
        ("WADLCLIENT_FLEET_REDIS", "http://user:s3cret@example/"),
    ],
)
def test_a_setting_that_cannot_work_is_one_error_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)

    with pytest.raises(ValueError, match=name) as caught:
        settings_from_env()

    assert "s3cret" not in str(caught.value)
