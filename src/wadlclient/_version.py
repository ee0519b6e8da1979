"""The package version, in one place (read by hatchling and the User-Agent)."""

__version__ = "0.1.0"
