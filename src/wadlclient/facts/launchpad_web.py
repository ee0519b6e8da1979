"""Launchpad's web addresses and references: which object a pasted address or reference names.

Provenance. An object's web page lives at its API path on a web host
(``ICanonicalUrlData`` gives one canonical path to both: ``lib/lp/services/
webapp/publisher.py`` ``canonical_url``; the API's ``web_link`` is that path
on the object's ``rootsite``), so ``https://bugs.launchpad.net/ubuntu/+source/
hello/+bug/1`` is the bug task at ``ubuntu/+source/hello/+bug/1`` of the API.
The web hosts of each instance are those of launchpadlib's ``uris`` module
(``launchpad.net``, ``staging.launchpad.net``, ``qastaging.launchpad.net``,
``dogfood.paddev.net``, ``launchpad.test``) with the vhosts of Launchpad's
``launchpad-lazr.conf`` (``bugs``, ``code``, ``answers``, ``blueprints``,
``translations``, ``api``; ``git`` serves repositories by their git path).
``+index`` is every object's default view (``lib/lp/app/browser``); a
trailing ``+name`` is another view of it. References: ``LP: #N`` is the
changelog form (dpkg's ``debian/changelog`` closes Launchpad bugs with it;
``LP#N`` and ``bug N`` are its everyday spellings), ``lp:PATH`` a code path
as ``git`` and ``bzr`` read it (Launchpad's ``GitLookup`` / ``IGitRepositorySet.
getByPath``), ``ppa:OWNER/NAME`` add-apt-repository's spelling of
``~OWNER/+archive/ubuntu/NAME`` (software-properties' ``ppa.py``).

`read` turns text into a `WebTarget`: the API path to load, or the git path
to look up; what it cannot read is a `WebAddressError` naming what it expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import quote, unquote, urlsplit

from wadlclient.errors import WebAddressError
from wadlclient.facts.launchpad_urls import LAUNCHPAD_HOSTS, LAUNCHPAD_VERSIONS

__all__ = [
    "CGIT_VIEWS",
    "EXPECTED",
    "LISTING_VIEWS",
    "OBJECT_VIEWS",
    "ROOT_COLLECTIONS",
    "WEB_DOMAINS",
    "WEB_SITES",
    "WebTarget",
    "api_host_for",
    "is_launchpad_root",
    "read",
    "web_domain_of",
]

#: The web domain of each API host: ``api.launchpad.net`` -> ``launchpad.net``.
WEB_DOMAINS: frozenset[str] = frozenset(host.removeprefix("api.") for host in LAUNCHPAD_HOSTS)

#: Collections of Launchpad's service root (every version's WADL): a root that has
#: them all is Launchpad's, wherever it is served from (a test's fake on loopback).
ROOT_COLLECTIONS = frozenset({"bugs", "people", "projects", "distributions", "archives"})

#: Subdomains of an instance's web domain that show its objects (the vhosts).
WEB_SITES = frozenset({"www", "bugs", "code", "answers", "blueprints", "translations", "api"})

#: Trailing views that show the object itself: the address names the object.
OBJECT_VIEWS = frozenset({"+index", "+activity", "+edit", "+subscribe", "+text"})

#: Trailing views that list other objects: an error, since no one object is meant.
LISTING_VIEWS = frozenset(
    {
        "+bugs", "+bugs-text", "+assignedbugs", "+reportedbugs", "+subscribedbugs",
        "+questions", "+faqs", "+specs", "+milestones", "+series", "+announcements",
        "+download", "+git", "+branches", "+merges", "+activereviews", "+recipes",
        "+ppas", "+snaps", "+charm-recipes", "+rock-recipes", "+livefs", "+builds",
        "+packages", "+members", "+participation", "+related-packages",
        "+maintained-packages", "+uploaded-packages", "+ppa-packages", "+sharing",
        "+subscriptions", "+translations", "+imports", "+archive", "+source",
        "+webhooks", "+ref", "+merge", "+bug", "+question", "+spec", "+build",
    }
)  # fmt: skip

EXPECTED = (
    "a Launchpad web address of one object (https://bugs.launchpad.net/bugs/1, "
    "https://launchpad.net/~ada, https://code.launchpad.net/~ada/frob/+git/frob/+merge/7, ...) "
    "or a reference (LP: #1, LP#1, bug 1, #1, 1, lp:frob, lp:~ada/frob/+git/frob, ppa:ada/tools)"
)

# Patterns, not compiled ones: `re` compiles each when first used (then keeps it), so
# a start that reads no reference (most: the module comes with every service root)
# compiles none.
_BUG = r"(?:(?:lp|bug)\s*:?\s*#?\s*|#)?(\d+)"  # case-blind
_PPA = r"ppa:([^/\s]+)/(?:([^/\s]+)/)?([^/\s]+)"
_LP = r"lp:([^\s:#?]+)"


class WebTarget(NamedTuple):
    """What a web address or reference names.

    ``path``: an API path below the versioned root (``bugs/1``), or, when
    ``git_path`` is true, a git path for ``git_repositories.getByPath``
    (``frob``: a project's default repository). ``domain``: the web domain
    of the instance the address is on (None for a reference: any instance).
    """

    path: str
    domain: str | None = None
    git_path: bool = False


def is_launchpad_root(collections: Iterable[str]) -> bool:
    """Whether a root with these top-level collections is Launchpad's (`ROOT_COLLECTIONS`)."""
    return set(collections) >= ROOT_COLLECTIONS


def web_domain_of(api_host: str) -> str | None:
    """The web domain of Launchpad's API host ``api_host``; None for another host."""
    return api_host.removeprefix("api.") if api_host in LAUNCHPAD_HOSTS else None


def api_host_for(domain: str) -> str:
    """The API host of the instance whose web domain is ``domain``."""
    return f"api.{domain}"


def read(text: str) -> WebTarget:
    """The object ``text`` names: an address on a Launchpad web host, or a reference."""
    stripped = text.strip()
    if stripped.startswith("<") and stripped.endswith(">"):  # as mail and chat quote a link
        stripped = stripped[1:-1].strip()
    if "://" not in stripped and _instance_of(stripped.split("/", 1)[0].lower())[0]:
        stripped = "https://" + stripped  # pasted without its scheme: launchpad.net/bugs/1
    if "://" in stripped:
        return _address(text, stripped)
    bug = re.fullmatch(_BUG, stripped, re.IGNORECASE)
    if bug:
        return WebTarget(f"bugs/{int(bug.group(1))}")
    ppa = re.fullmatch(_PPA, stripped)
    if ppa:
        owner, distribution, name = ppa.groups()
        return WebTarget(f"~{owner.lstrip('~')}/+archive/{distribution or 'ubuntu'}/{name}")
    lp = re.fullmatch(_LP, stripped)
    if lp and not lp.group(1).isdigit():
        return _code_path(lp.group(1).strip("/"))
    raise WebAddressError(f"cannot read {text!r}: expected {EXPECTED}")


def _code_path(path: str) -> WebTarget:
    """``lp:`` paths: a repository's or branch's own path is loaded, a short one looked up."""
    segments = path.split("/")
    if "+git" in segments or (segments[0].startswith("~") and len(segments) == 3):
        return WebTarget(path)
    return WebTarget(path, git_path=True)


def _address(text: str, stripped: str) -> WebTarget:
    parts = urlsplit(stripped)
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https"):
        raise WebAddressError(f"cannot read {text!r}: not an http(s) address; expected {EXPECTED}")
    domain, site = _instance_of(host)
    if domain is None:
        raise WebAddressError(
            f"cannot read {text!r}: {host or 'no host'} is not one of Launchpad's web hosts "
            f"({', '.join(sorted(WEB_DOMAINS))} and their bugs., code., answers., "
            f"blueprints., translations. sites); expected {EXPECTED}"
        )
    segments = [_requoted(segment) for segment in parts.path.split("/") if segment]
    if site == "api" and segments and segments[0] in LAUNCHPAD_VERSIONS:
        segments = segments[1:]
    if site == "git":
        segments = _before_cgit_view(segments)
        if not segments:
            raise WebAddressError(
                f"cannot read {text!r}: it names no repository; expected {EXPECTED}"
            )
        return WebTarget("/".join(segments), domain, git_path=True)
    while segments and segments[-1] in OBJECT_VIEWS:
        segments.pop()
    if not segments:
        raise WebAddressError(
            f"cannot read {text!r}: it is a front page, no one object's; expected {EXPECTED}"
        )
    last = segments[-1]
    if last in LISTING_VIEWS:
        raise WebAddressError(
            f"cannot read {text!r}: {last} is a page listing many objects, not one object's "
            f"page; expected {EXPECTED}"
        )
    if last.startswith("+"):
        raise WebAddressError(
            f"cannot read {text!r}: {last} is a view Launchpad's API does not publish; "
            f"expected {EXPECTED}"
        )
    return WebTarget("/".join(_old_ppa(segments)), domain)


#: cgit's pages of a repository on git.launchpad.net (``~ada/frob/tree/README?h=main``).
CGIT_VIEWS = frozenset(
    {"tree", "commit", "log", "plain", "diff", "refs", "blame", "patch", "snapshot", "stats"}
)


def _before_cgit_view(segments: list[str]) -> list[str]:
    """The repository's segments of a cgit page's path (all of them for the repository's)."""
    for at, segment in enumerate(segments[1:], 1):
        if segment in CGIT_VIEWS:
            return segments[:at]
    return segments


def _requoted(segment: str) -> str:
    """A path segment quoted one way (``%7Eada`` is ``~ada``, ``%2B`` a ``+``), as web links are."""
    return quote(unquote(segment), safe="+:@!$&'()*,;=")


def _instance_of(host: str) -> tuple[str | None, str | None]:
    """(web domain, site) of a Launchpad web host; (None, None) for any other host."""
    if host in WEB_DOMAINS:
        return host, None
    site, _, rest = host.partition(".")
    if rest in WEB_DOMAINS and (site in WEB_SITES or site == "git"):
        return rest, site
    return None, None


def _old_ppa(segments: list[str]) -> list[str]:
    """``~ada/+archive/ppa`` (before PPAs had distributions) is ``~ada/+archive/ubuntu/ppa``."""
    if len(segments) == 3 and segments[0].startswith("~") and segments[1] == "+archive":
        return [segments[0], "+archive", "ubuntu", segments[2]]
    return segments
