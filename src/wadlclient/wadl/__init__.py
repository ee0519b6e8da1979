"""WADL: the immutable model of a document, and the parser that builds it.

``model`` holds the dataclasses and their lookups; ``parser`` (with the
entity guard in ``guard`` and the element builders in ``builder``) turns
a document into an ``Application``. The persisted model lives in
`wadlclient.wadl.store`, which this package does not import: only a process
that persists or loads a model pays for pickle. Nor does it import the
parser until `parse_wadl` (or a guard limit) is first asked for: a warm
start loads the persisted model, found by `wadl_digest`, and never parses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from wadlclient.wadl.digest import wadl_digest
from wadlclient.wadl.model import (
    WADL_NS,
    Application,
    Link,
    Method,
    Param,
    Representation,
    Request,
    ResourceType,
    Response,
    fragment_of,
)

if TYPE_CHECKING:
    from wadlclient.wadl.guard import MAX_ENTITIES, MAX_ENTITY_LENGTH, MAX_EXPANSION
    from wadlclient.wadl.parser import parse_wadl

__all__ = [
    "MAX_ENTITIES",
    "MAX_ENTITY_LENGTH",
    "MAX_EXPANSION",
    "WADL_NS",
    "Application",
    "Link",
    "Method",
    "Param",
    "Representation",
    "Request",
    "ResourceType",
    "Response",
    "fragment_of",
    "parse_wadl",
    "wadl_digest",
]

#: The names served on first use, and the module of each (expat comes with them).
_LAZY = {
    "MAX_ENTITIES": "guard",
    "MAX_ENTITY_LENGTH": "guard",
    "MAX_EXPANSION": "guard",
    "parse_wadl": "parser",
}


def __getattr__(name: str) -> Any:
    """Import the parser (or the guard) when one of its names is first used."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
