"""Parsing small hand-written WADL documents: every part of the model."""

from __future__ import annotations

from wadlclient.wadl import Link, Param, Representation, parse_wadl

PREFIXED = """<?xml version="1.0"?>
<wadl:application xmlns:wadl="http://research.sun.com/wadl/2006/10"
                  xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <wadl:doc>Top   level
     doc</wadl:doc>
  <wadl:resources base="http://example.test/1.0/">
    <wadl:resource path="" type="http://example.test/1.0/#service-root"/>
  </wadl:resources>
  <wadl:resource_type id="service-root">
    <wadl:method name="get" id="service-root-get">
      <wadl:response>
        <wadl:representation href="#service-root-json"/>
      </wadl:response>
    </wadl:method>
  </wadl:resource_type>
  <wadl:representation mediaType="application/json" id="service-root-json">
    <wadl:param style="plain" name="recipes_collection_link"
                path="$['recipes_collection_link']">
      <wadl:link resource_type="#recipes"/>
    </wadl:param>
  </wadl:representation>
  <wadl:resource_type id="recipes">
    <wadl:doc>All the <b>recipes</b>.</wadl:doc>
    <wadl:method name="GET" id="recipes-find">
      <wadl:doc>Find
        recipes.</wadl:doc>
      <wadl:request>
        <wadl:param style="query" name="ws.op" required="true" fixed="find"/>
        <wadl:param style="query" name="search" type="xsd:string" required="true"/>
      </wadl:request>
      <wadl:response status="200">
        <wadl:representation href="#recipe-page"/>
      </wadl:response>
    </wadl:method>
    <wadl:method href="#recipes-create"/>
    <wadl:method name="POST" id="recipes-upload">
      <wadl:request>
        <wadl:representation href="#upload-form"/>
      </wadl:request>
    </wadl:method>
  </wadl:resource_type>
  <wadl:method name="POST" id="recipes-create">
    <wadl:request>
      <wadl:representation mediaType="application/x-www-form-urlencoded">
        <wadl:param style="query" name="ws.op" required="true" fixed="create"/>
        <wadl:param style="query" name="when" type="xsd:dateTime"/>
        <wadl:param style="query" name="kind">
          <wadl:option value="Soup"/>
          <wadl:option value="Stew"/>
        </wadl:param>
        <wadl:param style="query" name="dish">
          <wadl:link/>
        </wadl:param>
      </wadl:representation>
    </wadl:request>
    <wadl:response status="201 202">
      <wadl:param name="Location" style="header">
        <wadl:link resource_type="#recipe"/>
      </wadl:param>
    </wadl:response>
  </wadl:method>
  <wadl:representation mediaType="multipart/form-data" id="upload-form">
    <wadl:param style="query" name="ws.op" fixed="upload"/>
    <wadl:param style="query" name="file" type="binary"/>
  </wadl:representation>
</wadl:application>
"""

DEFAULT_NAMESPACE = """<application xmlns="http://research.sun.com/wadl/2006/10">
  <resources base="http://example.test/">
    <resource path="" type="#root"/>
  </resources>
  <resource_type id="root">
    <method name="GET"><response><representation mediaType="application/json"/></response>
    </method>
  </resource_type>
</application>
"""


def test_default_namespace_and_prefixed_elements_read_alike() -> None:
    app = parse_wadl(DEFAULT_NAMESPACE.encode())

    assert app.base == "http://example.test/"
    assert app.root_resource_type == "root"
    assert app.json_representation("#root") == Representation(media_type="application/json")


def test_str_input_is_accepted() -> None:
    assert parse_wadl(PREFIXED).root_resource_type == "service-root"


def test_method_names_are_upper_cased() -> None:
    app = parse_wadl(PREFIXED)

    assert app.methods["service-root-get"].name == "GET"
    assert app.resource_type("service-root").method("get") is app.methods["service-root-get"]


def test_docs_are_text_with_whitespace_normalised() -> None:
    app = parse_wadl(PREFIXED)

    assert app.docs == ("Top level doc",)
    assert app.resource_type("recipes").doc == "All the recipes."
    assert app.methods["recipes-find"].doc == "Find recipes."


def test_query_named_operation_has_ws_op_and_caller_params_only() -> None:
    method = parse_wadl(PREFIXED).resource_type("#recipes").named_operations["find"]

    assert method.ws_op == "find"
    assert method.body_media_type is None
    assert method.params == (Param("search", style="query", required=True, type="string"),)
    assert method.responses[0].status == (200,)


def test_method_referenced_by_href_before_it_is_defined_is_resolved() -> None:
    app = parse_wadl(PREFIXED)

    create = app.resource_type("recipes").named_operations["create"]
    assert create is app.methods["recipes-create"]
    assert create.name == "POST"


def test_form_params_are_caller_params_with_types_options_and_links() -> None:
    create = parse_wadl(PREFIXED).methods["recipes-create"]

    assert create.body_media_type == "application/x-www-form-urlencoded"
    assert [p.name for p in create.params] == ["when", "kind", "dish"]
    when, kind, dish = create.params
    assert when.type == "dateTime"
    assert kind.options == ("Soup", "Stew")
    assert dish.link == Link(None)


def test_response_status_list_and_location_header() -> None:
    create = parse_wadl(PREFIXED).methods["recipes-create"]

    assert create.responses[0].status == (201, 202)
    location = create.response_header("Location")
    assert location is not None and location.link == Link("recipe")


def test_request_representation_by_forward_href_gives_body_type_and_params() -> None:
    upload = parse_wadl(PREFIXED).methods["recipes-upload"]

    assert upload.ws_op == "upload"
    assert upload.body_media_type == "multipart/form-data"
    assert [(p.name, p.type) for p in upload.params] == [("file", "binary")]
    assert upload.request.representations == (Representation(href="#upload-form"),)


def test_json_representation_resolves_an_href_to_a_later_definition() -> None:
    app = parse_wadl(PREFIXED, url="http://example.test/1.0/")

    rep = app.json_representation("http://example.test/1.0/#service-root")
    assert rep is app.representation("service-root-json")
    field = rep.param("recipes_collection_link")
    assert field is not None and field.link == Link("recipes")
    assert rep.param("missing") is None


def test_a_document_without_resources_has_no_base() -> None:
    app = parse_wadl('<application xmlns="http://research.sun.com/wadl/2006/10"/>')

    assert app.base is None
    assert app.root_resource_type is None
    assert app.resource_types == {}


def test_wadl_elements_inside_foreign_elements_are_not_attached() -> None:
    app = parse_wadl(
        '<application xmlns="http://research.sun.com/wadl/2006/10">'
        '<resource_type id="t"><x:extension xmlns:x="urn:other"><method name="GET"/>'
        "</x:extension></resource_type></application>"
    )

    assert app.resource_type("t").methods == ()
