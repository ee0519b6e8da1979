"""Launchpad's URL shapes: where the real service keeps its collections and entries.

Provenance: Launchpad's URL declarations (its navigation classes, ``lp:url``
rules and ``ICanonicalUrlData`` classes, in ``lib/lp/*/browser`` and
``lib/lp/app/browser/launchpad.py``): people at ``~ada``, a snap at
``~ada/+snap/frob``, a live filesystem at ``~ada/+livefs/ubuntu/noble/frob``
and its builds at ``.../+build/<id>``, a charm recipe at
``~ada/frobnicator/+charm/frob``, a repository at ``~ada/frobnicator/+git/frob``
and its branch at ``.../+ref/main``, the primary archive at
``ubuntu/+archive/primary``; launchpadlib's ``uris`` module for the hosts.

A rule is a template over the entry's fields (``"{owner}/+snap/{name}"``:
``{owner}`` is the path of the linked entry, ``{owner.name}`` a field of it,
``{parent}`` the entry it was added to, ``{n}`` its number among its type),
a sequence of templates (the first that fills), or a function of a
`PathSource` (`wadlclient.testing.paths` reads them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol
from urllib.parse import urlsplit

__all__ = [
    "LAUNCHPAD_COLLECTIONS",
    "LAUNCHPAD_HOSTS",
    "LAUNCHPAD_PATHS",
    "LAUNCHPAD_ROOT_LINKS",
    "LAUNCHPAD_SITES",
    "LAUNCHPAD_VERSIONS",
    "TOTAL_SIZE_LINK_VERSIONS",
    "PathSource",
    "is_launchpad",
]


class PathSource(Protocol):
    """What a rule function reads: placeholders' values, and the entry it was added to."""

    @property
    def parent(self) -> Any: ...

    def lookup(self, dotted: str) -> Any: ...


#: The hosts of Launchpad's web service (launchpadlib's ``uris``): a WADL
#: whose base is on one of them is Launchpad's.
LAUNCHPAD_HOSTS = frozenset(
    {
        "api.launchpad.net",
        "api.edge.launchpad.net",
        "api.staging.launchpad.net",
        "api.qastaging.launchpad.net",
        "api.dogfood.paddev.net",
        "api.launchpad.test",
    }
)


#: The API versions Launchpad serves, newest first (its web service configuration's
#: ``active_versions``, ``lib/lp/services/webservice/configuration.py``). lazr.restful
#: takes a link of any of them wherever a link goes, whatever the request's version.
LAUNCHPAD_VERSIONS = ("devel", "beta", "1.0")

#: The versions whose pages of named operations' results give ``total_size_link``
#: rather than ``total_size`` (``first_version_with_total_size_link = "devel"``, same file).
TOTAL_SIZE_LINK_VERSIONS = frozenset({"devel"})


def is_launchpad(url: str) -> bool:
    """Whether ``url`` is on one of Launchpad's web service hosts."""
    return (urlsplit(url).hostname or "") in LAUNCHPAD_HOSTS


#: Top-level collections that Launchpad does not keep at their own name
#: (``LaunchpadRootNavigation`` and the web service's root: ``lib/lp/app/browser/launchpad.py``).
LAUNCHPAD_COLLECTIONS: Mapping[str, str] = MappingProxyType(
    {
        "bug_trackers": "bugs/bugtrackers",
        "charm_bases": "+charm-bases",
        "charm_recipes": "+charm-recipes",
        "countries": "+countries",
        "craft_recipes": "+craft-recipes",
        "cves": "bugs/cve",
        "distributions": "distros",
        "git_repositories": "+git",
        "languages": "+languages",
        "packagesets": "package-sets",
        "polls": "+polls",
        "processors": "+processors",
        "project_groups": "projectgroups",
        "rock_bases": "+rock-bases",
        "rock_recipes": "+rock-recipes",
        "snap_bases": "+snap-bases",
        "snappy_serieses": "+snappy-series",
        "snaps": "+snaps",
        "temporary_blobs": "temporary-blobs",
        "translation_groups": "+groups",
    }
)

#: Entry links of the root and where they lead (``me`` answers 303 to the person).
LAUNCHPAD_ROOT_LINKS: Mapping[str, str] = MappingProxyType(
    {"me": "people/+me", "services": "+services"}
)


def _ref(source: PathSource) -> str | None:
    """``<repository>/+ref/main`` for ``refs/heads/main``; other refs by their whole path."""
    path = source.lookup("path")
    repository = source.lookup("repository") or source.lookup("parent")
    if not path or not repository:
        return None
    return f"{repository}/+ref/{str(path).removeprefix('refs/heads/')}"


