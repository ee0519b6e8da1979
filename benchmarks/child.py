"""One start-up sample in a brand-new interpreter.

``python -m benchmarks.child <workload> <client> <base_url> <cache_dir>``
prints one JSON line ``{"seconds": ...}``. A fresh process is the only honest
way to time an import or a first service-root construction: nothing is warm.
The interval covers the work itself, not interpreter start-up, which is the
same for every client. Before an import is timed this module has imported
nothing but what the interpreter loads anyway, so no dependency (httpx,
json, ...) is pre-loaded for free.
"""

import importlib
import sys
import time

#: What "import of the package" means for each client: the module a script
#: imports to create a service root (the floor is the HTTP library alone). For
#: wadlclient that is `wadlclient.objects`: ``import wadlclient`` imports
#: ``ServiceRoot`` when a script first names it (``from wadlclient import
#: ServiceRoot`` does), so the package alone would leave it to the start's row.
IMPORT_NAMES = {
    "ours": "wadlclient.objects",
    "lazr": "lazr.restfulclient.resource",
    "http.client": "http.client",
    "httpx": "httpx",
}

START_UP_WORKLOADS = (
    "import", "import_launchpad", "cold_start", "script_start", "warm_start", "prefill",
)  # fmt: skip
#: The typed Launchpad package (issue 22): what it adds to ``import wadlclient``.
TYPED_LAUNCHPAD = "wadlclient.launchpad"


def measure(workload: str, client: str, base_url: str, cache: str) -> float:
    """Seconds taken by the start-up step of ``workload`` for ``client``."""
    if workload not in START_UP_WORKLOADS:
        raise ValueError(f"{workload!r} is not a start-up workload")
    started = time.perf_counter()
    importlib.import_module(IMPORT_NAMES[client])
    imported = time.perf_counter() - started
    if workload == "import_launchpad":
        started = time.perf_counter()
        importlib.import_module(TYPED_LAUNCHPAD)
        return time.perf_counter() - started
    if workload == "import":
        return imported
    from pathlib import Path

    from benchmarks.clients import make_driver

    driver = make_driver(client)
    started = time.perf_counter()
    driver.start(base_url, Path(cache))
    elapsed = time.perf_counter() - started
    driver.close()
    # A script pays for both; where a library puts a lazy import moves cost
    # between the two rows, never out of this one.
    return imported + elapsed if workload == "script_start" else elapsed


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    workload, client, base_url, cache = argv
    seconds = measure(workload, client, base_url, cache)
    print(f'{{"seconds": {seconds!r}}}')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
