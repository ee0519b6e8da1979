"""Where entries live: Launchpad's URL shapes, path rules over links, and ``self_link``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from cookbook_service.wadl import generate_wadl
from wadlclient.schema import FieldKind
from wadlclient.testing import LAUNCHPAD_PATHS, FakeService
from wadlclient.testing.shapes import LAUNCHPAD_COLLECTIONS, LAUNCHPAD_ROOT_LINKS

from .wire import get_json, send


def test_every_launchpad_rule_names_types_and_fields_of_the_devel_wadl(
    fake_lp: FakeService,
) -> None:
    """A rule for a type Launchpad does not have, or a field it does not carry, is a typo."""
    described = fake_lp.description
    for type_id, rule in LAUNCHPAD_PATHS.items():
        assert described.has_entry_type(type_id), type_id
        templates = [] if callable(rule) else [rule] if isinstance(rule, str) else list(rule)
        for template in templates:
            for dotted in re.findall(r"\{([\w.]+)\}", template):
                info = described.entry_type(type_id).info
                for step in dotted.split("."):
                    if step in ("parent", "n"):
                        break
                    field = info.fields.get(step)
                    assert field is not None, f"{type_id}: {template}: {step}"
                    if field.kind is FieldKind.ENTRY and field.link_type:
                        info = described.schema.type_info(field.link_type)
    assert set(LAUNCHPAD_COLLECTIONS) <= set(described.collections)
    assert set(LAUNCHPAD_ROOT_LINKS) <= set(described.root.fields)


def test_the_root_links_collections_where_launchpad_serves_them(fake_lp: FakeService) -> None:
    root = get_json(fake_lp, "")

    assert root["snaps_collection_link"] == fake_lp.base + "+snaps"
    assert root["git_repositories_collection_link"] == fake_lp.base + "+git"
    assert root["distributions_collection_link"] == fake_lp.base + "distros"
    assert root["people_collection_link"] == fake_lp.base + "people"
    assert send(fake_lp, "GET", "snaps")[0] == 404


def test_a_repository_lives_under_its_owner_and_target_or_the_owner_alone(
    fake_lp: FakeService,
) -> None:
    ada = fake_lp.add("people", name="ada")
    ubuntu = fake_lp.add("distributions", name="ubuntu")
    hello = fake_lp.add("distribution_source_package", distribution=ubuntu, name="hello")
    project = fake_lp.add("projects", name="frobnicator")

    paths = [
        fake_lp.add("git_repositories", owner=ada, target=project, name="frob").path,
        fake_lp.add("git_repositories", owner=ada, target=hello, name="hello").path,
        fake_lp.add("git_repositories", owner=ada, name="dotfiles").path,
    ]

    assert paths == [
        "~ada/frobnicator/+git/frob",
        "~ada/ubuntu/+source/hello/+git/hello",
        "~ada/+git/dotfiles",
    ]


def test_a_branch_is_its_repository_plus_ref_and_its_name(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    repository = fake_lp.add("git_repositories", owner=ada, name="frob")

    branch = fake_lp.add("git_ref", repository=repository, path="refs/heads/feature/x")
    tag = fake_lp.add("git_ref", repository=repository, path="refs/tags/1.0")

    assert (branch.path, tag.path) == (
        "~ada/+git/frob/+ref/feature/x",
        "~ada/+git/frob/+ref/refs/tags/1.0",
    )
    assert get_json(fake_lp, branch.path)["path"] == "refs/heads/feature/x"


def test_a_rule_that_lacks_a_value_names_it(fake_lp: FakeService) -> None:
    with pytest.raises(ValueError, match=r"^snap entries need owner to make their URL"):
        fake_lp.add("snaps", name="frob")


def test_self_link_puts_an_entry_where_the_test_says(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")

    snap = fake_lp.add("snaps", name="frob", owner=ada, self_link="/~ada/+snap/renamed")
    other = fake_lp.add("snaps", name="frob", owner=ada, self_link=fake_lp.base + "~ada/+snap/two")

    assert (snap.path, other.path) == ("~ada/+snap/renamed", "~ada/+snap/two")
    assert get_json(fake_lp, "~ada/+snap/renamed")["name"] == "frob"
    with pytest.raises(ValueError, match="An entry already lives at '~ada/\\+snap/two'"):
        fake_lp.add("snaps", name="frob", owner=ada, self_link="~ada/+snap/two")


def test_an_entry_type_no_collection_lists_is_added_by_its_name(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    snap = fake_lp.add("snaps", owner=ada, name="frob")

    first = fake_lp.add("snap_build_request", snap=snap)
    second = fake_lp.add("snap_build_request", snap=snap)

    assert (first.path, second.path) == (
        "~ada/+snap/frob/+build-request/1",
        "~ada/+snap/frob/+build-request/2",
    )
    assert get_json(fake_lp, first.path)["snap_link"] == fake_lp.url_of(snap)


def test_a_path_is_quoted_on_the_wire_and_read_back(fake_lp: FakeService) -> None:
    ada = fake_lp.add("people", name="ada")
    repository = fake_lp.add("git_repositories", owner=ada, name="frob")
    ref = fake_lp.add("git_ref", repository=repository, path="refs/heads/fix #1")

    url = fake_lp.url_of(ref)

    assert url == fake_lp.base + "~ada/+git/frob/+ref/fix%20%231"
    assert get_json(fake_lp, url.removeprefix(fake_lp.base))["path"] == "refs/heads/fix #1"


@pytest.fixture
def cookbook_with_rules() -> Iterator[FakeService]:
    wadl = generate_wadl("http://cookbooks.test/1.0/", "application/vnd.sun.wadl+xml")
    rules = {"recipes": "{cookbook}/recipes/{id}", "dishes": ("dishes/{name}", "dishes/{n}")}
    with FakeService(wadl, entry_paths=rules) as fake:
        yield fake


def test_a_rule_of_your_own_may_use_links_and_fall_back(cookbook_with_rules: FakeService) -> None:
    fake = cookbook_with_rules
    book = fake.add("cookbooks", name="Basics")

    recipe = fake.add("recipes", cookbook=book, instructions="Boil.")
    dish = fake.add("dishes", name="Soup")
    unnamed = fake.add("dishes")

    assert (recipe.path, dish.path, unnamed.path) == (
        "cookbooks/Basics/recipes/1",
        "dishes/Soup",
        "dishes/2",
    )
    assert get_json(fake, "cookbooks/Basics/recipes/1")["instructions"] == "Boil."
