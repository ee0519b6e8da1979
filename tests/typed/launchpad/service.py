"""The Launchpad-like loopback service, with what a build tool reads: recipes, snaps, builds.

On top of `tests.lazr.lpservice` (people, bugs, the real WADL, a journal):
ada's source package recipe ``daily`` and PPA ``ppa``, Ubuntu and its
series ``noble``, ada's snap ``hello`` with two pending build requests,
bug 1's task, and the writes a build tool makes: ``requestBuild`` (POST)
and a task's status (PATCH).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from tests.lazr.lpservice import LaunchpadLike, _argument

Answer = tuple[int, str, bytes]
_JSON = "application/json"


@dataclass
class CraftLike(LaunchpadLike):
    """Answers the build tool's reads and writes; falls back to the people and bugs."""

    builds: list[dict[str, object]] = field(default_factory=list)
    task_status: str = "New"

    def entries(self) -> dict[str, dict[str, object]]:
        """Every entry this service adds, by path below the version segment."""
        base = self.base_url

        def entry(path: str, kind: str, **fields: object) -> dict[str, object]:
            etag = f'"{kind}-{len(json.dumps(fields))}"'
            return {"self_link": f"{base}{path}", "resource_type_link": f"{base}#{kind}",
                    "http_etag": etag, **fields}  # fmt: skip

        found = {
            "~ada/+recipe/daily": entry(
                "~ada/+recipe/daily", "source_package_recipe", name="daily",
                owner_link=f"{base}~ada", description="Daily builds of hello",
            ),
            "~ada/+archive/ubuntu/ppa": entry(
                "~ada/+archive/ubuntu/ppa", "archive", name="ppa", owner_link=f"{base}~ada",
            ),
            "ubuntu": entry("ubuntu", "distribution", name="ubuntu", display_name="Ubuntu"),
            "ubuntu/noble": entry("ubuntu/noble", "distro_series", name="noble", version="24.04"),
            "~ada/+snap/hello": entry(
                "~ada/+snap/hello", "snap", name="hello", owner_link=f"{base}~ada",
                store_channels=["latest/edge", "latest/beta"], information_type="Public",
                pending_build_requests_collection_link=f"{base}~ada/+snap/hello/requests",
            ),
            "bugs/1/tasks/1": entry(
                "bugs/1/tasks/1", "bug_task", status=self.task_status, importance="Low",
            ),
        }
        for number, status in ((1, "Pending"), (2, "Completed")):
            path = f"~ada/+snap/hello/+build-request/{number}"
            found[path] = entry(path, "snap_build_request", status=status)
        for build in self.builds:
            found[str(build["self_link"])[len(base) :]] = build
        return found

    def answer(self, path: str, query: dict[str, list[str]], accept: str) -> Answer:
        relative = path[len(urlsplit(self.base_url).path) :]
        entries = self.entries()
        operation = query.get("ws.op", [""])[0]
        chosen = {
            ("~ada", "getRecipe"): "~ada/+recipe/daily",
            ("~ada", "getPPAByName"): "~ada/+archive/ubuntu/ppa",
            ("ubuntu", "getSeries"): "ubuntu/noble",
        }.get((relative, operation))
        if chosen is not None:
            return 200, _JSON, json.dumps(entries[chosen]).encode()
        pages = {
            "snaps": ["~ada/+snap/hello"],
            "bugs/1/tasks": ["bugs/1/tasks/1"],
            "~ada/+snap/hello/requests": [
                f"~ada/+snap/hello/+build-request/{n}" for n in (1, 2)
            ],
        }
        if relative in pages:
            return self._page([entries[p] for p in pages[relative]], query, "page")
        if relative in entries and not operation:
            return 200, _JSON, json.dumps(entries[relative]).encode()
        return super().answer(path, query, accept)

    def bug(self, number: int) -> dict[str, object]:
        """Bug 1 has a task."""
        found = super().bug(number)
        found["bug_tasks_collection_link"] = f"{self.base_url}bugs/{number}/tasks"
        return found

    def write(self, method: str, path: str, body: bytes) -> Answer:
        """``requestBuild`` on the recipe (a build, answered as JSON); PATCH of the task."""
        relative = urlsplit(path).path[len(urlsplit(self.base_url).path) :]
        if method == "POST" and relative == "~ada/+recipe/daily":
            form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
            if form.get("ws.op") != "requestBuild":
                return 400, "text/plain", b"No such operation\n"
            number = len(self.builds) + 1
            build: dict[str, object] = {
                "self_link": f"{self.base_url}~ada/+recipe/daily/+build/{number}",
                "resource_type_link": f"{self.base_url}#source_package_recipe_build",
                "http_etag": f'"build-{number}"',
                "pocket": form["pocket"],
                "buildstate": "Needs building",
                "archive_link": _argument(form["archive"]),
                "distro_series_link": _argument(form["distroseries"]),
            }
            self.builds.append(build)
            return 200, _JSON, json.dumps(build).encode()
        if method == "PATCH" and relative == "bugs/1/tasks/1":
            self.task_status = json.loads(body)["status"]
            return 209, _JSON, json.dumps(self.entries()[relative]).encode()
        return super().write(method, path, body)
