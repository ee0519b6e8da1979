"""``wadlclient get`` with what people paste: a Launchpad web address or reference.

``wadlclient get https://bugs.launchpad.net/bugs/1`` (no SERVICE: the
address says which Launchpad, a reference means launchpad.net's) and
``wadlclient get https://api.launchpad.net/ 'LP: #1'`` (PATH read by
``root.load_web`` when it is no path of the service) both print the object.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from wadlclient.cli.base import UsageError

if TYPE_CHECKING:
    from wadlclient.objects import Entry, ServiceRoot

__all__ = ["WEB_VERSION", "from_web_text", "load_web_path"]

#: The version a root inferred from a web address speaks: the one that publishes
#: every kind of object a web page shows (recipes and their builds among them).
WEB_VERSION = "devel"


def from_web_text(args: argparse.Namespace) -> None:
    """Given only a web address or reference, SERVICE becomes its instance's API root.

    ``args.path`` takes the text; ``args.api_version`` is `WEB_VERSION`
    unless given. Text that is neither is a usage error naming what was expected.
    """
    from wadlclient.errors import WebAddressError
    from wadlclient.facts.launchpad_web import api_host_for, read

    text = args.service
    try:
        target = read(text)
    except WebAddressError as error:
        raise UsageError(
            f"give SERVICE and PATH, or one Launchpad web address or reference: {error}"
        ) from None
    args.service = f"https://{api_host_for(target.domain or 'launchpad.net')}/"
    args.path = text
    if args.api_version is None:
        args.api_version = WEB_VERSION


def load_web_path(root: ServiceRoot, path: str) -> Entry | None:
    """The entry ``path`` names when the root is Launchpad's and it is a web address
    (any absolute URL off the service) or a reference (``LP: #1``); None for a path or
    URL of the service itself, left to the ordinary lookup."""
    from wadlclient.errors import WebAddressError
    from wadlclient.facts.launchpad_web import is_launchpad_root, read

    if not is_launchpad_root(root.lp_collections) or path.startswith(root.service_root):
        return None
    if "://" not in path:
        try:
            read(path)
        except WebAddressError:
            return None
    try:
        return root.load_web(path)
    except WebAddressError as error:
        raise UsageError(str(error)) from None
