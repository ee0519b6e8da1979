"""An unchanged launchpadlib program that logs in (credentials from $WADLCLIENT_CREDENTIALS).

    python -m wadlclient.lazr_compat --record FILE lp_logged_in_script.py ROOT VERSION

It prints one JSON line: the display name of ~ada.
"""

from __future__ import annotations

import json
import sys
import tempfile

from launchpadlib.launchpad import Launchpad


def main(service_root: str, version: str) -> None:
    with tempfile.TemporaryDirectory() as home:
        lp = Launchpad.login_with(
            "logged-in-script", service_root=service_root, launchpadlib_dir=home, version=version
        )
        print(json.dumps([lp.people["ada"].display_name]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
