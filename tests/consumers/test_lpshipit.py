"""lpshipit (PyPI, 0.5.3): what its commands read from Launchpad, unchanged, against the kit.

``lpshipit`` and ``lpmpmessage`` log in (``~/.lp_creds``), take ``lp.me``
(or ``--mp-owner``), ask the person's ``getMergeProposals`` for those
needing review or approved, and summarize each (its votes, each vote's
comment, its repositories or branches, its commit message) into the merge
commit message they offer; the choosing is an urwid screen, which needs a
terminal, so these tests call the functions the commands are made of,
as the commands call them.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

from typing import Any

import pytest

from wadlclient.testing import FakeEntry, FakeService


class Proposals:
    """A project, Ada's and Bob's repositories, merge proposals and their reviews."""

    def __init__(self, fake: FakeService) -> None:
        self.fake = fake
        self.ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        self.bob = fake.add("people", name="bob", display_name="Bob")
        self.cy = fake.add("people", name="cy", display_name="Cy")
        team = fake.add("people", name="frob-team", display_name="Frob team")
        self.project = fake.add("projects", name="frob", display_name="Frob")
        self.target = self.repository(team, "lp:frob")
        self.proposals: list[FakeEntry] = []
        fake.set_root_link("me", self.ada)

        @fake.operation("person", "getMergeProposals")
        def merge_proposals(person: FakeEntry, /, *, status: list[str], **_: Any) -> list[Any]:
            return [
                mp for mp in self.proposals
                if mp["registrant"] is person and mp["queue_status"] in status
            ]  # fmt: skip

    def repository(self, owner: FakeEntry, display_name: str) -> FakeEntry:
        return self.fake.add(
            "git_repositories", name="frob", owner=owner, target=self.project,
            display_name=display_name, unique_name=f"~{owner['name']}/frob/+git/frob",
        )  # fmt: skip

    def proposal(
        self, source: FakeEntry | None, branch: str, message: str | None, day: int,
        status: str = "Needs review", description: str | None = None,
    ) -> FakeEntry:  # fmt: skip
        """Ada's proposal to merge ``branch`` of ``source`` (a bzr branch when None)."""
        n = len(self.proposals) + 1
        where = source.path if source else "~ada/frob/trunk"
        mp = self.fake.add(
            "branch_merge_proposal", self_link=f"{where}/+merge/{n}", registrant=self.ada,
            queue_status=status, commit_message=message, description=description,
            date_created=f"2024-01-{day:02}T12:00:00+00:00",
        )  # fmt: skip
        self.proposals.append(mp)
        if source is not None:
            self.fake.change(
                mp, source_git_repository=source, target_git_repository=self.target,
                source_git_path=f"refs/heads/{branch}", target_git_path="refs/heads/main",
            )  # fmt: skip
        else:
            self.fake.change(
                mp, source_branch=self.fake.add("branches", display_name=f"lp:~ada/frob/{branch}"),
                target_branch=self.fake.add("branches", display_name="lp:frob"),
            )  # fmt: skip
        return mp

    def vote(self, mp: FakeEntry, reviewer: FakeEntry, vote: str | None) -> None:
        """``reviewer``'s review: ``vote`` given in a comment, or pending when None."""
        comment = None
        if vote is not None:
            comment = self.fake.add_to(mp, "all_comments", author=reviewer, vote=vote)
        self.fake.add_to(
            mp, "votes", reviewer=reviewer, is_pending=vote is None, comment=comment,
            branch_merge_proposal=mp,
        )  # fmt: skip


@pytest.fixture
def proposals(fake_launchpad: FakeService) -> Proposals:
    proposals = Proposals(fake_launchpad)
    fix = proposals.proposal(proposals.repository(proposals.ada, "lp:~ada/frob"), "fix", None, 2,
                             description="Fix the crash\n\nIt crashed on start.")  # fmt: skip
    proposals.vote(fix, proposals.bob, "Approve")
    proposals.vote(fix, proposals.cy, "Needs Fixing")
    feature = proposals.proposal(fix["source_git_repository"], "feature", "Add a feature", 5,
                                 status="Approved")  # fmt: skip
    proposals.vote(feature, proposals.cy, "Approve")
    proposals.vote(feature, proposals.bob, None)
    proposals.proposal(fix["source_git_repository"], "old", "Merged already", 1, status="Merged")
    proposals.proposal(None, "bzr-fix", "A bzr branch", 3)
    return proposals


def test_the_merge_proposals_to_ship_are_summarized_newest_first(
    proposals: Proposals, fake_launchpad: FakeService
) -> None:
    from lpshipit import _get_launchpad_client, summarize_git_mps

    lp = _get_launchpad_client()
    mps = lp.people[lp.me.name].getMergeProposals(status=["Needs review", "Approved"])

    summaries = summarize_git_mps(mps)

    assert [(s["source_branch"], s["approval_count"], s["reviewers"]) for s in summaries] == [
        ("feature", 1, ["cy"]), ("fix", 1, ["bob"]),
    ]  # fmt: skip
    fix = summaries[1]
    assert (fix["source_repo"], fix["target_repo"], fix["target_branch"]) == (
        "lp:~ada/frob", "lp:frob", "main",
    )  # fmt: skip
    assert fix["summary"].splitlines() == [
        "lp:~ada/frob/fix", "->lp:frob/main", "    Fix the crash", "    1 approvals (bob)",
        "    2024-01-02 12:00:00+00:00 - https://code.launchpad.net/~ada/frob/+git/frob/+merge/1",
    ]  # fmt: skip
    [search] = fake_launchpad.journal.operations("getMergeProposals")
    # A list argument goes as one JSON value (lazr.restful reads it back as the list).
    assert (search.path, search.query["status"]) == ("~ada", ['["Needs review", "Approved"]'])


def test_the_commit_message_names_the_author_reviewers_and_proposal(
    proposals: Proposals,
) -> None:
    from lpshipit import _get_launchpad_client, build_commit_msg, summarize_git_mps

    lp = _get_launchpad_client()
    [feature] = summarize_git_mps(lp.people["ada"].getMergeProposals(status=["Approved"]))

    message = build_commit_msg(
        author=feature["author"], reviewers=",".join(feature["reviewers"]),
        source_branch=feature["source_branch"], target_branch=feature["target_branch"],
        commit_message=feature["commit_message"], mp_web_link=feature["web"],
    )  # fmt: skip

    assert message.splitlines() == [
        "Merge feature into main [a=ada] [r=cy]", "", "Add a feature", "",
        "MP: https://code.launchpad.net/~ada/frob/+git/frob/+merge/2",
    ]  # fmt: skip


def test_lpmpmessage_summarizes_bzr_branches_too_and_counts_every_vote_cast(
    proposals: Proposals,
) -> None:
    from lpmpmessage import summarize_all_mps
    from lpshipit import _get_launchpad_client

    lp = _get_launchpad_client()
    mps = lp.people["ada"].getMergeProposals(status=["Needs review", "Approved"])

    summaries = summarize_all_mps(mps)

    assert [(s["source_repo"], s["source_branch"], s["reviewers"]) for s in summaries] == [
        ("lp:~ada/frob/", "feature", ["cy"]),
        ("", "lp:~ada/frob/bzr-fix", []),
        ("lp:~ada/frob/", "fix", ["bob", "cy"]),
    ]
