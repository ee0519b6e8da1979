"""Type stubs for lazr.restfulclient, shipped with wadlclient (docs/launchpad-typed.md).

Partial (PEP 561): `resource` and `errors` are typed here, so that code
written against launchpadlib can name lazr's classes in its annotations
(``lp_obj: Entry``) and catch its errors; lazr's other modules are left to
the installed package.
"""

__version__: str
