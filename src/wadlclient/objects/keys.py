"""`KeyPaths`: where a service keeps the entry a collection's key names.

lazr.restful gives no rule for it: ``collection[key]`` asks for
``<collection>/<key>`` unless the service says otherwise. Launchpad says
otherwise for its top-level sets, and launchpadlib knows it (its
``PersonSet``, ``BugSet``, ``PillarSet``): a person is ``~ada``, a bug
``bugs/1``, a project, project group or distribution ``<root>/frobnicator``,
A service root carries one `KeyPaths` in its session (`key_paths_for`
picks it from the root's type) and `Collection.key_url` asks it. An int
stays an index, as everywhere in wadlclient: ``bugs(1)`` and ``bugs["1"]``
are bug 1 (launchpadlib's ``lp.bugs[1]``), ``bugs[1]`` the second of the
collection's entries.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from wadlclient.schema import FieldKind, TypeInfo

__all__ = ["GENERIC", "LAUNCHPAD", "KeyPaths", "key_paths_for"]


class KeyPaths(NamedTuple):
    """Key look-ups of the collections whose entries are not at ``<collection>/<key>``.

    ``paths`` maps a collection's resource type id to the path of an entry,
    relative to the service root, with ``{key}`` for the key (quoted as one
    path segment). ``signature`` names what the root must link (collections
    and entries by name) for these paths to be the service's.
    """

    paths: Mapping[str, str] = MappingProxyType({})
    signature: frozenset[str] = frozenset()

    def url(
        self, root_url: str, collection_url: str, collection_type: str | None, key: object
    ) -> str:
        """The URL of the entry ``key`` names in the collection at ``collection_url``."""
        segment = urllib.parse.quote(str(key), safe="")
        template = self.paths.get(collection_type) if collection_type is not None else None
        if template is None:
            return f"{collection_url.rstrip('/')}/{segment}"
        return root_url + template.format(key=segment)


#: Any service: ``<collection>/<key>``.
GENERIC = KeyPaths()

#: Launchpad's, as launchpadlib's ``PersonSet``, ``BugSet`` and ``PillarSet`` ask for them.
LAUNCHPAD = KeyPaths(
    paths=MappingProxyType(
        {
            "people": "~{key}",
            "bugs": "bugs/{key}",
            "projects": "{key}",
            "project_groups": "{key}",
            "distributions": "{key}",
        }
    ),
    signature=frozenset({"people", "bugs", "projects", "distributions", "me", "pillars"}),
)


def key_paths_for(root: TypeInfo) -> KeyPaths:
    """`LAUNCHPAD` for a root that links what Launchpad's does (its sets, ``me``, ``pillars``).

    The collections must be of the resource types the paths name (``people``
    of type ``people``): another service's ``people`` keeps the generic rule.
    """
    linked = {
        field.name: field.link_type
        for field in root.fields.values()
        if field.kind in (FieldKind.COLLECTION, FieldKind.ENTRY)
    }
    if not LAUNCHPAD.signature <= linked.keys():
        return GENERIC
    sets = [name for name in LAUNCHPAD.signature if name in LAUNCHPAD.paths]
    if any(linked[name] != name for name in sets):
        return GENERIC
    return LAUNCHPAD
