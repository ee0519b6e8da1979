"""lazr.restfulclient's public surface, served by wadlclient's engine.

Installed under lazr's module names by
`wadlclient.install_as_lazr_restfulclient`; see docs/lazr-compat.md.
"""

__version__ = "4.1.0"
