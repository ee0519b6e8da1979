"""What a service's WADL gets wrong, corrected for typed access: ``wadlclient stubgen --fixups``.

lazr.restful writes ``required="true"`` on every field of an entry's
representation (its template's constant, not the field's own
``required``), so the WADL promises values a service sends as null:
Launchpad's snap has a ``git_ref`` or a ``branch``, never both, and a build
has no ``builder`` until it is dispatched, yet both are "required". A
typed package that believed it would type ``snap.git_ref`` as always
present. It also leaves some values untyped that are always of one type
(``bug.tags``, a list of strings). A `Fixups` table names those fields;
the planner (`wadlclient.stubgen.plan`) types a field it marks nullable
``X | None`` and a retyped field as it says.

The table lives here, in the generator, not in the generated package:
the package is regenerated and compared byte for byte with what is checked
in, so what makes it must be in the source tree with the generator, and
one table serves the command line (``--fixups launchpad``) and the
regeneration test alike. `LAUNCHPAD` starts from the faults the
launchpadlib-rs bindings found in Launchpad's answers and adds the fields
Launchpad's own interfaces declare optional where the WADL says required;
its lookups that answer 404 rather than null come from the hand-written
Launchpad facts (`wadlclient.facts.launchpad`), which the kit reads too.
A field that is missing from the WADL (it was renamed, or the table has a
typo) stops the generation: `Fixups.check`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from wadlclient.facts.launchpad import ARGUMENTS, FOUND_OR_404, Argument

if TYPE_CHECKING:
    from wadlclient.wadl import Application

__all__ = ["ANY_REPRESENTATION", "FIXUPS", "LAUNCHPAD", "Fixups"]

#: The representation key of fields that may be null wherever they appear.
ANY_REPRESENTATION = "*"


class Fixups(NamedTuple):
    """Corrections to a WADL's JSON representations, by representation id and param name.

    ``nullable``: params that may be null although the WADL says required
    (under `ANY_REPRESENTATION`: in every representation that has them).
    ``types``: the Python type to write for a param, where the WADL gives
    none or a wrong one.
    """

    name: str
    nullable: Mapping[str, frozenset[str]] = MappingProxyType({})
    types: Mapping[tuple[str, str], str] = MappingProxyType({})
    #: Named operations (resource type, name) that answer 404, never null, for nothing found.
    found_or_404: frozenset[tuple[str, str]] = frozenset()
    #: Named-operation params (operation, param) that take a list or a dict, and of what.
    arguments: Mapping[tuple[str, str], Argument] = MappingProxyType({})

    def may_be_null(self, representation: str | None, param: str) -> bool:
        """Whether the table says the param may be null in this representation."""
        if param in self.nullable.get(ANY_REPRESENTATION, ()):
            return True
        return representation is not None and param in self.nullable.get(representation, ())

    def type_of(self, representation: str | None, param: str) -> str | None:
        """The Python type the table gives the param, or None."""
        return self.types.get((representation or "", param))

    def check(self, app: Application) -> list[str]:
        """What the table names that the WADL does not have (``rep/param``), sorted."""
        present = {
            (rep_id, param.name)
            for rep_id, rep in app.representations.items()
            for param in rep.params
        }
        names = {name for _, name in present}
        missing = []
        for rep_id, params in self.nullable.items():
            for param in params:
                found = (
                    param in names if rep_id == ANY_REPRESENTATION else (rep_id, param) in present
                )
                if not found:
                    missing.append(f"{rep_id}/{param}")
        missing += [f"{rep}/{param}" for rep, param in self.types if (rep, param) not in present]
        missing += [
            f"{type_id}/{name}"
            for type_id, name in self.found_or_404
            if name not in getattr(app.resource_types.get(type_id), "named_operations", {})
        ]
        if self.arguments:
            taken = {
                (name, param.name)
                for rtype in app.resource_types.values()
                for name, method in getattr(rtype, "named_operations", {}).items()
                for param in method.params
            }
            missing += [
                f"{op}({param}=)" for op, param in self.arguments if (op, param) not in taken
            ]
        return sorted(missing)


def _table(**nullable: str) -> Mapping[str, frozenset[str]]:
    """``bug_full="a b"`` -> ``{"bug-full": {"a", "b"}}`` (ids spell ``-`` as ``_`` here)."""
    return MappingProxyType(
        {
            ANY_REPRESENTATION if key == "any" else key.replace("_full", "-full"): frozenset(
                names.split()
            )
            for key, names in nullable.items()
        }
    )


#: Launchpad's: fields it sends as null although its WADL says required, and untyped ids and lists.
LAUNCHPAD = Fixups(
    "launchpad",
    nullable=_table(
        # Null until something happens (a build is dispatched, a token used, a
        # package published or removed), or a role nobody need fill: in every
        # representation that has them.
        any="builder_link date_started date_first_dispatched datebuilt date_finished"
        " date_last_scanned date_last_repacked date_last_used date_expires revoked_by_link"
        " date_merged date_reviewed date_review_requested date_published date_removed"
        " date_superseded date_made_pending scheduled_deletion_date removed_by_link"
        " copied_from_archive_link last_mirror_attempt last_mirrored last_scanned"
        " release_link superseded_by_link supersedes_link content_templates code_import_link"
        " reviewer_link driver_link bug_supervisor_link translationgroup_link"
        " commercial_subscription_link project_group_link bug_tracker_link"
        " security_admin_link mirror_admin_link code_admin_link oci_project_admin_link"
        " translation_focus_link date_deferred",
        # launchpadlib-rs's fixups, from Launchpad's answers.
        person_full="team_owner_link archive_link preferred_email_address_link",
        team_full="description team_description preferred_email_address_link"
        " default_membership_period default_renewal_period archive_link",
        bug_full="duplicate_of_link who_made_private_link date_made_private"
        " latest_patch_uploaded name",
        bug_task_full="milestone_link assignee_link bug_watch_link date_assigned date_closed"
        " date_confirmed date_fix_committed date_fix_released date_in_progress"
        " date_incomplete date_left_closed date_left_new date_triaged",
        project_full="bug_reported_acknowledgement bug_reporting_guidelines",
        distro_series_full="datereleased previous_series_link nominatedarchindep_link",
        package_upload_full="copy_source_archive_link",
        # Optional in Launchpad's interfaces (ISnap: a Bazaar branch or a Git
        # reference; automatic builds and store uploads only when asked for).
        snap_full="branch_link git_ref_link git_repository_link distro_series_link"
        " auto_build_archive_link auto_build_pocket store_series_link",
        source_package_recipe_full="base_branch_link base_git_repository_link"
        " daily_build_archive_link last_build_link",
        source_package_publishing_history_full="creator_link package_creator_link"
        " package_maintainer_link package_signer_link packageupload_link sponsor_link",
        branch_merge_proposal_full="prerequisite_branch_link prerequisite_git_repository_link"
        " source_branch_link source_git_repository_link target_branch_link"
        " target_git_repository_link preview_diff_link merge_reporter_link",
        branch_full="project_link sourcepackage_link",
    ),
    types=MappingProxyType(
        {
            ("bug-full", "id"): "int",
            ("package_upload-full", "id"): "int",
            # A list of strings, written without repeating="true".
            ("bug-full", "tags"): "list[str]",
        }
    ),
    # Lookups Launchpad answers 404 for (NoSuchPPA, NoSuchDistroSeries, NoSuchSnap...),
    # never null: the facts table, with where each is raised.
    found_or_404=frozenset(FOUND_OR_404),
    # Params that take a list or a dict (processors, store_channels, channels ...): the
    # WADL leaves them untyped; the facts table says of what.
    arguments=ARGUMENTS,
)

#: The tables ``--fixups`` can name.
FIXUPS: Mapping[str, Fixups] = MappingProxyType({LAUNCHPAD.name: LAUNCHPAD})
