"""The service's WADL document, generated from :mod:`cookbook_service.schema`.

It follows the conventions of lazr.restful's WADL (Launchpad's): resource
types ``service-root``, ``<plural>``, ``<entry>``, ``<entry>-page-resource``,
``HostedFile`` and ``ScalarValue``; JSON representations ``<entry>-full``,
``<entry>-diff`` and ``<entry>-page`` whose params carry a JSONPath and, for
links, a ``<wadl:link resource_type=...>``; method ids ``<type>-<op>``;
``ws.op`` as a fixed query param; form representations for POST operations
and a ``Location`` header param for factories.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from cookbook_service.schema import (
    ENTRY_TYPES,
    TOP_LEVEL_ENTRIES,
    EntryType,
    Field,
    Operation,
    Param,
)

_HEADER = (
    '<?xml version="1.0"?>\n'
    '<wadl:application xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    ' xmlns="http://research.sun.com/wadl/2006/10"'
    ' xmlns:xsd="http://www.w3.org/2001/XMLSchema"'
    ' xmlns:wadl="http://research.sun.com/wadl/2006/10"'
    ' xsi:schemaLocation="http://research.sun.com/wadl/2006/10/wadl.xsd">\n'
)


def _doc(text: str) -> str:
    return f'<wadl:doc xmlns="http://www.w3.org/1999/xhtml">{_text(text)}</wadl:doc>'


def _text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link(type_url: str | None) -> str:
    if type_url is None:
        return "<wadl:link/>"
    return f"<wadl:link resource_type={quoteattr(type_url)}/>"


def _field_param(root: str, field: Field, required: bool) -> str:
    path = f"$[{field.json_name!r}]"
    flag = "true" if required else "false"
    attrs = (
        f'style="plain" required="{flag}" name={quoteattr(field.json_name)} path={quoteattr(path)}'
    )
    if field.xsd_type:
        attrs += f" type={quoteattr(field.xsd_type)}"
    inner = [_doc(field.doc)]
    inner += [f"<wadl:option value={quoteattr(option)}/>" for option in field.options]
    if field.kind in ("link", "hosted_file"):
        inner.append(_link(f"{root}#{field.target}"))
    elif field.kind == "collection":
        inner.append(_link(f"{root}#{field.target}-page-resource"))
    return f"<wadl:param {attrs}>{''.join(inner)}</wadl:param>"


def _op_param(root: str, param: Param) -> str:
    flag = "true" if param.required else "false"
    attrs = f'style="query" name={quoteattr(param.name)} required="{flag}"'
    if param.xsd_type:
        attrs += f" type={quoteattr(param.xsd_type)}"
    inner = [_doc(param.doc)]
    inner += [f"<wadl:option value={quoteattr(option)}/>" for option in param.options]
    if param.kind == "link" and param.target:
        inner.append(_link(f"{root}#{param.target}"))
    return f"<wadl:param {attrs}>{''.join(inner)}</wadl:param>"


def _operation(root: str, owner: str, op: Operation) -> str:
    fixed = (
        f'<wadl:param style="query" name="ws.op" required="true" fixed={quoteattr(op.name)}>'
        "<wadl:doc>The name of the operation being invoked.</wadl:doc></wadl:param>"
    )
    params = fixed + "".join(_op_param(root, p) for p in op.params)
    if op.http_method == "GET":
        request = f"<wadl:request>{params}</wadl:request>"
    else:
        request = (
            f'<wadl:request><wadl:representation mediaType="{op.form_media_type}">'
            f"{params}</wadl:representation></wadl:request>"
        )
    kind, target = op.returns
    if kind == "page":
        response = f'<wadl:response><wadl:representation href="{root}#{target}-page"/>'
        response += "</wadl:response>"
    elif kind == "entry":
        response = f'<wadl:response><wadl:representation href="{root}#{target}-full"/>'
        response += "</wadl:response>"
    elif kind == "factory":
        response = (
            '<wadl:response><wadl:param name="Location" style="header">'
            f"{_link(f'{root}#{target}')}</wadl:param></wadl:response>"
        )
    else:
        response = ""
    return (
        f"<wadl:method id={quoteattr(f'{owner}-{op.name}')} name={quoteattr(op.http_method)}>"
        f"{_doc(op.doc)}{request}{response}</wadl:method>\n"
    )


def _service_root(root: str, media_type: str) -> str:
    params = []
    for entry in ENTRY_TYPES:
        name = f"{entry.plural}_collection_link"
        params.append(
            f'<wadl:param style="plain" name="{name}" path="$[{name!r}]">'
            f"{_link(f'{root}#{entry.plural}')}</wadl:param>\n"
        )
    for name, type_name in TOP_LEVEL_ENTRIES.items():
        link = f"{name}_link"
        params.append(
            f'<wadl:param style="plain" name="{link}" path="$[{link!r}]">'
            f"{_link(f'{root}#{type_name}')}</wadl:param>\n"
        )
    params.append(
        '<wadl:param style="plain" name="resource_type_link" path="$[\'resource_type_link\']">'
        "<wadl:doc>The link to the WADL description of this resource.</wadl:doc>"
        "<wadl:link/></wadl:param>\n"
    )
    return (
        f"<wadl:resources base={quoteattr(root)}>\n"
        '  <wadl:resource path="" type="#service-root"/>\n</wadl:resources>\n'
        '<wadl:resource_type id="service-root">\n'
        "<wadl:doc>The root of the web service.</wadl:doc>\n"
        '<wadl:method name="GET" id="service-root-get"><wadl:response>'
        '<wadl:representation href="#service-root-json"/>'
        f'<wadl:representation mediaType="{media_type}" id="service-root-wadl"/>'
        "</wadl:response></wadl:method>\n</wadl:resource_type>\n"
        '<wadl:representation mediaType="application/json" id="service-root-json">\n'
        f"{''.join(params)}</wadl:representation>\n"
    )


def _collection_type(root: str, entry: EntryType, media_type: str) -> str:
    ops = "".join(_operation(root, entry.plural, op) for op in entry.collection_operations)
    return (
        f'<wadl:resource_type id="{entry.plural}">{_doc(f"The collection of {entry.plural}.")}\n'
        f'<wadl:method name="GET" id="{entry.plural}-get"><wadl:response>'
        f'<wadl:representation href="{root}#{entry.name}-page"/>'
        f'<wadl:representation mediaType="{media_type}" id="{entry.plural}-wadl"/>'
        f"</wadl:response></wadl:method>\n{ops}</wadl:resource_type>\n"
    )


def _entry_type(root: str, entry: EntryType, media_type: str) -> str:
    name = entry.name
    methods = [
        f'<wadl:method name="GET" id="{name}-get"><wadl:response>'
        f'<wadl:representation href="{root}#{name}-full"/>'
        f'<wadl:representation mediaType="{media_type}" id="{name}-wadl"/>'
        "</wadl:response></wadl:method>\n",
        f'<wadl:method name="PUT" id="{name}-put"><wadl:request>'
        f'<wadl:representation href="{root}#{name}-full"/></wadl:request></wadl:method>\n',
        f'<wadl:method name="PATCH" id="{name}-patch"><wadl:request>'
        f'<wadl:representation href="{root}#{name}-diff"/></wadl:request></wadl:method>\n',
    ]
    if entry.deletable:
        methods.append(f'<wadl:method name="DELETE" id="{name}-delete"/>\n')
    methods += [_operation(root, name, op) for op in entry.operations]
    full = [
        '<wadl:param style="plain" name="self_link" path="$[\'self_link\']">'
        f"<wadl:doc>The canonical link to this resource.</wadl:doc>{_link(f'{root}#{name}')}"
        "</wadl:param>",
        '<wadl:param style="plain" name="resource_type_link" path="$[\'resource_type_link\']">'
        "<wadl:doc>The link to the WADL description of this resource.</wadl:doc><wadl:link/>"
        "</wadl:param>",
        '<wadl:param style="plain" name="http_etag" path="$[\'http_etag\']">'
        "<wadl:doc>The value of the HTTP ETag for this resource.</wadl:doc></wadl:param>",
    ]
    full += [_field_param(root, f, required=True) for f in entry.fields]
    diff = [_field_param(root, f, required=False) for f in entry.fields if f.writable]
    page_link = _link(f"#{name}-page-resource")
    return (
        f'<wadl:resource_type id="{name}">{_doc(entry.doc)}\n{"".join(methods)}'
        "</wadl:resource_type>\n"
        f'<wadl:representation mediaType="application/json" id="{name}-full">\n'
        + "\n".join(full)
        + "\n</wadl:representation>\n"
        f'<wadl:representation mediaType="application/json" id="{name}-diff">\n'
        + "\n".join(diff)
        + "\n</wadl:representation>\n"
        "<!--Collection page for this type of entry-->\n"
        f'<wadl:resource_type id="{name}-page-resource">'
        f'<wadl:method name="GET" id="{name}-page-resource-get"><wadl:response>'
        f'<wadl:representation href="#{name}-page"/></wadl:response></wadl:method>'
        "</wadl:resource_type>\n"
        f'<wadl:representation mediaType="application/json" id="{name}-page">\n'
        '<wadl:param style="plain" name="resource_type_link" path="$[\'resource_type_link\']">'
        "<wadl:link/></wadl:param>\n"
        '<wadl:param style="plain" name="total_size" path="$[\'total_size\']" required="true"/>\n'
        '<wadl:param style="plain" name="start" path="$[\'start\']" required="true"/>\n'
        '<wadl:param style="plain" name="next_collection_link" '
        f"path=\"$['next_collection_link']\">{page_link}</wadl:param>\n"
        '<wadl:param style="plain" name="prev_collection_link" '
        f"path=\"$['prev_collection_link']\">{page_link}</wadl:param>\n"
        '<wadl:param style="plain" name="entries" path="$[\'entries\']" required="true"/>\n'
        '<wadl:param style="plain" name="entry_links" '
        f"path=\"$['entries'][*]['self_link']\">{_link(f'{root}#{name}')}</wadl:param>\n"
        "</wadl:representation>\n"
    )


_TRAILER = """<!--Finally, describe the 'hosted binary file' type...-->
<wadl:resource_type id="HostedFile">
  <wadl:method name="GET" id="HostedFile-get">
    <wadl:response>
      <wadl:representation status="303">
        <wadl:param style="header" name="Location"/>
      </wadl:representation>
    </wadl:response>
  </wadl:method>
  <wadl:method name="PUT" id="HostedFile-put"/>
  <wadl:method name="DELETE" id="HostedFile-delete"/>
</wadl:resource_type>
<!--...and the simple 'scalar value' type.-->
<wadl:resource_type id="ScalarValue">
  <wadl:method name="GET" id="ScalarValue-get">
    <wadl:response>
      <wadl:representation mediaType="application/json"/>
    </wadl:response>
  </wadl:method>
</wadl:resource_type>
<!--Define a data type for binary data.-->
<xsd:simpleType name="binary">
  <xsd:list itemType="byte"/>
</xsd:simpleType>
</wadl:application>
"""


def generate_wadl(root: str, media_type: str) -> bytes:
    """The whole WADL for the service root URL ``root`` (ending in ``/``).

    ``media_type`` is the WADL media type the caller asked for; the document
    names it as the WADL representation of every resource.
    """
    parts = [
        _HEADER,
        _doc("The cookbook example web service: recipes, dishes and cookbooks."),
        "\n",
        _service_root(root, media_type),
    ]
    parts += [_collection_type(root, entry, media_type) for entry in ENTRY_TYPES]
    parts += [_entry_type(root, entry, media_type) for entry in ENTRY_TYPES]
    parts.append(_TRAILER)
    return "".join(parts).encode("utf-8")
