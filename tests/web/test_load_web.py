"""``root.load_web``: what people paste (web pages, references) loads the object it shows.

The addresses are in the shapes Launchpad's pages have (copied from real
pages, names changed to the fake's seeded ones); each row says which seeded
object it names.
"""

from __future__ import annotations

import pytest

import wadlclient
from wadlclient import WebAddressError
from wadlclient.testing import FakeEntry, FakeService

ADDRESSES = [
    # bugs and bug tasks
    ("https://bugs.launchpad.net/bugs/1", "bug"),
    ("https://launchpad.net/bugs/1", "bug"),
    ("http://bugs.launchpad.net/bugs/1/", "bug"),
    ("https://bugs.launchpad.net/bugs/1/+activity", "bug"),
    ("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1", "bug_task"),
    ("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1/+index", "bug_task"),
    ("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1?comments=all", "bug_task"),
    ("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1#yui-3", "bug_task"),
    ("https://launchpad.net/ubuntu/+source/hello/+bug/1", "bug_task"),
    ("bugs.launchpad.net/ubuntu/+source/hello/+bug/1", "bug_task"),
    ("<https://bugs.launchpad.net/bugs/1>", "bug"),
    ("launchpad.net/bugs/1", "bug"),
    ("https://bugs.launchpad.net/frob/+bug/1", "project_bug_task"),
    ("https://bugs.launchpad.net/bugs/cve/2024-1234", "cve"),
    ("https://bugs.launchpad.net/bugs/bugtrackers/debbugs", "bug_tracker"),
    # people, teams, projects, distributions and their series and packages
    ("https://launchpad.net/~ada", "person"),
    ("https://launchpad.net/~ada/", "person"),
    ("https://launchpad.net/%7Eada", "person"),
    ("HTTPS://Launchpad.net/~ada", "person"),
    ("https://launchpad.net/~frob-devs/+index", "team"),
    ("https://launchpad.net/~frob-devs/+member/ada", "team_membership"),
    ("https://launchpad.net/frobs", "project_group"),
    ("https://launchpad.net/frob", "project"),
    ("https://code.launchpad.net/frob", "project"),
    ("https://translations.launchpad.net/frob/", "project"),
    ("https://launchpad.net/ubuntu", "distribution"),
    ("https://launchpad.net/ubuntu/noble", "distro_series"),
    ("https://launchpad.net/ubuntu/noble/amd64", "distro_arch_series"),
    ("https://launchpad.net/+languages/pt_BR", "language"),
    ("https://launchpad.net/frob/trunk", "project_series"),
    ("https://launchpad.net/frob/+milestone/1.0", "milestone"),
    ("https://launchpad.net/ubuntu/+source/hello", "distribution_source_package"),
    ("https://bugs.launchpad.net/ubuntu/+source/hello", "distribution_source_package"),
    ("https://launchpad.net/ubuntu/noble/+source/hello", "source_package"),
    # archives
    ("https://launchpad.net/~ada/+archive/ubuntu/tools", "ppa"),
    ("https://launchpad.net/~ada/+archive/tools", "ppa"),
    ("https://launchpad.net/ubuntu/+archive/primary", "primary_archive"),
    ("https://launchpad.net/~ada/+archive/ubuntu/tools/+build/1", "build"),
    # code
    ("https://code.launchpad.net/~ada/frob/+git/frob", "git_repository"),
    ("https://git.launchpad.net/frob", "git_repository"),
    ("https://git.launchpad.net/~ada/frob/+git/frob/tree/README?h=main", "git_repository"),
    ("https://code.launchpad.net/~ada/frob/+git/frob/+ref/main", "git_ref"),
    ("https://launchpad.net/~ada/frob/+git/frob/+webhook/1", "webhook"),
    ("https://code.launchpad.net/~ada/frob/+git/frob/+merge/7", "merge_proposal"),
    ("https://code.launchpad.net/~ada/frob/+git/frob/+merge/7/+index?ss=1", "merge_proposal"),
    # recipes and builds
    ("https://launchpad.net/~ada/+snap/frob", "snap"),
    ("https://launchpad.net/~ada/+snap/frob/+build/1", "snap_build"),
    ("https://launchpad.net/+snap-bases/core24", "snap_base"),
    ("https://launchpad.net/~ada/frob/+charm/frob", "charm_recipe"),
    ("https://launchpad.net/~ada/frob/+charm/frob/+build/1", "charm_recipe_build"),
    ("https://launchpad.net/~ada/frob/+rock/frob", "rock_recipe"),
    ("https://launchpad.net/~ada/frob/+rock/frob/+build/1", "rock_recipe_build"),
    ("https://launchpad.net/~ada/+livefs/ubuntu/noble/cd", "livefs"),
    ("https://launchpad.net/~ada/+livefs/ubuntu/noble/cd/+build/1", "livefs_build"),
    # blueprints and answers
    ("https://blueprints.launchpad.net/frob/+spec/faster", "specification"),
    ("https://answers.launchpad.net/frob/+question/3", "question"),
    ("https://answers.launchpad.net/frob/+question/3/+index", "question"),
    # the API's own addresses, and other instances (the root reaches the fake whatever they are)
    ("https://api.launchpad.net/devel/bugs/1", "bug"),
    ("https://api.launchpad.net/1.0/~ada", "person"),
    ("https://bugs.staging.launchpad.net/bugs/1", "bug"),
    ("https://code.qastaging.launchpad.net/~ada/frob/+git/frob", "git_repository"),
    ("https://dogfood.paddev.net/~ada", "person"),
]

