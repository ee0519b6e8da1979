"""craft-application's Launchpad client (snapcraft's, charmcraft's and rockcraft's remote builds),
unchanged, against the testing kit as docs/testing-kit.md documents it.

Each test seeds the fake Launchpad, registers what Launchpad does behind
the named operations (`recipes.BuildFarm`), runs craft-application's own
code and checks what it returned and what crossed the wire. The only
thing a test changes around the program is its clock: craft-application
sleeps between retries (2 to 32 s) and between polls of a build request,
and here a sleep is instant and is when the build farm moves on.

On wadlclient, these tests run again in `test_small_programs_on_wadlclient`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from wadlclient.testing import FakeEntry, FakeService, Served

from .recipes import BUILDING, BUILT, CANCELLED, CANCELLING, FAILED, PENDING, BuildFarm

if TYPE_CHECKING:
    from craft_application.launchpad import Launchpad, models

GIT_REF = "/~ada/frobnicator/+git/frob/+ref/main"


@pytest.fixture(autouse=True, scope="session")
def emitter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """craft-cli's messages, started once a process as a craft application starts them."""
    from craft_cli import EmitterMode, emit

    log = tmp_path_factory.mktemp("craft") / "snapcraft.log"
    emit.init(EmitterMode.QUIET, "snapcraft", "Starting snapcraft", log_filepath=log)
    yield
    emit.ended_ok()


@pytest.fixture
def farm(fake_launchpad: FakeService, monkeypatch: pytest.MonkeyPatch) -> BuildFarm:
    """Launchpad's recipe and build operations on the fake, and craft-application's clock."""
    import craft_application.launchpad  # noqa: F401  (loads the modules whose clock is set below)

    farm = BuildFarm(fake_launchpad)

    def sleep(seconds: float) -> None:
        farm.slept.append(seconds)
        farm.tick()

    clock = SimpleNamespace(sleep=sleep, monotonic_ns=lambda: 0)
    for module in ("craft_application.util.retry", "craft_application.launchpad.models.recipe"):
        monkeypatch.setattr(sys.modules[module], "time", clock)
    return farm


@pytest.fixture
def ada(fake_launchpad: FakeService) -> FakeEntry:
    """The logged-in user, with a project and a git branch to build from."""
    ada = fake_launchpad.add("people", name="ada", display_name="Ada Lovelace")
    fake_launchpad.set_root_link("me", ada)
    project = fake_launchpad.add(
        "projects", name="frobnicator", display_name="Frobnicator", title="The Frobnicator",
        summary="Frobs.", information_type="Public", owner=ada,
    )  # fmt: skip
    repository = fake_launchpad.add(
        "git_repositories", name="frob", owner=ada, target=project,
        unique_name="~ada/frobnicator/+git/frob",
    )  # fmt: skip
    fake_launchpad.add_to(repository, "branches", path="refs/heads/main", repository=repository)
    ubuntu = fake_launchpad.add("distributions", name="ubuntu", display_name="Ubuntu")
    fake_launchpad.add("archives", name="primary", distribution=ubuntu)
    for processor in ("amd64", "arm64", "riscv64", "s390x"):  # a link to any other is a 400
        fake_launchpad.add("processors", name=processor)
    return ada


@pytest.fixture
def lp(ada: FakeEntry, home: Path) -> Launchpad:
    """craft-application logged in as snapcraft does: ``Launchpad.login(app_name, ...)``.

    craft-application is imported by the tests that use it, not at the module's
    top: importing it loads the whole application (over a second of CPU), which
    every pytest-xdist worker would pay to collect this module, though one runs it.
    """
    from craft_application.launchpad import Launchpad

    return Launchpad.login(
        "snapcraft", cache_dir=home / ".cache" / "launchpad-client",
        credentials_file=home / ".local" / "share" / "snapcraft" / "launchpad-credentials",
    )  # fmt: skip


def form(served: Served) -> dict[str, Any]:
    """A POSTed named operation's arguments (the journal keeps the form), decoded.

    lazr.restfulclient sends a value as JSON, but one of an enumeration
    (``pocket=Updates``) as it is.
    """
    return {key: decoded(values[0]) for key, values in served.body.items()}


