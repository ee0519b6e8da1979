"""ubuntu-bug-triage (PyPI, 21.1): its command, unchanged, against the testing kit.

The command lists the bugs of an Ubuntu package or package team changed
in the last days: it logs in (or anonymously), asks the distribution's
``searchTasks`` for recently modified tasks and reads each bug. Run here
as its console script runs it, ``ubuntu_bug_triage.__main__:launch()``
with the command line in ``sys.argv``, against a seeded fake Launchpad.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.

The program is imported in the functions that use it: at the top of the module
its import would be paid by every pytest-xdist worker collecting it.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from wadlclient.testing import FakeEntry, FakeService

NOW = datetime.now(timezone.utc)


def ubuntu_bug_triage(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> str:
    """What ``ubuntu-bug-triage ARGS`` prints."""
    from ubuntu_bug_triage.__main__ import launch

    monkeypatch.setattr(sys, "argv", ["ubuntu-bug-triage", *args])
    launch()
    return capsys.readouterr().out


class Bugs:
    """Ubuntu's bugs as the test seeds them, and ``searchTasks`` as Launchpad answers it."""

    def __init__(self, fake: FakeService) -> None:
        self.fake = fake
        self.ubuntu = fake.add("distributions", name="ubuntu", display_name="Ubuntu")
        self.team = fake.add("people", name="ubuntu-server", display_name="Ubuntu Server")
        self.packages: dict[str, FakeEntry] = {}
        self.tasks: list[FakeEntry] = []
        self.searches: list[dict[str, Any]] = []

        @fake.operation("distribution", "searchTasks")
        def search_tasks(target: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
            self.searches.append(filters)
            since = datetime.fromisoformat(filters["modified_since"]).replace(tzinfo=timezone.utc)
            return [
                task for task in self.tasks
                if task["status"] in filters.get("status", [task["status"]])
                and datetime.fromisoformat(task["bug"]["date_last_updated"]) >= since
            ]  # fmt: skip

    def package(self, name: str) -> FakeEntry:
        """Ubuntu's source package ``name`` (Launchpad: ``ubuntu/+source/<name>``)."""
        if name not in self.packages:
            self.packages[name] = self.fake.add(
                "distribution_source_package", name=name, distribution=self.ubuntu,
                display_name=f"{name} in Ubuntu", title=f"{name} package in Ubuntu",
            )  # fmt: skip
        return self.packages[name]

    def bug(self, title: str, *packages: str, status: str = "New", days_ago: int = 0) -> FakeEntry:
        """A bug with a task on each of Ubuntu's ``packages``, last changed ``days_ago``."""
        changed = (NOW - timedelta(days=days_ago)).isoformat()
        bug = self.fake.add("bugs", title=title, date_last_updated=changed)
        for name in packages:
            task = self.fake.add_to(
                bug, "bug_tasks", bug=bug, status=status, importance="Undecided",
                bug_target_name=f"{name} (Ubuntu)", target=self.package(name),
            )  # fmt: skip
            self.tasks.append(task)
        return bug


@pytest.fixture
def bugs(fake_launchpad: FakeService) -> Bugs:
    return Bugs(fake_launchpad)


def test_a_teams_recent_bugs_are_listed_as_json(
    bugs: Bugs, fake_launchpad: FakeService,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    bugs.bug("Samba crashes on start", "samba")
    bugs.bug("Old news", "samba", days_ago=30)
    bugs.bug("Only cloud-init", "cloud-init")  # ubuntu-server leaves cloud-init to its team
    bugs.bug("Fixed already", "nginx", status="Fix Released")
    bugs.bug("Two packages", "cloud-init", "nginx", status="Triaged")

    out = ubuntu_bug_triage(monkeypatch, capsys, "ubuntu-server", "7", "--json")

    assert json.loads(out) == [
        {"id": 1, "title": "Samba crashes on start", "affects": ["samba (Ubuntu)"]},
        {"id": 5, "title": "Two packages", "affects": ["cloud-init (Ubuntu)", "nginx (Ubuntu)"]},
    ]
    [search] = bugs.searches
    assert search["structural_subscriber"] is bugs.team
    assert sorted(search["status"]) == ["Confirmed", "In Progress", "Incomplete", "New", "Triaged"]
    # It asks for "Ubuntu": Launchpad redirects a name to its lower case, query and all.
    reads = [(s.path, s.status) for s in fake_launchpad.journal if s.path.lower() == "ubuntu"]
    assert reads == [("Ubuntu", 301), ("ubuntu", 200)] * 2
    assert [s.ws_op for s in fake_launchpad.journal if s.path.lower() == "ubuntu"][2:] == [
        "searchTasks", "searchTasks",
    ]  # fmt: skip
    bug_reads = [s.path for s in fake_launchpad.journal.requests("GET") if "bugs/" in s.path]
    assert bug_reads[:2] == ["bugs/1", "bugs/1/bug_tasks"]


def test_the_urls_and_the_table_show_each_bug(
    bugs: Bugs, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bugs.bug("Samba crashes on start", "samba", status="Confirmed")

    urls = ubuntu_bug_triage(monkeypatch, capsys, "ubuntu-server", "--urls")
    table = ubuntu_bug_triage(monkeypatch, capsys, "ubuntu-server", "--status", "Confirmed")

    assert urls.splitlines() == ["https://bugs.launchpad.net/bugs/1"]
    assert "| LP: #1 | samba (U) | Samba crashes on start |" in table.splitlines()[3]


def test_an_anonymous_run_reads_as_anonymous(
    bugs: Bugs, fake_launchpad: FakeService,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    bugs.bug("Samba crashes on start", "samba")

    out = ubuntu_bug_triage(monkeypatch, capsys, "ubuntu-server", "--anon", "--json")

    assert [bug["id"] for bug in json.loads(out)] == [1]
    assert {s.anonymous for s in fake_launchpad.journal} == {True}


def test_bugs_last_changed_by_an_ignored_user_are_left_out(
    bugs: Bugs, fake_launchpad: FakeService,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    bot = fake_launchpad.add("people", name="janitor-bot", display_name="Janitor")
    ada = fake_launchpad.add("people", name="ada", display_name="Ada")
    for title, commenter, changer in [("Bot touched it", ada, bot), ("Ada commented", ada, bot)]:
        bug = bugs.bug(title, "samba")
        commented = NOW - timedelta(hours=2 if title == "Bot touched it" else 1)
        changed = NOW - timedelta(hours=1 if title == "Bot touched it" else 2)
        fake_launchpad.add_to(bug, "messages", owner=commenter, date_created=commented.isoformat())
        fake_launchpad.add_to(
            bug, "activity", bug=bug, person=changer, datechanged=changed.isoformat()
        )

    out = ubuntu_bug_triage(
        monkeypatch, capsys, "ubuntu-server", "--json", "--ignore-user", "janitor-bot"
    )

    assert [bug["title"] for bug in json.loads(out)] == ["Ada commented"]


def test_a_packages_bugs_are_listed_with_its_projects(
    bugs: Bugs, fake_launchpad: FakeService,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The default mode: the package's tasks (``ubuntu/+source/cloud-init``) and the project's."""
    package = bugs.package("cloud-init")
    project = fake_launchpad.add("projects", name="cloud-init", display_name="cloud-init")
    in_ubuntu = bugs.bug("Fails on jammy", "cloud-init")
    upstream = fake_launchpad.add("bugs", title="Upstream only", date_last_updated=NOW.isoformat())
    upstream_task = fake_launchpad.add_to(
        upstream, "bug_tasks", bug=upstream, status="New", bug_target_name="cloud-init",
        target=project,
    )  # fmt: skip

    @fake_launchpad.operation("distribution", "getSourcePackage")
    def get_source_package(distribution: FakeEntry, /, *, name: str) -> FakeEntry | None:
        return package if name == "cloud-init" else None

    @fake_launchpad.operation("distribution_source_package", "searchTasks")
    def package_tasks(target: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
        return [t for t in bugs.tasks if t["bug"] is in_ubuntu]

    @fake_launchpad.operation("project", "searchTasks")
    def project_tasks(target: FakeEntry, /, **filters: Any) -> list[FakeEntry]:
        return [upstream_task]

    out = ubuntu_bug_triage(monkeypatch, capsys, "cloud-init", "--include-project", "--json")

    assert [(bug["id"], bug["affects"]) for bug in json.loads(out)] == [
        (1, ["cloud-init (Ubuntu)"]), (2, ["cloud-init"]),
    ]  # fmt: skip
    searched = [s.path for s in fake_launchpad.journal.operations("searchTasks")]
    assert searched == ["ubuntu/+source/cloud-init", "cloud-init"]
