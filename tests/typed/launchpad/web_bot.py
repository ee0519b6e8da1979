"""A bot that loads what people paste, typed: ``load_web`` with ``kind`` (never run).

``lp.load_web(text, "bug_task")`` is a ``BugTask`` for the type checker (and
a `WebAddressError` at run time when the text names something else);
without ``kind`` it is a `wadlclient.Entry`. ``tests/typed/test_launchpad_load_web.py``
checks that ``mypy --strict`` and pyright in strict mode find nothing here but
the one typo, its one marked line.
"""

from __future__ import annotations

import wadlclient
from wadlclient.launchpad import Archive, BranchMergeProposal, BugTask, ServiceRoot


def triage(lp: ServiceRoot, address: str) -> str:
    """A bug task's page (``https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1``)."""
    task: BugTask = lp.load_web(address, "bug_task")
    task.status = "Triaged"
    task.lp_save()
    title: str = task.bug.title
    return title


def review_state(lp: ServiceRoot, address: str) -> str:
    """A merge proposal's page (``https://code.launchpad.net/~ada/frob/+git/frob/+merge/7``)."""
    proposal: BranchMergeProposal = lp.load_web(address, "branch_merge_proposal")
    return proposal.queue_status


def ppa_name(lp: ServiceRoot, reference: str) -> str:
    """``ppa:ada/tools``."""
    archive: Archive = lp.load_web(reference, "archive")
    name: str = archive.displayname
    return name


def any_object(lp: ServiceRoot, text: str) -> str:
    """Without ``kind``: an entry whose fields the checker cannot know."""
    entry: wadlclient.Entry = lp.load_web(text)
    return str(entry.web_link)


def typo(lp: ServiceRoot, address: str) -> None:
    lp.load_web(address, "bug_task").statuss = "Triaged"  # error: a typo the checker finds
