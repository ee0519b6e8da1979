"""Run launchpadlib's own test suite with wadlclient installed as lazr.restfulclient.

    python -m tests.lazr.launchpadlib_suite [pytest options]

Prints the tally; exits non-zero unless every test passed (and, for
launchpadlib 2.3.0, all 204 of them). The compatibility modules are
installed at import time, so the processes launchpadlib's tests spawn
(which import this module again as ``__mp_main__``) get them too.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
import tempfile
from collections import Counter

import wadlclient

wadlclient.install_as_lazr_restfulclient()

EXPECTED = {"2.3.0": 204}


class _Tally:
    """A pytest plugin counting outcomes (a failing setup counts as an error)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report: object) -> None:
        if "subtest" in type(report).__name__.lower():
            return
        when = getattr(report, "when", "")
        outcome = str(getattr(report, "outcome", ""))
        if when == "call":
            self.counts[outcome] += 1
        elif outcome == "failed":
            self.counts["error"] += 1
        elif when == "setup" and outcome == "skipped":
            self.counts["skipped"] += 1


def _check_served_by_wadlclient() -> None:
    """The suite must exercise wadlclient, not the real lazr.restfulclient."""
    from lazr.restfulclient.resource import ServiceRoot

    if not issubclass(ServiceRoot, wadlclient.ServiceRoot):
        raise SystemExit(f"lazr.restfulclient's ServiceRoot is not wadlclient's: {ServiceRoot}")


def main(argv: list[str]) -> int:
    import pytest

    _check_served_by_wadlclient()
    version = importlib.metadata.version("launchpadlib")
    tally = _Tally()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        args = ["-q", "-p", "no:cacheprovider", "--pyargs", "launchpadlib", *argv]
        code = pytest.main(args, plugins=[tally])
    counts = tally.counts
    passed, failed, errors = counts["passed"], counts["failed"], counts["error"]
    print(
        f"launchpadlib {version} suite on wadlclient (lazr.restfulclient.resource.ServiceRoot "
        f"from wadlclient): {passed} passed, {failed} failed, {errors} errors, "
        f"{counts['skipped']} skipped"
    )
    expected = EXPECTED.get(version)
    if code == 0 and not argv and expected is not None and passed != expected:
        print(f"expected {expected} passed tests for launchpadlib {version}")
        return 1
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
