"""The ``wadlclient`` command line, run as its console script runs it, then the on-demand
modules its process imported.

    python tests/cli/cli_start_probe.py [wadlclient arguments...]

It runs `wadlclient.cli.main` on the arguments, as the ``wadlclient`` script
does, then prints one JSON object on a line of its own: the exit status and
which of `ON_DEMAND` are in ``sys.modules``.
"""

import json
import sys

from wadlclient.cli import main

#: What a command line may need, or not: the HTTP stack (with http.client, ssl and
#: email under it), the authorizers, the WADL parser, logging, and the stub
#: generator's planner.
ON_DEMAND = (
    "wadlclient.http",
    "wadlclient.objects",
    "wadlclient.auth",
    "wadlclient.wadl",
    "http.client",
    "ssl",
    "email",
    "logging",
    "wadlclient.stubgen.plan",
)

try:
    status = main(sys.argv[1:])
except SystemExit as done:  # --version and --help exit from the argument parser
    status = int(done.code or 0)
print()
print(json.dumps({"status": status, "loaded": [m for m in ON_DEMAND if m in sys.modules]}))
