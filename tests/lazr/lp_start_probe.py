"""A plain launchpadlib script that says which on-demand modules its process imported.

    python -m wadlclient.lazr_compat tests/lazr/lp_start_probe.py SERVICE_ROOT DIR

It imports nothing but launchpadlib (the scenarios of ``lp_scenarios.py``
import launchpadlib's testing helpers, which bring asyncio and its thread
pool), logs in anonymously and reads one collection, as the benchmarks'
``launchpadlib`` row does, then prints one JSON object.
"""

import json
import sys

from launchpadlib.launchpad import Launchpad

#: expat, imported by every start with wadlclient's WADL parser (the control: the
#: probe is seen to see an import), then modules a start-up needs only for work it
#: may not do: fetching links together (a thread pool), reading a decimal field,
#: parsing an authentication challenge in httplib2 (pyparsing).
ON_DEMAND = ("xml.parsers.expat", "concurrent.futures", "decimal", "pyparsing")

service_root, launchpadlib_dir = sys.argv[1:3]
lp = Launchpad.login_anonymously(
    "compat-test", service_root=service_root, launchpadlib_dir=launchpadlib_dir, version="1.0"
)
people = [person.name for person in lp.people]
print(json.dumps({"people": people, "loaded": [m for m in ON_DEMAND if m in sys.modules]}))
