"""Launchpad's WADL, shipped with the testing kit, so that a fake Launchpad needs no download.

It is the devel WADL `wadlclient.launchpad` is generated from, stored
gzip-compressed (1.5 MB as XML, 135 KB as shipped).
"""

from __future__ import annotations

import gzip
from importlib import resources

__all__ = ["launchpad_wadl"]

_FILE = "launchpad-devel.wadl.gz"


def launchpad_wadl() -> bytes:
    """Launchpad's devel WADL, as the service publishes it: ``FakeService(launchpad_wadl())``."""
    packed = (resources.files("wadlclient.testing") / "data" / _FILE).read_bytes()
    return gzip.decompress(packed)
