"""Code under test: what a project does with launchpadlib, unchanged for its tests."""

from __future__ import annotations

from launchpadlib.launchpad import Launchpad


def bug_summary(number: int) -> str:
    lp = Launchpad.login_with("triage-bot", "production", version="devel")
    bug = lp.bugs[number]
    return f"{bug.title} (reported by {bug.owner.display_name})"


def release_fixes(number: int) -> list[str]:
    """Every Fix Committed task of a bug set to Fix Released; the targets changed."""
    lp = Launchpad.login_with("triage-bot", "production", version="devel")
    changed = []
    for task in lp.bugs[number].bug_tasks:
        if task.status == "Fix Committed":
            task.status = "Fix Released"
            task.lp_save()
            changed.append(task.bug_target_name)
    return changed


def display_name(name: str) -> str:
    lp = Launchpad.login_anonymously("reader", "production", version="devel")
    return str(lp.people[name].display_name)
