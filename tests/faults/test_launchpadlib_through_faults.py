"""A launchpadlib script, unchanged, run on wadlclient through the fault proxy, ends without error.

The Launchpad-like service (real Launchpad WADL) names the proxy as its
address, so every request of the script crosses the proxy; the script runs
as ``python -m wadlclient.lazr_compat script.py``, as a user runs it.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.faultproxy import STALL, FaultPlan, FaultProxy
from tests.lazr.lpservice import LoopbackServer
from tests.lazr.test_launchpadlib_on_loopback import run_scenario

FLAKY = FaultPlan(statuses={503: 0.3, 502: 0.05}, drop=0.1, stall=0.1, seed=3, stall_seconds=60)


def test_a_launchpadlib_script_survives_a_flaky_network(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    with FaultProxy(0, FLAKY) as proxy, LoopbackServer(launchpad_wadl_bytes, proxy.url) as server:
        proxy.upstream_port = server.port
        result = run_scenario("anonymous_short_timeout", server, tmp_path)

    assert result["people"] == ["ada", "alan", "grace"]
    assert result["bug_1_title"] == "First bug"
    assert result["operation_result"] == "grace"
    assert proxy.faults() >= 3
    assert proxy.count(STALL) >= 1
