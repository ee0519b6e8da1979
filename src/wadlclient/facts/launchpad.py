"""Launchpad's facts about named operations that its WADL does not carry.

**List and dict parameters** (`ARGUMENTS`). lazr.restful's WADL gives a
parameter a name, maybe a link type or options, never its shape: a
``List``, ``Set`` or ``Dict`` field of an ``@operation_parameters`` or
``@export_factory_operation`` looks like any other. Its marshallers
(``lazr.restful.marshallers``: ``AbstractCollectionFieldMarshaller``,
``DictFieldMarshaller``, ``ObjectLookupFieldMarshaller``) then read such a
value so: a JSON list, or repeated form values, or a lone value as a
one-item list; each item read as the item field says (a link dereferenced,
a bad one a 400); a dict from a JSON object, or from ``name,value``
strings (anything else a 400). Provenance of each row: the interface in
Launchpad's tree (``lib/lp/<file>.py``, class) whose field declares it;
each (operation, parameter) pair has one meaning on every resource type
and in every version that has it (devel, beta, 1.0 checked).

**Found-or-404 lookups** (`FOUND_OR_404`). The WADL declares these
answer an entry, and a generated client would type them ``X | None``, but
Launchpad raises a ``NotFoundError`` (HTTP 404: ``lib/lp/app/errors.py``),
usually a ``NameLookupFailed`` with its message prefix, for nothing found;
it never answers null. Provenance: the model method that raises it.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["ARGUMENTS", "FOUND_OR_404", "Argument", "Lookup"]


class Argument(NamedTuple):
    """A parameter that takes a list or a dict, and what its items (or values) are.

    ``items``: ``link:<entry type>`` (``link`` for any entry), ``str``,
    ``int``, ``bool``, ``choice`` (one of the WADL's options), ``dict`` or
    ``any`` (as sent).
    """

    shape: str  # "list" or "dict"
    items: str
    source: str

    @property
    def is_list(self) -> bool:
        return self.shape == "list"

    @property
    def links(self) -> bool:
        """Whether each item is a link, dereferenced to the entry it names."""
        return self.items == "link" or self.items.startswith("link:")

    @property
    def link_type(self) -> str | None:
        """The entry type each linked item must be, when the interface says."""
        return self.items.partition(":")[2] or None


def _arguments(
    table: Mapping[tuple[str, str], tuple[str, ...]],
) -> Mapping[tuple[str, str], Argument]:
    """``{(file, interface): ("operation parameter shape items", ...)}`` by (operation, param)."""
    rows: dict[tuple[str, str], Argument] = {}
    for (where, interface), lines in table.items():
        for line in lines:
            operation, parameter, shape, items = line.split()
            rows[(operation, parameter)] = Argument(shape, items, f"lib/lp/{where}.py {interface}")
    return MappingProxyType(rows)


#: (operation name, parameter name) -> its list or dict shape.
ARGUMENTS: Mapping[tuple[str, str], Argument] = _arguments(
    {
        ("answers/interfaces/questioncollection", "IQuestionCollection"): (
            "searchQuestions language list link:language",
            "searchQuestions status list choice",
        ),
        ("bugs/interfaces/bug", "IBugView"): (
            "getNominations nominations list link:bug_nomination",
        ),
        ("bugs/interfaces/bugtarget", "IHasBugs"): (
            "searchTasks component list any",
            "searchTasks importance list any",
            "searchTasks information_type list choice",
            "searchTasks milestone list link:milestone",
            "searchTasks order_by list str",
            "searchTasks status list choice",
            "searchTasks status_upstream list choice",
            "searchTasks tags list str",
        ),
        ("bugs/interfaces/malone", "IMaloneApplication"): ("createBug tags list str",),
        ("buildmaster/interfaces/builder", "IBuilderSetAdmin"): (
            "new open_resources list str",
            "new processors list link:processor",
            "new restricted_resources list str",
        ),
        ("charms/interfaces/charmbase", "ICharmBaseEdit"): (
            "setProcessors processors list link:processor",
        ),
        ("charms/interfaces/charmbase", "ICharmBaseSetEdit"): ("new build_snap_channels dict any",),
        ("charms/interfaces/charmrecipe", "ICharmRecipeSet"): (
            "new auto_build_channels dict any",
            "new store_channels list any",
        ),
        ("charms/interfaces/charmrecipe", "ICharmRecipeView"): (
            "requestBuilds architectures list link:processor",
            "requestBuilds channels dict any",
        ),
        ("code/interfaces/branch", "IBranchSet"): (
            "getBranchVisibilityInfo branch_names list str",
            "getByUrls urls list str",
        ),
        ("code/interfaces/branch", "IBranchView"): (
            "createMergeProposal review_types list str",
            "createMergeProposal reviewers list link:person",
            "getMergeProposals merged_revnos list int",
            "getMergeProposals status list choice",
        ),
        ("code/interfaces/branchmergeproposal", "IBranchMergeProposalAnyAllowedPerson"): (
            "createComment inline_comments dict str",
            "saveDraftInlineComment comments dict str",
        ),
        ("code/interfaces/gitref", "IGitRefEdit"): ("setGrants grants list dict",),
        ("code/interfaces/gitref", "IGitRefView"): (
            "getMergeProposals merged_revision_ids list str",
        ),
        ("code/interfaces/gitrepository", "IGitRepositoryEdit"): (
            "checkRefPermissions paths list str",
            "setRules rules list dict",
        ),
        ("code/interfaces/gitrepository", "IGitRepositorySet"): (
            "getRepositoryVisibilityInfo repository_names list str",
        ),
        ("code/interfaces/gitrepository", "IGitRepositoryView"): (
            "issueAccessToken scopes list choice",
        ),
        ("code/interfaces/hasbranches", "IHasBranches"): ("getBranches status list choice",),
        ("code/interfaces/hasbranches", "IHasRequestedReviews"): (
            "getRequestedReviews status list choice",
        ),
        ("code/interfaces/revisionstatus", "IRevisionStatusReportEdit"): (
            "update properties dict any",
        ),
        ("oci/interfaces/ocirecipe", "IOCIRecipeEdit"): ("newPushRule credentials dict any",),
        ("registry/interfaces/distroseries", "IDistroSeriesEditRestricted"): (
            "initDerivedDistroSeries architectures list str",
            "initDerivedDistroSeries overlay_components list str",
            "initDerivedDistroSeries overlay_pockets list str",
            "initDerivedDistroSeries overlays list bool",
            "initDerivedDistroSeries packagesets list str",
            "initDerivedDistroSeries parents list str",
        ),
        ("registry/interfaces/milestone", "IMilestone"): ("setTags tags list str",),
        ("registry/interfaces/ociproject", "IOCIProjectLegitimate"): (
            "newRecipe build_args dict any",
        ),
        ("registry/interfaces/person", "IPersonViewRestricted"): (
            "createRecipe distroseries list link:distro_series",
        ),
        ("registry/interfaces/poll", "IPollSet"): ("find status list choice",),
        ("registry/interfaces/product", "IProductSet"): (
            "licensing_search licenses list choice",
            "new_project licenses list choice",
        ),
        ("registry/interfaces/sharingservice", "ISharingService"): (
            "deletePillarGrantee information_types list choice",
            "ensureAccessGrants branches list link:branch",
            "ensureAccessGrants bugs list link:bug",
            "ensureAccessGrants grantees list link:person",
            "ensureAccessGrants ocirecipes list link:oci_recipe",
            "ensureAccessGrants snaps list link:snap",
            "ensureAccessGrants vulnerabilities list link:vulnerability",
            "revokeAccessGrants branches list link:branch",
            "revokeAccessGrants bugs list link:bug",
            "revokeAccessGrants ocirecipes list link:oci_recipe",
            "revokeAccessGrants snaps list link:snap",
            "revokeAccessGrants specifications list link:specification",
            "revokeAccessGrants vulnerabilities list link:vulnerability",
            "sharePillarInformation permissions dict choice",
        ),
        ("rocks/interfaces/rockbase", "IRockBaseSetEdit"): ("new build_channels dict any",),
        ("services/webhooks/interfaces", "IWebhookTarget"): ("newWebhook event_types list choice",),
        ("snappy/interfaces/snap", "ISnapSet"): ("findByURLPrefixes url_prefixes list str",),
        ("snappy/interfaces/snap", "ISnapView"): (
            "getBuildSummaries build_ids list int",
            "getBuildSummaries request_ids list int",
            "requestBuild channels dict any",
        ),
        ("snappy/interfaces/snapbase", "ISnapBaseSetEdit"): ("new features dict bool",),
        ("soyuz/interfaces/archive", "IArchiveAppend"): ("syncSources source_names list str",),
        ("soyuz/interfaces/archive", "IArchiveEdit"): (
            "getNamedAuthTokens names list str",
            "newNamedAuthTokens names list str",
            "revokeNamedAuthTokens names list str",
        ),
        ("soyuz/interfaces/archive", "IArchiveView"): (
            "copyPackages source_names list str",
            "getBuildSummariesForSourceIds source_ids list int",
        ),
        ("soyuz/interfaces/livefs", "ILiveFSSet"): ("new metadata dict any",),
        ("soyuz/interfaces/livefs", "ILiveFSView"): ("requestBuild metadata_override dict any",),
        ("soyuz/interfaces/packageset", "IPackagesetEdit"): (
            "addSources names list str",
            "addSubsets names list str",
            "removeSources names list str",
            "removeSubsets names list str",
        ),
        ("soyuz/interfaces/queue", "IPackageUpload"): ("overrideBinaries changes list dict",),
    }
)


class Lookup(NamedTuple):
    """A lookup that answers 404 for nothing found: the error, its message, where it is raised.

    The message is Launchpad's: ``"<message>: '<value of quoted>'."``.
    """

    error: str
    message: str
    quoted: str
    source: str


def _lookup(error: str, message: str, quoted: str, where: str) -> Lookup:
    return Lookup(error, message, quoted, f"lib/lp/{where}")


#: (resource type, operation name) -> how it answers for nothing found.
FOUND_OR_404: Mapping[tuple[str, str], Lookup] = MappingProxyType(
    {
        ("snaps", "getByName"): _lookup(
            "NoSuchSnap", "No such snap package with this owner", "name",
            "snappy/model/snap.py SnapSet.getByName",
        ),
        ("charm_recipes", "getByName"): _lookup(
            "NoSuchCharmRecipe", "No such charm recipe with this owner and project", "name",
            "charms/model/charmrecipe.py CharmRecipeSet.getByName",
        ),
        ("rock_recipes", "getByName"): _lookup(
            "NoSuchRockRecipe", "No such rock recipe with this owner and project", "name",
            "rocks/model/rockrecipe.py RockRecipeSet.getByName",
        ),
        ("craft_recipes", "getByName"): _lookup(
            "NoSuchCraftRecipe", "No such craft recipe with this owner and project", "name",
            "crafts/model/craftrecipe.py CraftRecipeSet.getByName",
        ),
        ("snap_bases", "getByName"): _lookup(
            "NoSuchSnapBase", "No such base", "name",
            "snappy/model/snapbase.py SnapBaseSet.getByName",
        ),
        ("snappy_serieses", "getByName"): _lookup(
            "NoSuchSnappySeries", "No such snappy series", "name",
            "snappy/model/snappyseries.py SnappySeriesSet.getByName",
        ),
        ("livefses", "getByName"): _lookup(
            "NoSuchLiveFS", "No such live filesystem with this owner/distroseries", "name",
            "soyuz/model/livefs.py LiveFSSet.getByName",
        ),
        ("packagesets", "getByName"): _lookup(
            "NoSuchPackageSet", "No such package set (in the specified distro series)", "name",
            "soyuz/model/packageset.py PackagesetSet.getByName",
        ),
        ("processors", "getByName"): _lookup(
            "ProcessorNotFound", "No such processor", "name",
            "buildmaster/model/processor.py ProcessorSet.getByName",
        ),
        ("translation_groups", "getByName"): _lookup(
            "NotFoundError", "Not found", "name",
            "translations/model/translationgroup.py TranslationGroupSet.getByName",
        ),
        ("charm_bases", "getByDistroSeries"): _lookup(
            "NoSuchCharmBase", "No such base for this distro series", "distro_series",
            "charms/model/charmbase.py CharmBaseSet.getByDistroSeries",
        ),
        ("rock_bases", "getByDistroSeries"): _lookup(
            "NoSuchRockBase", "No such base for this distro series", "distro_series",
            "rocks/model/rockbase.py RockBaseSet.getByDistroSeries",
        ),
        ("person", "getPPAByName"): _lookup(
            "NoSuchPPA", "No such ppa", "name", "registry/model/person.py Person.getPPAByName"
        ),
        ("team", "getPPAByName"): _lookup(
            "NoSuchPPA", "No such ppa", "name", "registry/model/person.py Person.getPPAByName"
        ),
        ("distribution", "getSeries"): _lookup(
            "NoSuchDistroSeries", "No such distribution series", "name_or_version",
            "registry/model/distribution.py Distribution.getSeries",
        ),
        ("distro_series", "getDistroArchSeries"): _lookup(
            "NotFoundError", "Unknown architecture", "archtag",
            "registry/model/distroseries.py DistroSeries.getDistroArchSeries",
        ),
        ("bug", "getNominationFor"): _lookup(
            "NotFoundError", "No nomination found", "target",
            "bugs/model/bug.py Bug.getNominationFor",
        ),
        ("branch_merge_proposal", "getComment"): _lookup(
            "NotFoundError", "Not found", "id",
            "code/model/branchmergeproposal.py BranchMergeProposal.getComment",
        ),
    }
)  # fmt: skip
