"""The floor of the ``launchpadlib`` row: launchpadlib's own start-up, under no client library.

    python benchmarks/lpfloor.py SERVICE_ROOT LAUNCHPADLIB_DIR

Measurement only. launchpadlib imports httplib2 (and through it
pyparsing), looks up its own version and builds its classes on
lazr.restfulclient's: every launchpadlib process pays that, whatever
library sits beneath. Here lazr.restfulclient's modules are empty
stand-ins whose names are bare classes, so the import costs launchpadlib
alone; then the script's one collection read is made on a bare
``http.client`` connection, as the other rows' floors make their
exchanges. No login, no WADL: no client can do less than this.
"""

import http.client
import json
import sys
import types
import urllib.parse

STAND_INS = (
    "lazr.restfulclient",
    "lazr.restfulclient._browser",
    "lazr.restfulclient.authorize",
    "lazr.restfulclient.authorize.oauth",
    "lazr.restfulclient.errors",
    "lazr.restfulclient.resource",
)


class _Empty(types.ModuleType):
    """A module whose every public name is a new, empty class."""

    def __getattr__(self, name: str) -> type:
        if name.startswith("__"):
            raise AttributeError(name)
        made = type(name, (), {"RESOURCE_TYPE_CLASSES": {}})
        setattr(self, name, made)
        return made


for module_name in STAND_INS:
    sys.modules[module_name] = _Empty(module_name)

import launchpadlib.launchpad  # noqa: E402, F401

base = urllib.parse.urlsplit(sys.argv[1])
connection = http.client.HTTPConnection(base.netloc)
connection.request("GET", base.path + "1.0/people", headers={"Accept": "application/json"})
names = [person["name"] for person in json.loads(connection.getresponse().read())["entries"]]
if len(names) != 5:
    raise SystemExit(f"expected 5 people, read {len(names)}")
