"""WADL: the immutable model of a document, and the parser that builds it.

``model`` holds the dataclasses and their lookups; ``parser`` (with the
entity guard in ``guard`` and the element builders in ``builder``) turns
a document into an ``Application``. The persisted model lives in
`wadlclient.wadl.store`, which this package does not import: only a process
that persists or loads a model pays for pickle.
"""

from wadlclient.wadl.digest import wadl_digest
from wadlclient.wadl.guard import MAX_ENTITIES, MAX_ENTITY_LENGTH, MAX_EXPANSION
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