def decoded(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


# -- logging in ---------------------------------------------------------------------------


def test_login_names_the_user_from_me(lp: Launchpad, fake_launchpad: FakeService) -> None:
    assert lp.username == "ada"
    reads = [(s.path, s.status, s.auth_scheme) for s in fake_launchpad.journal if s.path]
    assert reads == [("people/+me", 303, "OAuth"), ("~ada", 200, "OAuth")]
    assert not any(s.anonymous for s in fake_launchpad.journal)


def test_an_anonymous_session_is_told_apart_by_a_401_and_cannot_write(
    ada: FakeEntry, fake_launchpad: FakeService, home: Path
) -> None:
    from craft_application.launchpad import Launchpad
    from lazr.restfulclient.errors import Unauthorized

    lp = Launchpad.anonymous("snapcraft", cache_dir=home / ".cache")
    project = lp.get_project("frobnicator")
    with pytest.raises(Unauthorized):
        lp.new_project("widget", title="Widget", display_name="Widget", summary="A widget.")

    assert (lp.username, project.name) == ("anonymous", "frobnicator")
    assert [s.status for s in fake_launchpad.journal.requests("GET", "people/+me")] == [401]
    assert [s.status for s in fake_launchpad.journal.operations("new_project")] == [401]
    assert {(s.auth_scheme, s.anonymous) for s in fake_launchpad.journal} == {("OAuth", True)}


# -- projects -----------------------------------------------------------------------------


def test_projects_are_read_created_and_a_missing_one_is_not_found(
    lp: Launchpad, fake_launchpad: FakeService, farm: BuildFarm
) -> None:
    from craft_application.launchpad import errors, models

    created: list[FakeEntry] = []

    @fake_launchpad.operation("projects", "new_project")
    def new_project(_: str, /, **fields: Any) -> FakeEntry:
        created.append(fake_launchpad.add("projects", information_type="Public", **fields))
        return created[-1]

    project = lp.get_project("frobnicator")
    with pytest.raises(errors.NotFoundError, match="Could not find project nope"):
        lp.get_project("nope")
    widget = lp.new_project(
        "widget", title="Widget", display_name="Widget", summary="A widget.",
        description="Widgets, all the way down.",
    )  # fmt: skip

    assert (project.name, project.title, project.information_type) == (
        "frobnicator", "The Frobnicator", models.InformationType.PUBLIC,
    )  # fmt: skip
    assert (widget.name, widget.summary) == ("widget", "A widget.")
    assert created[0]["description"] == "Widgets, all the way down."
    assert [s.status for s in fake_launchpad.journal.requests("GET", "nope")] == [404]
    assert farm.slept == []  # launchpadlib's KeyError: no retry
    [call] = fake_launchpad.journal.operations("new_project")
    assert (call.method, call.path, call.status) == ("POST", "projects", 201)


def test_finding_projects_is_refused_before_any_request(
    lp: Launchpad, fake_launchpad: FakeService
) -> None:
    """craft-application passes the search text positionally; launchpadlib takes keywords only."""
    from craft_application.launchpad import models

    sent = len(fake_launchpad.journal)

    with pytest.raises(TypeError):
        list(models.Project.find(lp, "frob"))

    assert len(fake_launchpad.journal) == sent


# -- snap recipes ---------------------------------------------------------------------------


def new_snap(lp: Launchpad, name: str = "frob", **extra: Any) -> models.SnapRecipe:
    from craft_application.launchpad import models

    return models.SnapRecipe.new(
        lp, name, "ada", project="frobnicator", git_ref=GIT_REF, store_name=name, **extra
    )


def test_snap_recipes_are_created_read_and_found(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from craft_application.launchpad import models

    created = new_snap(lp, architectures=["amd64", "arm64"])
    new_snap(lp, "frob-edge")
    read = lp.get_recipe("snap", "frob")
    by_owner = [r.name for r in models.SnapRecipe.find(lp, owner="ada")]
    by_store = [r.name for r in models.SnapRecipe.find(lp, owner="ada", store_name="frob")]

    assert (created.name, created.owner_name, created.store_name) == ("frob", "ada", "frob")
    assert repr(read) == "SnapRecipe.get(name='frob', owner='ada')"
    assert (by_owner, by_store) == (["frob", "frob-edge"], ["frob"])
    snap = farm.recipes["snaps"][0]
    assert snap.path == "~ada/+snap/frob"
    assert snap["owner"]["name"] == "ada"
    assert snap["git_ref"]["path"] == "refs/heads/main"
    new = form(fake_launchpad.journal.operations("new")[0])
    assert (new["owner"], new["project"], new["git_ref"]) == ("/~ada", "/frobnicator", GIT_REF)
    assert new["processors"] == ["/+processors/amd64", "/+processors/arm64"]
    [get] = fake_launchpad.journal.operations("getByName")
    assert (get.query["owner"], get.status) == (['"/~ada"'], 200)
    assert [s.ws_op for s in fake_launchpad.journal if s.method == "GET" and s.ws_op] == [
        "getByName", "findByOwner", "findByStoreName",
    ]  # fmt: skip


def test_a_missing_or_duplicate_snap_recipe_is_tried_six_times_then_refused(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from lazr.restfulclient.errors import BadRequest

    new_snap(lp)
    with pytest.raises(ValueError, match="Could not find snap recipe 'nope' with owner 'ada'"):
        lp.get_recipe("snap", "nope")
    with pytest.raises(BadRequest):
        new_snap(lp)

    lookups = fake_launchpad.journal.operations("getByName")
    assert [s.status for s in lookups] == [404] * 6
    assert lookups[0].message == "No such snap package with this owner: 'nope'."
    creations = fake_launchpad.journal.operations("new")
    assert [s.status for s in creations] == [201] + [400] * 6
    assert creations[1].message == "There is already a snap package with the same name and owner."
    assert farm.slept == [2, 4, 8, 16, 32] * 2


def test_a_snap_build_is_requested_and_polled_until_the_builds_exist(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from craft_application.launchpad import models

    recipe = new_snap(lp, architectures=["amd64", "arm64"])

    builds = recipe.build()

    assert [b.architecture.value for b in builds] == ["amd64", "arm64"]
    assert [b.get_state() for b in builds] == [models.BuildState.PENDING] * 2
    assert [b.self_link for b in recipe.get_builds()] == [b.self_link for b in builds]
    [call] = fake_launchpad.journal.operations("requestBuilds")
    assert form(call)["archive"] == "/ubuntu/+archive/primary"
    assert (form(call)["pocket"], call.path, call.status) == ("Updates", "~ada/+snap/frob", 201)
    assert farm.slept == [0.5]
    polled = fake_launchpad.journal.requests("GET", "~ada/+snap/frob/+build-request/1")
    assert [s.status for s in polled] == [200, 200]


# -- builds ---------------------------------------------------------------------------------


def test_builds_are_read_cancelled_retried_and_their_files_listed(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from craft_application.launchpad import errors, models

    recipe = models.SnapRecipe.new(
        lp, "frob", "ada", git_ref=GIT_REF, architectures=["amd64", "arm64", "riscv64", "s390x"]
    )
    pending, running, built, failed = builds = list(recipe.build())
    for build, state, cancellable, retriable in [
        (running, BUILDING, True, False),
        (built, BUILT, False, False),
        (failed, FAILED, False, True),
    ]:  # fmt: skip
        fake_launchpad.change(
            farm.entry_at(build.self_link), buildstate=state,
            can_be_cancelled=cancellable, can_be_retried=retriable,
        )  # fmt: skip
        build.lp_refresh()
    states = [b.get_state() for b in builds]

    for build in (pending, running, built):
        build.cancel()  # the finished one: Launchpad does nothing
    failed.retry()
    with pytest.raises(errors.BuildError, match=r"Build \d+ cannot be retried\."):
        built.retry()
    urls = built.get_artifact_urls()

    assert states == [
        models.BuildState.PENDING, models.BuildState.BUILDING,
        models.BuildState.SUCCESS, models.BuildState.FAILED,
    ]  # fmt: skip
    assert [farm.entry_at(b.self_link)["buildstate"] for b in builds] == [
        CANCELLED, CANCELLING, BUILT, PENDING,
    ]  # fmt: skip
    built_path = farm.entry_at(built.self_link).path
    assert urls == [f"https://launchpad.net/{built_path}/+files/frob_1.0_riscv64.snap"]
    assert [(s.ws_op, s.status) for s in fake_launchpad.journal if s.method == "POST"][-5:] == [
        ("cancel", 200), ("cancel", 200), ("cancel", 200), ("retry", 200), ("retry", 400),
    ]  # fmt: skip
    assert built_path.startswith("~ada/+snap/frob/+build/")


# -- charm and rock recipes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "class_name", "collection", "path"),
    [
        ("charm", "CharmRecipe", "charm_recipes", "~ada/frobnicator/+charm/frob"),
        ("rock", "RockRecipe", "rock_recipes", "~ada/frobnicator/+rock/frob"),
    ],
)
def test_a_charm_or_rock_recipe_is_created_found_read_and_built(
    kind: str, class_name: str, collection: str, path: str,
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService,
) -> None:  # fmt: skip
    from craft_application.launchpad import models

    recipe_class = getattr(models, class_name)
    with pytest.raises(ValueError, match="associated with a project"):
        lp.get_recipe(kind, "frob")
    created = recipe_class.new(lp, "frob", "ada", "frobnicator", git_ref=GIT_REF)
    found = [r.name for r in recipe_class.find(lp, "ada", name="frob")]
    read = lp.get_recipe(kind, "frob", project="frobnicator")
    builds = read.build(channels={"core24": "latest/edge"})

    assert (created.name, found, read.owner_name) == ("frob", ["frob"], "ada")
    assert [b.architecture.value for b in builds] == ["amd64"]
    [entry] = farm.recipes[collection]
    assert entry.path == path
    [new] = fake_launchpad.journal.operations("new")
    assert (form(new)["owner"], form(new)["project"]) == ("/~ada", "/frobnicator")
    [get] = fake_launchpad.journal.operations("getByName")
    assert get.query["project"] == ['"/frobnicator"']
    [request] = fake_launchpad.journal.operations("requestBuilds")
    assert (request.path, form(request)["channels"]) == (path, {"core24": "latest/edge"})


# -- deleting -----------------------------------------------------------------------------


def test_a_recipe_is_deleted_and_then_cannot_be_deleted_again(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from craft_application.launchpad import errors

    recipe = new_snap(lp)

    recipe.delete()
    with pytest.raises(errors.LaunchpadError, match="could not be deleted"):
        recipe.delete()

    deletes = fake_launchpad.journal.requests("DELETE")
    assert [(s.path, s.status) for s in deletes] == [
        ("~ada/+snap/frob", 200), ("~ada/+snap/frob", 404),
    ]  # fmt: skip
    assert farm.live("snaps") == []


# -- git repositories ---------------------------------------------------------------------


def test_a_git_repository_is_created_read_and_issues_an_access_token(
    lp: Launchpad, farm: BuildFarm, fake_launchpad: FakeService
) -> None:
    from craft_application.launchpad import errors, models

    created = lp.new_repository("widget", project="frobnicator")
    read = lp.get_repository(name="widget", project="frobnicator")
    token = read.get_access_token("remote build")
    with pytest.raises(errors.NotFoundError, match=r"~ada/\+git/nope"):
        lp.get_repository(name="nope")

    assert (created.name, read.owner_name, read.information_type) == (
        "widget", "ada", models.InformationType.PUBLIC,
    )  # fmt: skip
    assert farm.tokens == {"~ada/frobnicator/+git/widget": [token]}
    assert farm.repositories[0].path == "~ada/frobnicator/+git/widget"
    [new] = fake_launchpad.journal.operations("new")
    assert (form(new)["owner"], form(new)["target"]) == ("/~ada", "/frobnicator")
    lookups = fake_launchpad.journal.operations("getByPath")
    assert [(s.query["path"], s.status) for s in lookups] == [
        (['"~ada/frobnicator/+git/widget"'], 200), (['"~ada/+git/nope"'], 200),
    ]  # fmt: skip
    [issue] = fake_launchpad.journal.operations("issueAccessToken")
    assert issue.path == "~ada/frobnicator/+git/widget"
    assert form(issue)["scopes"] == ["repository:push"]
