"""What Launchpad does behind its recipe, build and repository operations, as a kit user writes it.

The fake serves whatever the WADL describes; what a named operation does
is the test's to say. These handlers say it as Launchpad does, for the
operations craft-application (snapcraft, charmcraft, rockcraft) calls:
create and find snap, charm and rock recipes, request builds (answered
"Pending", completed by the build farm on the next tick), and a build's
cancel, retry and files; new git repositories and their access tokens.
Refusals carry Launchpad's own status and message (lp.snappy, lp.charms,
lp.rocks, lp.buildmaster, lp.code). The look-ups (a recipe's
``getByName``, ``git_repositories.getByPath``) are the kit's own
defaults, Launchpad's 404 for a missing recipe included.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from wadlclient.testing import FakeEntry, FakeService, HTTPException

#: Recipe collection -> (its entry type, its builds' type, its name in Launchpad's messages).
RECIPES = {
    "snaps": ("snap", "snap_build", "snap package"),
    "charm_recipes": ("charm_recipe", "charm_recipe_build", "charm recipe"),
    "rock_recipes": ("rock_recipe", "rock_recipe_build", "rock recipe"),
}

PENDING, BUILDING, BUILT = "Needs building", "Currently building", "Successfully built"
FAILED, CANCELLING, CANCELLED = "Failed to build", "Cancelling build", "Cancelled build"


@dataclass
class BuildFarm:
    """Launchpad's recipes and builds, as handlers registered on one fake."""

    fake: FakeService
    #: The architectures a build request builds for when the recipe names none.
    architectures: tuple[str, ...] = ("amd64",)
    #: Build requests not yet turned into builds, oldest first.
    pending: list[FakeEntry] = field(default_factory=list)
    #: Access tokens issued, by repository path (what a git push would present).
    tokens: dict[str, list[str]] = field(default_factory=dict)
    #: The recipes created, by collection; the repositories; the architectures asked for.
    recipes: dict[str, list[FakeEntry]] = field(default_factory=dict)
    repositories: list[FakeEntry] = field(default_factory=list)
    processors: dict[str, list[str]] = field(default_factory=dict)
    builds: list[FakeEntry] = field(default_factory=list)
    #: What the program under test slept, in seconds (its clock is the test's: `tick` on sleep).
    slept: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        for collection, (recipe_type, build_type, _) in RECIPES.items():
            self._register_recipes(collection, recipe_type)
            self._register_builds(build_type)
        self._register_repositories()

    # -- the build farm's clock ------------------------------------------------

    def tick(self) -> None:
        """The build farm's next step: every pending request completed, one build per arch."""
        while self.pending:
            request = self.pending.pop(0)
            recipe = request["snap" if request.type_id == "snap_build_request" else "recipe"]
            for arch in self.processors.get(recipe.path) or self.architectures:
                build = self.fake.add_to(recipe, "builds", **self._new_build(recipe, arch))
                self.builds.append(build)
                self.fake.add_to(request, "builds", build)
            self.fake.change(request, status="Completed", date_finished="2026-01-02T03:04:05Z")

    def entry_at(self, url: str) -> FakeEntry:
        """The build at ``url`` (a client's ``self_link``)."""
        [build] = [b for b in self.builds if self.fake.url_of(b) == url]
        return build

    def _new_build(self, recipe: FakeEntry, arch: str) -> dict[str, Any]:
        key = "snap" if recipe.type_id == "snap" else "recipe"
        return {
            key: recipe, "arch_tag": arch, "buildstate": PENDING, "can_be_cancelled": True,
            "can_be_retried": False, "title": f"{arch} build of {recipe['name']}",
        }  # fmt: skip

    # -- recipes ---------------------------------------------------------------

    def live(self, collection: str) -> list[FakeEntry]:
        """The recipes of a collection not deleted since (a DELETE on the wire marks them)."""
        return [recipe for recipe in self.recipes.get(collection, []) if not recipe.deleted]

    def _register_recipes(self, collection: str, recipe_type: str) -> None:
        fake = self.fake
        noun = RECIPES[collection][2]

        @fake.operation(collection, "new")
        def new(_: str, /, *, owner: FakeEntry, name: str, **fields: Any) -> FakeEntry:
            # A snap's name is unique per owner, a charm's or rock's per owner and project.
            scope = {} if collection == "snaps" else {"project": fields.get("project")}
            if any(
                r["owner"] is owner and r["name"] == name
                and all(r[key] is value for key, value in scope.items())
                for r in self.live(collection)
            ):  # fmt: skip
                where = "name and owner" if collection == "snaps" else "project, owner, and name"
                raise HTTPException(400, f"There is already a {noun} with the same {where}.")
            processors = fields.pop("processors", None) or []
            if collection == "snaps":
                fields.pop("project", None)  # Launchpad keeps it, the devel WADL shows no field
            recipe = fake.add(collection, owner=owner, name=name, registrant=owner, **fields)
            self.recipes.setdefault(collection, []).append(recipe)
            self.processors[recipe.path] = [processor["name"] for processor in processors]
            return recipe

        @fake.operation(collection, "findByOwner")
        def find_by_owner(_: str, /, *, owner: FakeEntry) -> list[FakeEntry]:
            return [r for r in self.live(collection) if r["owner"] is owner]

        if collection == "snaps":

            @fake.operation("snaps", "findByStoreName")
            def find_by_store_name(
                _: str, /, *, store_name: str, owner: FakeEntry | None = None
            ) -> list[FakeEntry]:
                return [
                    r for r in self.live("snaps")
                    if r["store_name"] == store_name and owner in (None, r["owner"])
                ]  # fmt: skip

        @fake.operation(recipe_type, "requestBuilds")
        def request_builds(recipe: FakeEntry, /, **arguments: Any) -> FakeEntry:
            key = "snap" if recipe_type == "snap" else "recipe"
            request = fake.add_to(
                recipe, "pending_build_requests",
                **{key: recipe}, status="Pending", date_requested="2026-01-02T03:00:00Z",
            )  # fmt: skip
            self.pending.append(request)
            return request

    # -- builds ----------------------------------------------------------------

    def _register_builds(self, build_type: str) -> None:
        fake = self.fake

        @fake.operation(build_type, "cancel")
        def cancel(build: FakeEntry, /) -> None:
            """Launchpad: a pending build is cancelled at once, a running one is cancelling,
            and cancelling a build in any other state does nothing (IBuildFarmJob.cancel)."""
            if build["buildstate"] == PENDING:
                fake.change(build, buildstate=CANCELLED, can_be_cancelled=False)
            elif build["buildstate"] == BUILDING:
                fake.change(build, buildstate=CANCELLING, can_be_cancelled=False)

        @fake.operation(build_type, "retry")
        def retry(build: FakeEntry, /) -> None:
            if not build["can_be_retried"]:
                number = build.path.rsplit("/", 1)[-1]
                raise HTTPException(400, f"Build {number} cannot be retried.")
            fake.change(build, buildstate=PENDING, can_be_retried=False, can_be_cancelled=True)

        @fake.operation(build_type, "getFileUrls")
        def get_file_urls(build: FakeEntry, /) -> list[str]:
            if build["buildstate"] != BUILT:
                return []
            recipe = build["snap"] if build_type == "snap_build" else build["recipe"]
            web = "https://launchpad.net/" + build.path
            extension = {"snap_build": "snap", "charm_recipe_build": "charm"}.get(build_type)
            return [f"{web}/+files/{recipe['name']}_1.0_{build['arch_tag']}.{extension or 'rock'}"]

    # -- git repositories ------------------------------------------------------

    def _register_repositories(self) -> None:
        fake = self.fake

        @fake.operation("git_repositories", "new")
        def new(_: str, /, *, owner: FakeEntry, target: FakeEntry, name: str,
                information_type: str = "Public") -> FakeEntry:  # fmt: skip
            unique_name = f"~{owner['name']}/{target['name']}/+git/{name}"
            repository = fake.add(
                "git_repositories", owner=owner, target=target, name=name,
                information_type=information_type, registrant=owner,
                display_name=unique_name, unique_name=unique_name,
            )  # fmt: skip
            self.repositories.append(repository)
            return repository

        @fake.operation("git_repository", "issueAccessToken")
        def issue_access_token(repository: FakeEntry, /, **arguments: Any) -> str:
            token = secrets.token_urlsafe(20)
            self.tokens.setdefault(repository["unique_name"], []).append(token)
            return token
