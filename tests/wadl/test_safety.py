"""Entities: the internal ones real WADL uses work; external ones and bombs are refused."""

from __future__ import annotations

import pytest

from wadlclient.errors import WADLError
from wadlclient.wadl import MAX_ENTITY_LENGTH, parse_wadl

APP_OPEN = '<application xmlns="http://research.sun.com/wadl/2006/10">'


def document(doctype: str, body: str = "") -> bytes:
    prolog = f'<?xml version="1.0"?>\n<!DOCTYPE application [\n{doctype}\n]>\n'
    return f"{prolog}{APP_OPEN}{body}</application>".encode()


def test_internal_entity_expands_in_docs() -> None:
    data = document('<!ENTITY nbsp "&#160;">', "<doc>a&nbsp;b</doc>")

    assert parse_wadl(data).docs == ("a b",)


def test_internal_entity_expands_in_attributes() -> None:
    data = document('<!ENTITY host "http://example.test/">', '<resources base="&host;1.0/"/>')

    assert parse_wadl(data).base == "http://example.test/1.0/"


def test_internal_entities_work_in_utf16_documents() -> None:
    data = document('<!ENTITY nbsp "&#160;">', "<doc>a&nbsp;b</doc>").decode()
    encoded = data.replace('version="1.0"', 'version="1.0" encoding="UTF-16"').encode("utf-16")

    assert parse_wadl(encoded).docs == ("a b",)


@pytest.mark.parametrize(
    "declaration",
    [
        '<!ENTITY xxe SYSTEM "file:///etc/passwd">',
        '<!ENTITY xxe PUBLIC "-//X//Y//EN" "http://example.test/x.dtd">',
        '<!ENTITY pic SYSTEM "pic.gif" NDATA gif>',
    ],
)
@pytest.mark.timeout(5)
def test_external_entities_are_refused(declaration: str) -> None:
    data = document(declaration, "<doc>&xxe;</doc>" if "xxe" in declaration else "")

    with pytest.raises(WADLError, match="external entity"):
        parse_wadl(data, url="http://example.test/1.0/")


@pytest.mark.timeout(5)
def test_external_dtd_is_refused() -> None:
    data = (
        '<!DOCTYPE application SYSTEM "http://example.test/wadl.dtd">' + APP_OPEN + "</application>"
    ).encode()

    with pytest.raises(WADLError, match="external DTD"):
        parse_wadl(data)


@pytest.mark.timeout(5)
def test_parameter_entities_are_refused() -> None:
    data = document("<!ENTITY % pe \"<!ENTITY x 'y'>\"> %pe;")

    with pytest.raises(WADLError, match="parameter entity"):
        parse_wadl(data)


@pytest.mark.timeout(5)
def test_billion_laughs_is_refused_before_expansion() -> None:
    levels = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10)
    ]
    data = document("\n".join(levels), "<doc>&lol9;</doc>")

    with pytest.raises(WADLError, match="entity-expansion bomb"):
        parse_wadl(data)


@pytest.mark.timeout(5)
def test_quadratic_blowup_with_one_huge_entity_is_refused() -> None:
    data = document(f'<!ENTITY big "{"x" * 100_000}">', "<doc>" + "&big;" * 10_000 + "</doc>")

    with pytest.raises(WADLError, match="entity-expansion bomb"):
        parse_wadl(data)


@pytest.mark.timeout(5)
def test_quadratic_blowup_with_many_references_to_a_small_entity_is_refused() -> None:
    value = "x" * MAX_ENTITY_LENGTH
    data = document(f'<!ENTITY big "{value}">', '<doc a="' + "&big;" * 5_000 + '"/>')

    with pytest.raises(WADLError, match="entity-expansion bomb"):
        parse_wadl(data)


@pytest.mark.timeout(5)
def test_too_many_entity_declarations_are_refused() -> None:
    declarations = "\n".join(f'<!ENTITY e{i} "x">' for i in range(1000))

    with pytest.raises(WADLError, match="entities declared"):
        parse_wadl(document(declarations))


def test_refusal_message_names_the_url_and_the_line() -> None:
    data = document('<!ENTITY xxe SYSTEM "file:///etc/passwd">')

    with pytest.raises(WADLError) as caught:
        parse_wadl(data, url="http://example.test/1.0/")

    assert str(caught.value).startswith("http://example.test/1.0/: external entity &xxe;")
    assert "(line 3," in str(caught.value)
