"""Launchpad's published WADL, every API version, shipped: a fake Launchpad needs no download.

What ``https://api.launchpad.net/<version>/`` serves for
``Accept: application/vnd.sun.wadl+xml``, stored gzip-compressed
(devel: 2.2 MB as XML, 188 KB as shipped). Only devel describes what
modern tools use (snap, charm and rock recipes, ``git_repositories.new``,
``issueAccessToken``); 1.0 and beta are for code that logs in with them.
"""

from __future__ import annotations

import gzip
from importlib import resources

from wadlclient.facts.launchpad_urls import LAUNCHPAD_VERSIONS

__all__ = ["LAUNCHPAD_VERSIONS", "launchpad_wadl", "shipped_version"]


def launchpad_wadl(version: str = "devel") -> bytes:
    """Launchpad's WADL of one API version, as the service publishes it.

    ``FakeService(launchpad_wadl())`` is a fake of the devel API;
    ``launchpad_wadl("1.0")`` for code that logs in with ``version="1.0"``
    (launchpadlib's own default). Another version is a ValueError naming
    the known ones.
    """
    if version not in LAUNCHPAD_VERSIONS:
        raise ValueError(
            f"no Launchpad WADL for version {version!r}: the kit ships "
            + ", ".join(repr(known) for known in LAUNCHPAD_VERSIONS)
        )
    return _read(version)


def shipped_version(content: bytes) -> str | None:
    """The version whose shipped WADL ``content`` is, if this process read it; else None."""
    for version, shipped in _READ.items():
        if content is shipped or content == shipped:
            return version
    return None


#: The files read so far, by version.
_READ: dict[str, bytes] = {}


def _read(version: str) -> bytes:
    """The decompressed file, read once per process (bytes are immutable)."""
    content = _READ.get(version)
    if content is None:
        packed = resources.files("wadlclient.testing") / "data" / f"launchpad-{version}.wadl.gz"
        content = _READ.setdefault(version, gzip.decompress(packed.read_bytes()))
    return content
