"""Parsing Launchpad's real 1.5 MB WADL: indexes and the facts a client relies on."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from wadlclient.wadl import WADL_NS, Application, Link, parse_wadl

LAUNCHPAD_URL = "https://api.launchpad.test/1.0/"
W = "{" + WADL_NS + "}"


@pytest.fixture(scope="module")
def app(launchpad_wadl_bytes: bytes) -> Application:
    return parse_wadl(launchpad_wadl_bytes, url=LAUNCHPAD_URL)


@pytest.fixture(scope="module")
def tree(launchpad_wadl_bytes: bytes) -> ET.Element:
    """An independent reading of the same document, with ElementTree."""
    return ET.fromstring(launchpad_wadl_bytes)


def ids_of(tree: ET.Element, local_name: str) -> set[str]:
    return {el.attrib["id"] for el in tree.iter(W + local_name) if "id" in el.attrib}


def test_every_resource_type_is_indexed_by_id(app: Application, tree: ET.Element) -> None:
    assert set(app.resource_types) == ids_of(tree, "resource_type")


def test_every_representation_with_an_id_is_indexed_including_inline_ones(
    app: Application, tree: ET.Element
) -> None:
    expected = ids_of(tree, "representation")

    assert set(app.representations) == expected
    assert "service-root-wadl" in app.representations


def test_every_method_with_an_id_is_indexed(app: Application, tree: ET.Element) -> None:
    assert set(app.methods) == ids_of(tree, "method")


def test_base_and_root_resource_type_come_from_resources(app: Application) -> None:
    assert app.base == LAUNCHPAD_URL
    assert app.root_resource_type == "service-root"
    assert app.url == LAUNCHPAD_URL


def test_top_level_docs_are_kept_with_whitespace_normalised(app: Application) -> None:
    assert len(app.docs) == 2
    assert app.docs[0].startswith("The Launchpad web service allows automated clients to")
    assert "\n" not in app.docs[0]


def test_named_operation_get_by_email_is_a_get_with_a_required_email(app: Application) -> None:
    method = app.resource_type("people").named_operations["getByEmail"]

    assert method.name == "GET"
    assert method.ws_op == "getByEmail"
    assert method.body_media_type is None
    assert [(p.name, p.required) for p in method.params] == [("email", True)]


def test_create_bug_is_a_form_post_whose_location_links_to_a_bug(app: Application) -> None:
    method = app.methods["bugs-createBug"]

    assert method.name == "POST"
    assert method.ws_op == "createBug"
    assert method.body_media_type == "application/x-www-form-urlencoded"
    location = method.response_header("location")
    assert location is not None
    assert location.link == Link("bug")


def test_create_bug_params_exclude_ws_op_and_carry_options_and_links(app: Application) -> None:
    params = {p.name: p for p in app.methods["bugs-createBug"].params}

    assert "ws.op" not in params
    assert params["information_type"].options == (
        "Public",
        "Public Security",
        "Private Security",
        "Private",
        "Proprietary",
        "Embargoed",
    )
    assert params["target"].link == Link("bug_target")
    assert params["title"].required is True
    assert params["tags"].required is False


def test_create_bug_is_a_named_operation_of_bugs(app: Application) -> None:
    bugs = app.resource_type("bugs")

    assert bugs.named_operations["createBug"] is app.methods["bugs-createBug"]
    assert bugs.method("post", "createBug") is app.methods["bugs-createBug"]


def test_json_field_types_are_local_xsd_names_and_links_name_resource_types(
    app: Application,
) -> None:
    bug = app.representation("bug-full")

    date_created = bug.param("date_created")
    owner_link = bug.param("owner_link")
    assert bug.media_type == "application/json"
    assert date_created is not None and date_created.type == "dateTime"
    assert date_created.path == "$['date_created']"
    assert owner_link is not None and owner_link.link == Link("person")


def test_page_representation_describes_a_collection_page(app: Application) -> None:
    page = app.representation("bug-page")

    names = {p.name for p in page.params}
    assert {"entries", "total_size", "next_collection_link"} <= names
    next_link = page.param("next_collection_link")
    assert next_link is not None and next_link.link == Link("bug-page-resource")
    resource_type_link = page.param("resource_type_link")
    assert resource_type_link is not None and resource_type_link.link == Link(None)


@pytest.mark.parametrize("ref", ["#bug", f"{LAUNCHPAD_URL}#bug", "bug"])
def test_resource_type_references_resolve_in_all_three_forms(app: Application, ref: str) -> None:
    assert app.resource_type(ref).id == "bug"


@pytest.mark.parametrize("ref", ["#bug-full", f"{LAUNCHPAD_URL}#bug-full", "bug-full"])
def test_representation_references_resolve_in_all_three_forms(app: Application, ref: str) -> None:
    assert app.representation(ref).id == "bug-full"


def test_an_unknown_reference_is_a_key_error(app: Application) -> None:
    with pytest.raises(KeyError):
        app.resource_type("#no-such-type")


def test_json_representation_follows_the_href_of_a_get_response(app: Application) -> None:
    assert app.json_representation(f"{LAUNCHPAD_URL}#bug") is app.representation("bug-full")
    root = app.json_representation("#service-root")
    assert root is not None and root.id == "service-root-json"


def test_json_representation_of_an_unknown_type_is_none(app: Application) -> None:
    assert app.json_representation("#no-such-type") is None


def test_the_nbsp_entity_expands_inside_docs(app: Application) -> None:
    doc = app.methods["bugs-createBug"].doc

    assert doc is not None
    assert doc.startswith("Create a bug (with an appropriate bugtask) and return it.")
    assert "&nbsp;" not in doc
    assert "param description: \\ The description of the issue." in doc


def test_identical_params_are_one_shared_object(app: Application) -> None:
    params = [
        param
        for rtype in app.resource_types.values()
        for method in rtype.methods
        for param in method.params
    ]

    by_value: dict[object, set[int]] = {}
    for param in params:
        by_value.setdefault(param, set()).add(id(param))
    assert len(by_value) < len(params)
    assert all(len(identities) == 1 for identities in by_value.values())
