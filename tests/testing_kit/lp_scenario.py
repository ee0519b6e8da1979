"""Run as a script (``python -m wadlclient.lazr_compat lp_scenario.py``): the unittest way.

A fake, the context manager patching launchpadlib, and the code under
test; it prints one JSON line of what it saw.
"""

from __future__ import annotations

import json
import sys

from launchpadlib.launchpad import Launchpad
from tests.testing_kit import lp_code

from wadlclient.testing import FakeService, launchpad_wadl
from wadlclient.testing.launchpad import patched_launchpad


def main() -> None:
    with FakeService(launchpad_wadl()) as fake, patched_launchpad(fake):
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        ubuntu = fake.add("distributions", name="ubuntu")
        bug = fake.add("bugs", title="Crash", owner=ada)
        task = fake.add_to(
            bug, "bug_tasks", bug=bug, status="Fix Committed", target=ubuntu,
            bug_target_name="ubuntu",
        )  # fmt: skip
        result = {
            "lazr": sys.modules["lazr.restfulclient"].__file__,
            "summary": lp_code.bug_summary(1),
            "released": lp_code.release_fixes(1),
            "status": task["status"],
            "anonymous": lp_code.display_name("ada"),
            "journal": [[s.method, s.path, s.status, s.auth_scheme] for s in fake.journal],
        }
    result["restored"] = Launchpad.login_with.__func__.__module__
    print(json.dumps(result))


if __name__ == "__main__":
    main()
