"""Type stubs for launchpadlib, shipped with wadlclient (docs/launchpad-typed.md).

Partial (PEP 561): `launchpad`, `errors` and `uris` are typed here; the
other modules of launchpadlib are left to the installed package.
"""

__version__: str
