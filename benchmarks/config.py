"""Where things are, and what each workload measures, in one place.

The orchestrator (``run``), the pyperf worker (``worker``) and the one-shot
child (``child``) all read the workload table from here so that the three
processes agree on names, sizes and goals.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = REPO_ROOT / "benchmarks"
SCRATCH_ROOT = REPO_ROOT / ".bench-tmp"

#: Client names, in the order the table shows them. ``http.client`` is the
#: floor: the same HTTP exchanges on a bare standard-library connection, no
#: object layer at all (the fastest bare client; httpx is no longer what
#: wadlclient sends on). ``httpx`` can still be asked for with ``--clients``.
OURS = "ours"
THEIRS = "lazr"
FLOOR = "http.client"
HTTPX = "httpx"
CLIENTS = (OURS, THEIRS, FLOOR)

EXAMPLE_WADL_TYPE = "application/vnd.example.wadl+xml"
SUN_WADL_TYPE = "application/vnd.sun.wadl+xml"


PYCACHE_DIR = SCRATCH_ROOT / "pycache"


def measured_env() -> dict[str, str]:
    """The environment of every process that runs a client under measurement.

    Both libraries must import from compiled bytecode, as they do after a
    ``pip install``. A machine that sets ``PYTHONDONTWRITEBYTECODE`` (this one
    does) would otherwise recompile wadlclient's editable sources on every
    import while lazr.restfulclient reads its installed ``.pyc`` files. So the
    variable is dropped and bytecode goes to a private tree
    (``PYTHONPYCACHEPREFIX``), leaving the source tree untouched; the
    warm-up samples fill it. Where writing bytecode is allowed already (``make
    test`` runs so), the usual ``__pycache__`` folders serve: a private tree
    would make a fresh clone compile the standard library and every package
    again, which the processes under test then pay for.
    """
    env = dict(os.environ)
    if env.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE_DIR)
    return env


def shared_data_dir() -> Path:
    """The team's shared data: ``$WADLCLIENT_SHARED_DIR``, ``../shared``, ``/work/shared``.

    The tests find the Launchpad WADL through this too, so CI, a clone and
    a developer machine all look in the same places.
    """
    candidates = []
    if "WADLCLIENT_SHARED_DIR" in os.environ:
        candidates.append(Path(os.environ["WADLCLIENT_SHARED_DIR"]))
    candidates += [REPO_ROOT.parent / "shared", Path("/work/shared")]
    for candidate in candidates:
        if (candidate / "data").is_dir():
            return candidate / "data"
    raise FileNotFoundError(
        "shared data not found; set WADLCLIENT_SHARED_DIR to the shared/ directory"
    )


def launchpad_wadl_path() -> Path:
    """The 1.5 MB Launchpad WADL used by the warm-start workload."""
    return shared_data_dir() / "launchpad-devel.wadl"


#: The versions of Launchpad's web service whose published WADL the shared data holds.
LAUNCHPAD_VERSIONS = ("devel", "beta", "1.0")


def launchpad_published_wadl_path(version: str = "devel") -> Path:
    """Launchpad's published WADL of ``version`` (gzip-compressed), as api.launchpad.net serves it.

    Not `launchpad_wadl_path`, which is launchpadlib's old 1.0 test WADL under
    a misleading name; the typed package (``make launchpad-typed``) is
    generated from this one, ``devel``.
    """
    if version not in LAUNCHPAD_VERSIONS:
        raise ValueError(f"Launchpad publishes no WADL {version!r}: one of {LAUNCHPAD_VERSIONS}")
    return shared_data_dir() / "launchpad" / f"{version}.wadl.gz"


@dataclass(frozen=True)
class ServiceSpec:
    """Options of one ``python -m cookbook_service`` process the harness starts."""

    key: str
    seed_recipes: int
    latency_ms: int = 0
    page_size: int = 75


#: Workloads that run against the Launchpad WADL server on caches filled beforehand.
LAUNCHPAD_WARM = ("warm_start", "process_launchpad")


@dataclass(frozen=True)
class Workload:
    """One row of the results table.

    ``kind`` says how a sample is taken: ``fresh`` spawns a new interpreter per
    sample (start-up costs), ``loop`` repeats an operation in a warmed worker,
    ``tracemalloc`` takes the peak of Python allocations made while iterating
    (after the service root exists), ``rss`` the peak private memory of the
    whole worker process (`benchmarks.peakmem`); both memory kinds use one
    fresh worker per sample.
    ``process`` times a whole new interpreter, start to exit. ``clients``,
    when given, limits the row to those clients.
    """

    key: str
    title: str
    kind: str
    goal: float | None
    service: str | None = None
    size: int = 0
    params: dict[str, int] = field(default_factory=dict)
    floor: bool = True
    clients: tuple[str, ...] = ()
    rounds: int = 3
    values: int = 3
    warmups: int = 1
    note: str = ""


@dataclass(frozen=True)
class Plan:
    """Everything one run measures: services to start and workloads to time."""

    smoke: bool
    services: tuple[ServiceSpec, ...]
    workloads: tuple[Workload, ...]


LAUNCHPADLIB_TITLE = (
    "launchpadlib script, whole process: login_anonymously on a warm cache "
    "(Launchpad WADL), one collection read; stock vs on wadlclient"
)
LAUNCHPADLIB_NOTE = (
    "its floor is launchpadlib's own start-up (`benchmarks/lpfloor.py`: launchpadlib "
    "imported over empty stand-ins for lazr.restfulclient, then the read on a bare "
    "connection), which every launchpadlib process pays whatever library is beneath it"
)


IMPORT_LAUNCHPAD_TITLE = (
    "import of the typed Launchpad package (wadlclient.launchpad), after import wadlclient"
)
IMPORT_LAUNCHPAD_NOTE = (
    "the goal is under 50 ms (issue 22); its classes are in __init__.pyi, read by type "
    "checkers only"
)


#: Fresh workers per client for a process-memory row: the median of 5 is not
#: moved by one odd sample, as the median of 2 was (it is their mean).
RSS_ROUNDS = 5
RSS_NOTE = (
    f"{RSS_ROUNDS} rounds: the median of 2 samples is their mean, which one odd sample "
    "moves; the median of 5 is not moved by one or two"
)


def full_plan() -> Plan:
    """The issue-6 workloads at their real sizes, sized to finish within ten minutes."""
    services = (
        ServiceSpec("10k", 10_000),
        ServiceSpec("10k-latency", 10_000, latency_ms=20),
        ServiceSpec("100k", 100_000),
    )
    workloads = (
        Workload("import", "import of the package", "fresh", 0.7, values=5),
        Workload("import_launchpad", IMPORT_LAUNCHPAD_TITLE, "fresh", None, floor=False,
                 clients=(OURS,), values=5, note=IMPORT_LAUNCHPAD_NOTE),
        Workload("cold_start", "cold start: service root, empty cache", "fresh", 0.8,
                 service="10k", values=5),
        Workload("script_start", "import + cold start (informational: a script pays both)",
                 "fresh", None, service="10k", values=3),
        Workload("warm_start", "warm start: Launchpad WADL (1.5 MB), fresh cache, no requests",
                 "fresh", 0.1, floor=False, values=3),
        Workload("launchpadlib", LAUNCHPADLIB_TITLE, "fresh", 0.5, values=3,
                 note=LAUNCHPADLIB_NOTE),
        Workload("iterate", "iterate 10,000 entries, page size 75", "loop", 0.5,
                 service="10k", size=10_000, values=3),
        Workload("iterate_latency", "iterate 10,000 entries, page size 75, 20 ms latency",
                 "loop", 0.25, service="10k-latency", size=10_000, values=2),
        Workload("iterate_same_pages", "iterate 10,000 entries, every client at the "
                 "server's page size (75)", "loop", 0.5, service="10k", size=10_000,
                 params={"page_size": 75}, values=3),
        Workload("slice", "slice [5000:5100] of 10,000 entries", "loop", 0.5,
                 service="10k", params={"start": 5000, "stop": 5100}, values=5),
        Workload("lookup", "100 entries looked up by key, one GET each", "loop", 0.6,
                 service="10k", params={"count": 100, "threads": 1}, values=5),
        Workload("lookup_write_behind", "100 entries looked up by key, wadlclient's cache "
                 "writing behind (HTTPCache(write_behind=True))", "loop", None, service="10k",
                 params={"count": 100, "threads": 1, "write_behind": 1}, values=5),
        Workload("lookup_latency", "160 lookups by key, 20 ms latency, 1 thread", "loop",
                 None, service="10k-latency", params={"count": 160, "threads": 1}, values=2),
        Workload("lookup_latency_threads", "160 lookups by key, 20 ms latency, 8 threads "
                 "sharing one root", "loop", None, service="10k-latency",
                 params={"count": 160, "threads": 8}, clients=(OURS, FLOOR), values=2,
                 note="lazr.restfulclient is left out: its root shared by 8 threads hangs "
                 "(httplib2 connections are not thread-safe)"),
        Workload("refresh", "1,000 lp_refresh() answered 304", "loop", 0.7,
                 service="10k", params={"count": 1000}, values=3),
        Workload("process_script", "user's script, whole process: import, root on a warm "
                 "cache, one collection read", "process", None, service="10k", values=3),
        Workload("process_launchpad", "user's script on the Launchpad WADL, whole process: "
                 "import, root on a warm cache", "process", 0.5, floor=False, values=3),
        Workload("iterate_100k", "iterate 100,000 entries, page size 75", "loop", None,
                 service="100k", size=100_000, values=1, rounds=5, warmups=0,
                 note="5 rounds: the walk-growth line divides its median by the 10k walk's, "
                 "and with 2 one slow sample (0.88 s and 1.16 s) read 12.3x against a goal of 11"),
        Workload("memory_small", "peak allocations iterating 10,000 entries (tracemalloc)",
                 "tracemalloc", 0.7, service="10k", size=10_000, values=1, warmups=0, rounds=2),
        Workload("memory", "peak allocations iterating 100,000 entries (tracemalloc)",
                 "tracemalloc", 0.7, service="100k", size=100_000, values=1, warmups=0,
                 rounds=1, note="1 round: lazr.restfulclient under tracemalloc needs about "
                 "100 s per sample; tracemalloc peaks vary little between runs"),
        Workload("rss_small", "peak process memory iterating 10,000 entries", "rss", None,
                 service="10k", size=10_000, values=1, warmups=0, rounds=RSS_ROUNDS,
                 note=RSS_NOTE),
        Workload("rss", "peak process memory iterating 100,000 entries", "rss", None,
                 service="100k", size=100_000, values=1, warmups=0, rounds=RSS_ROUNDS,
                 note=RSS_NOTE),
    )  # fmt: skip
    return Plan(False, services, workloads)


def smoke_plan() -> Plan:
    """Every workload at tiny sizes against one small service, one sample each.

    It checks that the harness, the three clients and the report still work
    together (it runs in ``make test``); its figures mean nothing.
    """
    #: 100 entries: two pages at the server's 75 (one at wadlclient's 150, two again in
    #: ``iterate_same_pages``); lazr.restfulclient walks them in about 80 ms of CPU.
    services = (ServiceSpec("small", 100),)
    sized = (
        Workload("import", "import of the package", "fresh", 0.7),
        Workload("import_launchpad", IMPORT_LAUNCHPAD_TITLE, "fresh", None, floor=False,
                 clients=(OURS,)),
        Workload("cold_start", "cold start: service root, empty cache", "fresh", 0.8,
                 service="small"),
        Workload("warm_start", "warm start: Launchpad WADL (1.5 MB), fresh cache, no requests",
                 "fresh", 0.1, floor=False),
        Workload("launchpadlib", LAUNCHPADLIB_TITLE, "fresh", 0.5, note=LAUNCHPADLIB_NOTE),
        Workload("iterate", "iterate 100 entries, page size 75", "loop", 0.5,
                 service="small", size=100),
        Workload("iterate_same_pages", "iterate 100 entries, every client at the server's "
                 "page size (75)", "loop", 0.5, service="small", size=100,
                 params={"page_size": 75}),
        Workload("slice", "slice [50:60] of 100 entries", "loop", 0.5,
                 service="small", params={"start": 50, "stop": 60}),
        Workload("lookup", "10 entries looked up by key", "loop", 0.6,
                 service="small", params={"count": 10, "threads": 1}),
        Workload("lookup_write_behind", "10 entries looked up by key, wadlclient's cache "
                 "writing behind", "loop", None, service="small",
                 params={"count": 10, "threads": 1, "write_behind": 1}),
        Workload("lookup_latency_threads", "16 lookups by key, 8 threads sharing one root",
                 "loop", None, service="small", params={"count": 16, "threads": 8},
                 clients=(OURS, FLOOR)),
        Workload("process_script", "user's script, whole process: import, root on a warm "
                 "cache, one collection read", "process", None, service="small"),
        Workload("process_launchpad", "user's script on the Launchpad WADL, whole process: "
                 "import, root on a warm cache", "process", 0.5, floor=False),
        Workload("refresh", "10 lp_refresh() answered 304", "loop", 0.7,
                 service="small", params={"count": 10}),
        Workload("memory", "peak allocations iterating 100 entries (tracemalloc)",
                 "tracemalloc", 0.7, service="small", size=100),
        Workload("rss", "peak process memory iterating 100 entries", "rss", None,
                 service="small", size=100),
    )  # fmt: skip
    workloads = tuple(replace(w, rounds=1, values=1, warmups=0, note="") for w in sized)
    return Plan(True, services, workloads)
