"""One start-up sample in a brand-new interpreter.

``python -m benchmarks.child <workload> <client> <base_url> <cache_dir>``
prints one JSON line ``{"seconds": ...}``. A fresh process is the only honest
way to time an import or a first service-root construction: nothing is warm.
The interval covers the work itself, not interpreter start-up, which is the
same for every client.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

from benchmarks.clients import IMPORT_NAMES, make_driver


def measure(workload: str, client: str, base_url: str, cache: Path) -> float:
    """Seconds taken by the start-up step of ``workload`` for ``client``."""
    if workload == "import":
        started = time.perf_counter()
        importlib.import_module(IMPORT_NAMES[client])
        return time.perf_counter() - started
    if workload not in ("cold_start", "warm_start", "prefill"):
        raise ValueError(f"{workload!r} is not a start-up workload")
    importlib.import_module(IMPORT_NAMES[client])
    driver = make_driver(client)
    started = time.perf_counter()
    driver.start(base_url, cache)
    elapsed = time.perf_counter() - started
    driver.close()
    return elapsed


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    workload, client, base_url, cache = argv
    seconds = measure(workload, client, base_url, Path(cache))
    print(json.dumps({"seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
