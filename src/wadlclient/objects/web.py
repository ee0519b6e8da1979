"""Web addresses and references to entries: ``root.load_web(text)``.

The mechanism is the service's: an object's web page is its API path on a
web host, so an address becomes a path below the versioned root, and a
short code path a ``git_repositories.getByPath`` call. What a pasted text
names (hosts, views, reference spellings) is Launchpad's knowledge and
lives in `wadlclient.facts.launchpad_web`; this module only checks that
the root is Launchpad's, on the address's instance, and loads the entry.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from wadlclient.errors import NotFound, WebAddressError
from wadlclient.facts.launchpad_web import EXPECTED, is_launchpad_root, read, web_domain_of
from wadlclient.objects.entry import Entry
from wadlclient.objects.protocols import RootLike
from wadlclient.wadl import fragment_of

__all__ = ["WebAddresses", "load_web"]


class WebAddresses:
    """`ServiceRoot`'s ``load_web``: web addresses and references in, entries out."""

    __slots__ = ()

    def load_web(self, text: str, kind: str | None = None) -> Entry:
        """The entry ``text`` names: a Launchpad web address or reference (`load_web`).

        ``root.load_web("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1")``
        is that bug task; ``root.load_web("LP: #1")`` the bug; an entry's
        ``web_link`` loads the entry again. ``kind`` (an entry type of the
        WADL, ``"bug_task"``) is the type the text must name, else a
        `WebAddressError`; the typed package's overloads return that type.
        """
        return load_web(cast(RootLike, self), text, kind)


def load_web(root: RootLike, text: str, kind: str | None = None) -> Entry:
    """The entry ``text`` names on ``root``: a Launchpad web address or a reference.

    Raises `WebAddressError` for text that names no one object (naming what
    was expected), for an address of another Launchpad instance than the
    root's, and for a root that is not Launchpad's; `NotFound` when the
    object is not there.
    """
    if not isinstance(text, str):
        raise WebAddressError(f"load_web takes a string, not {type(text).__name__}: {EXPECTED}")
    if not is_launchpad_root(root.lp_collections):
        raise WebAddressError(
            f"cannot read {text!r} on {root.service_root}: web addresses and references "
            "are Launchpad's, and this service is not Launchpad's"
        )
    target = read(text)
    own = web_domain_of(urlsplit(root.service_root).hostname or "")
    if target.domain is not None and own is not None and target.domain != own:
        raise WebAddressError(
            f"cannot read {text!r} on {root.service_root}: it is an address on "
            f"{target.domain}, and this root is {own}'s"
        )
    if target.git_path:
        repositories: Any = cast(Any, root).git_repositories
        found = repositories.getByPath(path=target.path)
        if found is None:
            raise WebAddressError(f"{text!r}: Launchpad has no git repository at {target.path}")
        return _entry(text, found, kind)
    try:
        loaded = root.load(target.path)
    except NotFound as error:
        error.note = f"{text!r} names {target.path}, which Launchpad does not have"
        raise
    return _entry(text, loaded, kind)


def _entry(text: str, loaded: object, kind: str | None) -> Entry:
    if not isinstance(loaded, Entry):
        raise WebAddressError(
            f"cannot read {text!r}: it is a list of objects, not one object; expected {EXPECTED}"
        )
    named = fragment_of(loaded.resource_type_link)
    if kind is not None and named != kind:
        raise WebAddressError(f"{text!r} names a {named}, not the {kind} expected")
    return loaded
