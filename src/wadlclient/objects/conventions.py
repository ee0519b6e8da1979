"""`Conventions`: the few ways a client may read and write the same wire differently.

wadlclient's native objects and the lazr.restfulclient compatibility
layer speak one dialect but promise different Python: lazr gives a
``datetime`` for an ``xsd:date`` and the JSON number for an
``xsd:decimal``, sends any value and lets the server refuse it, fetches
its WADL before its root, and has classes of its own names. A service root states its conventions
once; its session hands them to every object it makes.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

__all__ = ["NATIVE", "Conventions"]

Converter = Callable[[Any], Any]


class Conventions(NamedTuple):
    """How one service root's objects turn wire values into Python and back.

    ``converters`` replaces the schema's converter of a field (the key, a
    converter of `wadlclient.schema.converter_for`) by another, or by None
    for the value as JSON gave it. ``check_values``: whether a field set to
    a value outside the WADL's options is refused before anything is sent.
    ``concurrent_start``: whether the root's WADL and JSON requests go out
    together (one round trip) or one after the other, WADL first.
    ``classes`` makes, for an entry, collection or hosted file of no
    registered class, a subclass instead of the object layer's class (the
    key): lazr's ``Entry`` has lazr's private attributes.
    ``undeclared_entries``: whether an entry's JSON answered by a named
    operation whose WADL declares no answer (Launchpad's ``bug.subscribe``)
    is read as the entry (wadlclient) or handed back as the dict (lazr).
    """

    converters: Mapping[Converter, Converter | None] = MappingProxyType({})
    check_values: bool = True
    concurrent_start: bool = True
    classes: Mapping[type[Any], type[Any]] = MappingProxyType({})
    undeclared_entries: bool = True


#: wadlclient's own: the schema's types, values checked locally, one round trip to start.
NATIVE = Conventions()
