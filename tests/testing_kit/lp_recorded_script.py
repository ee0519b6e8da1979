"""An unchanged launchpadlib program, for recording and replaying (``lazr_compat --record``).

    python -m wadlclient.lazr_compat --record FILE lp_recorded_script.py ROOT VERSION [CACHE_HOME]

It prints one JSON line of what it read. ``CACHE_HOME``: launchpadlib's
directory (its cache), kept between runs; a fresh temporary one by default.
"""

from __future__ import annotations

import json
import sys
import tempfile

from launchpadlib.launchpad import Launchpad


def main(service_root: str, version: str, home: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as fresh:
        lp = Launchpad.login_anonymously(
            "recorded-script", service_root=service_root, launchpadlib_dir=home or fresh,
            version=version,
        )  # fmt: skip
        ada = lp.people["ada"]
        bug = lp.bugs[1]
        print(json.dumps([ada.display_name, bug.title, bug.owner.name]))


if __name__ == "__main__":
    main(*sys.argv[1:4])
