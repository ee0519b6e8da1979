"""Run as a script: a launchpadlib triage bot against a fake Launchpad; prints one JSON line.

``python -m wadlclient.lazr_compat lp_triage.py WADL MODES TASKS``: launchpadlib
on wadlclient (``python lp_triage.py ...``: stock launchpadlib). MODE
``loop`` is the bot as users write it; ``bulk`` is the same bot with its
loop changed to `wadlclient.bulk.update`; ``loop,bulk`` runs both in turn,
each on a fake of its own, and prints a line for each (`triage`: what
one run did, for a process that runs the bot itself). The search gives
``total_size_link``, as Launchpad's do, and the fake serves it in pages
of 75 (ws.size up to 300), as Launchpad does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from launchpadlib.launchpad import Launchpad

from wadlclient.testing import FakeService
from wadlclient.testing.launchpad import patched_launchpad


def triage_loop() -> int:
    """The bot as users write it: every New task of the project set to Triaged."""
    lp = Launchpad.login_with("triage-bot", "production", version="devel")
    count = 0
    for task in lp.projects["frobnicator"].searchTasks(status=["New"]):
        task.status = "Triaged"
        task.lp_save()
        count += 1
    return count


def triage_bulk() -> dict[str, Any]:
    """The same bot, its loop changed: the tasks saved four at a time, a report of each."""
    from wadlclient import bulk

    lp = Launchpad.login_with("triage-bot", "production", version="devel")

    def triage(task: Any) -> None:
        task.status = "Triaged"

    report = bulk.update(lp.projects["frobnicator"].searchTasks(status=["New"]), triage)
    return {"counts": report.counts(), "ok": report.ok, "type": type(report).__name__}


def triage(wadl: Path | bytes, mode: str, count: int) -> dict[str, Any]:
    """The bot in ``mode`` against a fake of its own holding ``count`` New tasks: what it did."""
    with FakeService(wadl) as fake, patched_launchpad(fake):
        fake.total_size_link = True
        project = fake.add("projects", name="frobnicator")
        tasks = []
        for number in range(count):
            bug = fake.add("bugs", title=f"Bug {number}")
            tasks.append(fake.add_to(bug, "bug_tasks", bug=bug, target=project, status="New"))

        @fake.operation("project", "searchTasks")
        def search_tasks(project: Any, /, status: list[str], **other_filters: Any) -> list[Any]:
            return [task for task in tasks if task["status"] in status]

        result: dict[str, Any] = {"lazr": sys.modules["lazr.restfulclient"].__file__}
        result["ran"] = triage_loop() if mode == "loop" else triage_bulk()
        result["triaged"] = sum(1 for task in tasks if task["status"] == "Triaged")
        result["saves"] = len(fake.journal.requests("PATCH"))
    return result


if __name__ == "__main__":
    for each_mode in sys.argv[2].split(","):
        print(json.dumps(triage(Path(sys.argv[1]), each_mode, int(sys.argv[3]))))
