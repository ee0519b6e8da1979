"""The client's own CPU per request and per page: what the library costs, not the server.

``python -m benchmarks.client_cpu [n1] [walk5] [walk75] [lazr5]`` starts two
cookbook services (2,000 recipes; pages of 5 and of 75) as processes of
their own, so that only the client's CPU is measured (``time.process_time``,
every thread of this process), and prints the median of ``REPEATS``:

- **n1**: 500 entries loaded one by one (``root.load(url).dish``), each a
  conditional request the cache answers after the first round;
- **walk5** / **walk75**: a ``for`` loop over every recipe in pages of 5 / 75
  on a new root each time (pages fetched ahead on the prefetch pool);
- **lazr5**: the walk of pages of 5 through the lazr.restfulclient layer.

Set ``BENCH_PROFILE=1`` for a cProfile of one round instead (its thread only).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

REPEATS = 5
RECIPES = 2000
LOADS = 500


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _service(page_size: int) -> Iterator[str]:
    """The base URL of a cookbook service in a process of its own, with pages of ``page_size``."""
    port = _free_port()
    command = [sys.executable, "-m", "cookbook_service", "--port", str(port)]
    command += ["--page-size", str(page_size), "--seed-recipes", str(RECIPES)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                answer = httpx.get(base + "1.0/", headers={"Accept": "application/json"})
                if answer.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the cookbook service at {base} never answered")
        yield base
    finally:
        process.terminate()
        process.wait()


def _measure(run: Callable[[Any], float], setup: Callable[[], Any]) -> float:
    """Milliseconds of CPU per unit ``run`` reports (median of ``REPEATS``, after one warm-up)."""
    run(setup())
    if os.environ.get("BENCH_PROFILE"):
        made = setup()
        profile = cProfile.Profile(time.process_time)
        profile.runcall(run, made)
        pstats.Stats(profile).sort_stats("tottime").print_stats(35)
        return 0.0
    costs = []
    for _ in range(REPEATS):
        made = setup()
        began = time.process_time()
        units = run(made)
        costs.append((time.process_time() - began) / units * 1000)
    return statistics.median(costs)


def _walk(page_size: int) -> Callable[[Iterable[Any]], float]:
    def run(collection: Iterable[Any]) -> float:
        from wadlclient.objects.collection import Collection

        Collection.ITERATION_PAGE_SIZE = page_size
        count = sum(1 for _ in collection)
        assert count >= RECIPES, count
        return count / page_size

    return run


def main(argv: list[str]) -> None:
    from wadlclient import ServiceRoot

    rows = argv or ["n1", "walk5", "walk75", "lazr5"]
    with _service(5) as small, _service(75) as big:
        root = ServiceRoot(None, small)
        urls = [recipe.self_link for recipe in root.recipes[:LOADS]]

        def loads(_: object) -> float:
            for url in urls:
                root.load(url).dish  # noqa: B018 - the attribute read is the point
            return len(urls)

        results: dict[str, float] = {}
        if "n1" in rows:
            results["n1 ms/request"] = _measure(loads, lambda: None)
        if "walk5" in rows:
            results["walk5 ms/page"] = _measure(_walk(5), lambda: ServiceRoot(None, small).recipes)
        if "walk75" in rows:
            results["walk75 ms/page"] = _measure(_walk(75), lambda: ServiceRoot(None, big).recipes)
        if "lazr5" in rows:
            from lazr.restfulclient.resource import ServiceRoot as LazrRoot

            results["lazr walk5 ms/page"] = _measure(
                _walk(5), lambda: LazrRoot(None, small + "1.0/").recipes
            )
        for name, value in results.items():
            print(f"{name:24s} {value:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