def _archive(source: PathSource) -> str | None:
    """A PPA under its owner (``~ada/+archive/ubuntu/ppa``), else under its distribution."""
    name, distribution = source.lookup("name"), source.lookup("distribution.name")
    reference = str(source.lookup("reference") or "")
    owner = source.lookup("parent") or source.lookup("owner")
    if name and distribution and owner and (source.parent or reference.startswith("~")):
        return f"{owner}/+archive/{distribution}/{name}"
    if name and distribution:
        return f"{distribution}/+archive/{name}"
    return None


def _inside(owner: str, segment: str) -> tuple[str, str]:
    """A rule for an entry kept under its ``owner`` link, or the entry it was added to."""
    return (f"{{{owner}}}/{segment}/{{n}}", f"{{parent}}/{segment}/{{n}}")


PathRule = str | Sequence[str] | Callable[[PathSource], "str | None"]

#: Entry type -> where Launchpad keeps entries of that type.
LAUNCHPAD_PATHS: Mapping[str, PathRule] = MappingProxyType(
    {
        "person": "~{name}",
        "team": "~{name}",
        "project": "{name}",
        "distribution": "{name}",
        "project_group": "{name}",
        "bug": "bugs/{id}",
        "builder": "builders/{name}",
        "processor": "+processors/{name}",
        "country": "+countries/{iso3166code2}",
        "language": "+languages/{code}",
        "cve": "bugs/cve/{sequence}",
        "bug_tracker": "bugs/bugtrackers/{name}",
        "snap_base": "+snap-bases/{name}",
        "snappy_series": "+snappy-series/{name}",
        "charm_base": "+charm-bases/{n}",
        "rock_base": "+rock-bases/{n}",
        "distro_series": "{distribution}/{name}",
        "distro_arch_series": "{distroseries}/{architecture_tag}",
        "distribution_source_package": "{distribution}/+source/{name}",
        "source_package": "{distroseries}/+source/{name}",
        "packageset": "package-sets/{distroseries.distribution.name}/{distroseries.name}/{name}",
        "project_series": "{project}/{name}",
        "milestone": "{target}/+milestone/{name}",
        "bug_task": ("{target}/+bug/{bug.id}", "{target}/+bug/{parent.id}"),
        "question": "{target}/+question/{id}",
        "team_membership": ("{team}/+member/{member.name}", "{parent}/+member/{member.name}"),
        "archive": _archive,
        "source_package_publishing_history": _inside("archive", "+sourcepub"),
        "binary_package_publishing_history": _inside("archive", "+binarypub"),
        "build": _inside("archive", "+build"),
        # PersonNavigation's ``+livefs`` step: owner, distribution, series, name.
        "livefs": "{owner}/+livefs/{distro_series}/{name}",
        "livefs_build": _inside("livefs", "+build"),
        "snap": "{owner}/+snap/{name}",
        "snap_build": _inside("snap", "+build"),
        "snap_build_request": _inside("snap", "+build-request"),
        "charm_recipe": "{owner}/{project.name}/+charm/{name}",
        "charm_recipe_build": _inside("recipe", "+build"),
        "charm_recipe_build_request": _inside("recipe", "+build-request"),
        "rock_recipe": "{owner}/{project.name}/+rock/{name}",
        "rock_recipe_build": _inside("recipe", "+build"),
        "rock_recipe_build_request": _inside("recipe", "+build-request"),
        "craft_recipe": "{owner}/{project.name}/+craft/{name}",
        "craft_recipe_build": _inside("recipe", "+build"),
        "craft_recipe_build_request": _inside("recipe", "+build-request"),
        "git_repository": (
            "{unique_name}",
            "{owner}/{target}/+git/{name}",
            "{owner}/+git/{name}",
        ),
        "git_ref": _ref,
        # BranchMergeProposal's canonical URL: its source branch or repository, ``+merge``, id.
        "branch_merge_proposal": (
            "{source_git_repository}/+merge/{n}",
            "{source_branch}/+merge/{n}",
            "{parent}/+merge/{n}",
        ),
        # Specifications (blueprints) live under their target: ``frob/+spec/faster``.
        "specification": "{target}/+spec/{name}",
        "webhook": _inside("target", "+webhook"),
        "access_token": _inside("target", "+access-token"),
    }
)

#: Site -> entry types whose web page is on it (their ``rootsite``), not launchpad.net.
LAUNCHPAD_SITES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "bugs": (
            "bug", "bug_task", "bug_attachment", "bug_subscription", "bug_tracker",
            "bug_watch", "bug_nomination", "bug_activity", "cve",
        ),
        "code": (
            "git_repository", "git_ref", "git_subscription", "branch", "branch_merge_proposal",
            "branch_subscription", "code_import", "code_review_comment",
            "code_review_vote_reference", "source_package_recipe",
        ),
        "answers": ("question", "faq"),
        "blueprints": ("specification", "sprint"),
    }
)  # fmt: skip
