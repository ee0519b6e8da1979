"""The at-a-distance sections check issue 32's goals from the samples, PASS or MISS."""

from __future__ import annotations

from benchmarks import latency, lptasks


def _latency(row: str, **clients: tuple[float, int, int]) -> dict[tuple[int, str, str], list]:
    return {
        (150, row, client.replace("_", " ").replace("off", "ours, look_ahead=0")): [
            latency.Sample(seconds, requests, distinct)
        ]
        for client, (seconds, requests, distinct) in clients.items()
    }


def test_the_n_plus_one_goal_is_a_tenth_of_lazrs_time_and_pages_plus_distinct_plus_3() -> None:
    met = _latency("n+1", lazr=(15.0, 102, 0), ours=(1.4, 10, 6), off=(15.0, 101, 6))
    slow = _latency("n+1", lazr=(15.0, 102, 0), ours=(1.6, 10, 6), off=(15.0, 101, 6))
    chatty = _latency("n+1", lazr=(15.0, 102, 0), ours=(1.0, 11, 6), off=(15.0, 101, 6))

    assert "<= 0.1, <= 10 req: PASS" in latency.markdown(met)
    assert "MISS" in latency.markdown(slow)
    assert "MISS" in latency.markdown(chatty)


def test_a_sparse_loop_may_send_a_tenth_over_lazr_and_be_no_slower_than_off() -> None:
    met = _latency("tenth", lazr=(2.0, 12, 0), ours=(0.7, 13, 0), off=(1.8, 11, 0))
    wasteful = _latency("tenth", lazr=(2.0, 12, 0), ours=(0.7, 14, 0), off=(1.8, 11, 0))
    slower = _latency("tenth", lazr=(2.0, 12, 0), ours=(2.0, 11, 0), off=(1.8, 11, 0))

    assert "PASS" in latency.markdown(met)
    assert "MISS" in latency.markdown(wasteful)
    assert "MISS" in latency.markdown(slower)


def test_the_launchpad_shaped_goal_is_a_tenth_of_stock_and_the_floor_plus_five_percent() -> None:
    def results(seconds: float, requests: int) -> dict[tuple[int, str], list]:
        return {
            (150, "launchpadlib"): [lptasks.Sample(150.0, 1007)],
            (150, "on wadlclient"): [lptasks.Sample(seconds, requests)],
        }

    assert "PASS" in lptasks.markdown(results(14.9, 655))
    assert "MISS" in lptasks.markdown(results(15.1, 626))
    assert "MISS" in lptasks.markdown(results(12.0, 656))
