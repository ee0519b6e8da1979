"""wadlclient: a client for WADL-described REST web services (lazr.restful dialect)."""

from wadlclient._version import __version__

__all__ = ["__version__"]