REFERENCES = [
    ("LP: #1", "bug"),
    ("LP:#1", "bug"),
    ("LP#1", "bug"),
    ("lp: #1", "bug"),
    ("bug 1", "bug"),
    ("Bug #1", "bug"),
    ("bug: #1", "bug"),
    ("#1", "bug"),
    ("1", "bug"),
    ("  LP: #1\n", "bug"),
    ("lp:frob", "git_repository"),
    ("lp:~ada/frob/+git/frob", "git_repository"),
    ("ppa:ada/tools", "ppa"),
    ("ppa:ada/ubuntu/tools", "ppa"),
]


@pytest.mark.parametrize(("text", "kind"), ADDRESSES + REFERENCES)
def test_an_address_or_reference_loads_the_object_it_names(
    lp: wadlclient.ServiceRoot,
    objects: dict[str, FakeEntry],
    fake: FakeService,
    text: str,
    kind: str,
) -> None:
    entry = lp.load_web(text)

    assert entry.self_link == fake.url_of(objects[kind])
    assert entry.resource_type_link.endswith("#" + objects[kind].type_id)


def test_every_kind_round_trips_through_its_web_link(
    lp: wadlclient.ServiceRoot, objects: dict[str, FakeEntry], fake: FakeService
) -> None:
    for kind, seeded in objects.items():
        entry = lp.load(fake.url_of(seeded))

        again = lp.load_web(entry.web_link)

        assert (kind, again.self_link, again.web_link) == (kind, entry.self_link, entry.web_link)


def test_the_table_covers_every_seeded_kind(objects: dict[str, FakeEntry]) -> None:
    assert {kind for _, kind in ADDRESSES} == set(objects)


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("https://bugs.launchpad.net/frob/+bugs", "+bugs is a page listing many objects"),
        ("https://bugs.launchpad.net/frob/+bugs?field.status=New", "+bugs is a page listing"),
        ("https://launchpad.net/~ada/+ppas", "+ppas is a page listing"),
        ("https://code.launchpad.net/~ada/frob/+git/frob/+merge", "+merge is a page listing"),
        ("https://launchpad.net/frob/+frobnicate", "a view Launchpad's API does not publish"),
        ("https://launchpad.net/", "a front page"),
        ("https://api.launchpad.net/devel/people", "a list of objects"),
        ("https://github.com/ada/frob/issues/1", "github.com is not one of Launchpad's web hosts"),
        ("https://launchpad.net.example.com/~ada", "is not one of Launchpad's web hosts"),
        ("ftp://launchpad.net/~ada", "not an http(s) address"),
        ("bug one", "cannot read 'bug one'"),
        ("ppa:ada", "cannot read 'ppa:ada'"),
        ("lp:", "cannot read 'lp:'"),
        ("", "cannot read ''"),
    ],
)
def test_text_that_names_no_one_object_is_one_error_naming_what_was_expected(
    lp: wadlclient.ServiceRoot, fake: FakeService, text: str, cause: str
) -> None:
    before = len(fake.journal)

    with pytest.raises(WebAddressError) as caught:
        lp.load_web(text)

    assert cause in str(caught.value)
    assert "expected a Launchpad web address of one object" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    if "list of objects" not in cause:
        assert len(fake.journal) == before, "an unreadable text sends nothing"


def test_an_object_launchpad_does_not_have_is_not_found_naming_the_address(
    lp: wadlclient.ServiceRoot,
) -> None:
    with pytest.raises(wadlclient.NotFound) as caught:
        lp.load_web("https://bugs.launchpad.net/bugs/999")

    assert "'https://bugs.launchpad.net/bugs/999' names bugs/999" in str(caught.value)


def test_a_short_code_path_with_no_repository_says_so(lp: wadlclient.ServiceRoot) -> None:
    with pytest.raises(WebAddressError, match="no git repository at nothing-here"):
        lp.load_web("lp:nothing-here")


def test_load_web_takes_text_only(lp: wadlclient.ServiceRoot) -> None:
    with pytest.raises(WebAddressError, match="takes a string, not int"):
        lp.load_web(1)  # type: ignore[arg-type]


def test_kind_says_which_type_the_text_must_name(
    lp: wadlclient.ServiceRoot, objects: dict[str, FakeEntry], fake: FakeService
) -> None:
    """The typed package's overloads return ``kind``'s class; at run time it is checked."""
    task = lp.load_web("https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1", "bug_task")
    assert task.self_link == fake.url_of(objects["bug_task"])

    with pytest.raises(WebAddressError, match="'LP: #1' names a bug, not the bug_task expected"):
        lp.load_web("LP: #1", "bug_task")
