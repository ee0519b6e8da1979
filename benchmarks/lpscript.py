"""The launchpadlib script of the ``launchpadlib`` row: plain launchpadlib code.

    python benchmarks/lpscript.py SERVICE_ROOT LAUNCHPADLIB_DIR
    python -m wadlclient.lazr_compat benchmarks/lpscript.py SERVICE_ROOT LAUNCHPADLIB_DIR

The first runs stock launchpadlib (lazr.restfulclient, wadllib, httplib2);
the second the same file with wadlclient installed as lazr.restfulclient.
It logs in anonymously (the cache holds the Launchpad WADL and the root)
and reads one collection.
"""

import sys

from launchpadlib.launchpad import Launchpad

service_root, launchpadlib_dir = sys.argv[1:3]
lp = Launchpad.login_anonymously(
    "wadlclient-bench", service_root=service_root, launchpadlib_dir=launchpadlib_dir, version="1.0"
)
names = [person.name for person in lp.people]
if len(names) != 5:
    raise SystemExit(f"expected 5 people, read {len(names)}")
