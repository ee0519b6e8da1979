"""Launchpad's URL shapes: where the real service keeps its collections and entries.

From Launchpad's own URL declarations (its ``lp:url`` rules and
``ICanonicalUrlData`` classes): people at ``~ada``, a snap at
``~ada/+snap/frob``, a charm recipe at ``~ada/frobnicator/+charm/frob``,
a repository at ``~ada/frobnicator/+git/frob`` and its branch at
``.../+ref/main``, the primary archive at ``ubuntu/+archive/primary``.
A fake of a Launchpad WADL uses them unless told otherwise, so code that
builds a URL, or a key lookup (``lp.people["ada"]``), reaches the entry
there as it would on Launchpad.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from urllib.parse import urlsplit

from wadlclient.testing.paths import PathRule, PathSource, quote_path

__all__ = [
    "LAUNCHPAD_COLLECTIONS",
    "LAUNCHPAD_HOSTS",
    "LAUNCHPAD_NOT_FOUND",
    "LAUNCHPAD_PATHS",
    "LAUNCHPAD_ROOT_LINKS",
    "is_launchpad",
    "web_link_maker",
]

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


def is_launchpad(url: str) -> bool:
    """Whether ``url`` is on one of Launchpad's web service hosts."""
    return (urlsplit(url).hostname or "") in LAUNCHPAD_HOSTS


#: Top-level collections that Launchpad does not keep at their own name.
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

#: Collections whose ``getByName`` answers 404 for a miss (Launchpad's ``NameLookupFailed``:
#: ``No such snap package with this owner: 'frob'.``), not null.
LAUNCHPAD_NOT_FOUND: Mapping[str, str] = MappingProxyType(
    {
        "snaps": "No such snap package with this owner",
        "charm_recipes": "No such charm recipe with this owner and project",
        "rock_recipes": "No such rock recipe with this owner and project",
        "craft_recipes": "No such craft recipe with this owner and project",
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
        "webhook": _inside("target", "+webhook"),
        "access_token": _inside("target", "+access-token"),
    }
)

#: Entry types whose web page is on a site of its own (their ``rootsite``), not launchpad.net.
_SITES: Mapping[str, tuple[str, ...]] = MappingProxyType(
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
_SITE_OF = {type_id: site for site, types in _SITES.items() for type_id in types}


def web_link_maker(published_base: str) -> Callable[[str, str], str]:
    """``web_link(type_id, path)``: the entry's web page, as Launchpad gives it
    (``https://launchpad.net/~ada``, ``https://bugs.launchpad.net/bugs/1``): the API
    host without ``api.``, on the site of the entry's kind."""
    split = urlsplit(published_base)
    host = (split.netloc or "").removeprefix("api.")

    def web_link(type_id: str, path: str) -> str:
        site = _SITE_OF.get(type_id)
        where = f"{site}.{host}" if site else host
        return f"{split.scheme}://{where}/{quote_path(path)}"

    return web_link
