"""A running example service idles quietly and stops at once when asked.

The suite keeps a pool of services to its end (`cookbook_service.testing`):
uvicorn's own server looks for its exit ten times a second, about 2 ms of
CPU a second for each idle one. This one looks once a second (the pace of
its ``Date`` header) and is woken to stop.
"""

from __future__ import annotations

import time

import httpx
import pytest

from cookbook_service import running
from cookbook_service.running import quiet_server_class, run_service


def test_an_idle_service_sleeps_until_it_is_stopped_and_still_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looks: list[int] = []

    class Counted(quiet_server_class()):  # type: ignore[misc]
        """The service's server, its looks counted, and only stopping can wake it."""

        look_every = 3600.0

        async def on_tick(self, counter: int) -> bool:
            looks.append(counter)
            return bool(await super().on_tick(counter))

    monkeypatch.setattr(running, "quiet_server_class", lambda: Counted)
    with run_service() as service:
        time.sleep(0.3)  # idle: uvicorn's own server would look three times here
        idle_looks = len(looks)
        answer = httpx.get(service.base_url + "1.0/", timeout=5)

    assert idle_looks == 1  # the look at start
    assert answer.status_code == 200 and answer.headers["date"]
    assert looks == [0, 10]  # stopping woke it for its last look; each refreshes the Date
