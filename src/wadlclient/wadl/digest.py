"""The digest that names a WADL document's persisted model.

Apart from the parser so that a warm start, which looks the persisted
model up by this digest and never parses, does not import expat.
"""

from __future__ import annotations

import hashlib

__all__ = ["wadl_digest"]


def wadl_digest(data: bytes) -> str:
    """The sha256 hex digest of a WADL document: the key of its persisted model."""
    return hashlib.sha256(data).hexdigest()
