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

from cookbook_service.running import quiet_server_class, run_service


def test_an_idle_service_sleeps_until_it_is_stopped_and_still_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looks: list[int] = []
    server = quiet_server_class()
    on_tick = server.on_tick

    async def counted(self: object, counter: int) -> bool:
        looks.append(counter)
        return await on_tick(self, counter)  # type: ignore[arg-type]

    monkeypatch.setattr(server, "on_tick", counted)
    monkeypatch.setattr(server, "look_every", 3600.0)  # only stopping can wake it now
    with run_service() as service:
        time.sleep(0.3)  # idle: uvicorn's own server would look three times here
        idle_looks = len(looks)
        answer = httpx.get(service.base_url + "1.0/", timeout=5)

    assert idle_looks == 1  # the look at start
    assert answer.status_code == 200 and answer.headers["date"]
    assert len(looks) == 2  # stopping woke it for its last look
    assert looks == [0, 10]  # each look refreshes the Date header (uvicorn's every tenth)
