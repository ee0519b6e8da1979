"""A link as lazr.restful reads one: an absolute URL of the service, or a path from its root.

lazr.restful dereferences a link that starts with ``/`` against the root
of the version the request is for (``/~ada`` is ``<base>~ada``), and an
absolute URL only on the service's own host; a relative path without the
slash, a query or a fragment is no link (``URLDereferencingMixin``).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import unquote, urlsplit

__all__ = ["path_of_link"]


def path_of_link(link: str, bases: Sequence[str]) -> str | None:
    """The path below the versioned root that ``link`` names, or None if it names none.

    ``bases`` are the versioned roots the service answers for (the fake's
    own, and the address the WADL was published at, which the fake stands in for).
    """
    path: str | None = link[1:] if link.startswith("/") else None
    if path is None:
        path = next((link[len(base) :] for base in bases if link.startswith(base)), None)
    if path is None:
        return None
    split = urlsplit(path)
    if split.query or split.fragment or "?" in path or "#" in path:
        return None
    return unquote(path).rstrip("/")
